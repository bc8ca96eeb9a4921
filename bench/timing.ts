/** Timing helpers for the benchmark: alternating runs, optional forced GC, medians, and the result table. */
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** One side of a comparison: run once, return something to keep alive until timed (so its cost counts). */
export type Work = () => unknown;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function timeOnce(work: Work, collectFirst: boolean, setup?: () => void): Promise<number> {
  setup?.();
  if (collectFirst) gc();
  const start = performance.now();
  const result = work();
  if (result instanceof Promise) await result;
  return performance.now() - start;
}

/** Untimed runs of each side first, so both are measured with optimised code. */
export const WARM_UPS = 2;

/**
 * Median wall time (ms) of `ours` and `baseline` over `reps` runs each, after `WARM_UPS` runs of each.
 * The two sides alternate so that drift (thermal, other load) hits both alike. `collectFirst` forces a full
 * GC before every run: needed when a run leaves hundreds of MB behind that the next run would otherwise pay
 * to collect; it also resets the young generation, which penalises short allocation-heavy runs, so runs
 * that leave little behind are better measured in a steady heap. `setup.ours` and `setup.baseline` run, untimed,
 * before each run of their side (e.g. to read a session afresh).
 */
export async function compare(
  ours: Work,
  baseline: Work,
  reps: number,
  collectFirst: boolean,
  setup: { readonly ours?: () => void; readonly baseline?: () => void } = {},
): Promise<{ ours: number; baseline: number }> {
  for (let i = 0; i < WARM_UPS; i += 1) {
    await timeOnce(ours, collectFirst, setup.ours);
    await timeOnce(baseline, collectFirst, setup.baseline);
  }
  const times = { ours: [] as number[], baseline: [] as number[] };
  for (let i = 0; i < reps; i += 1) {
    times.ours.push(await timeOnce(ours, collectFirst, setup.ours));
    times.baseline.push(await timeOnce(baseline, collectFirst, setup.baseline));
  }
  return { ours: median(times.ours), baseline: median(times.baseline) };
}

export interface Figure {
  readonly name: string;
  readonly ours: number;
  readonly baseline: number;
  readonly baselineName: string;
  /** Ratio = baseline time / our time; higher is better for us. */
  readonly target: number;
  readonly note?: string;
}

const ms = (value: number) => `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ms`;

/** One table row: `name  ours 812 ms  baseline 655 ms  ratio 0.81  (target ≥ 0.5)  OK`. */
export function formatFigure(figure: Figure, nameWidth: number): string {
  const ratio = figure.baseline / figure.ours;
  const verdict = ratio >= figure.target ? "OK" : "MISSED";
  const cells = [
    figure.name.padEnd(nameWidth),
    `ours ${ms(figure.ours).padStart(9)}`,
    `${figure.baselineName} ${ms(figure.baseline).padStart(9)}`,
    `ratio ${ratio.toFixed(2).padStart(5)}`,
    `(target ≥ ${figure.target})`,
    verdict,
  ];
  return `${cells.join("  ")}${figure.note ? `  ${figure.note}` : ""}`;
}

export function printTable(figures: readonly Figure[]): void {
  const width = Math.max(...figures.map((f) => f.name.length));
  for (const figure of figures) console.log(formatFigure(figure, width));
}
