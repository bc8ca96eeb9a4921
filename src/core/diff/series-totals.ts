/**
 * A cache series' totals from its turns, apart from the series itself so the app can add up the part measured so
 * far without loading the projection code.
 */
import type { CacheSeries, CacheTurn } from "./cache-series.ts";

/**
 * The series' totals over `turns`: the whole series once every request is measured, and the part measured so far
 * while a long one is still on its way.
 */
export function seriesOf(turns: readonly CacheTurn[]): CacheSeries {
  let breaks = 0;
  let promptTokens = 0;
  let uncachedTokens = 0;
  for (const turn of turns) {
    if (turn.breaks) breaks += 1;
    if (turn.prompt === undefined) continue;
    const total = Math.round(turn.prompt.value);
    promptTokens += total;
    uncachedTokens += total - (turn.reusable ?? 0);
  }
  return { turns, breaks, promptTokens, uncachedTokens };
}
