/**
 * Comparisons and cache series on a loaded session, from side descriptions (leaf, rules, model): what the worker
 * and the CLI both run. Counting is the caller's (the worker loads tokenizers lazily, the CLI up front).
 */
import type { Projection } from "../project/project.ts";
import { projectionOptions } from "../project/rules.ts";
import { err, ok, type Result } from "../result.ts";
import type { EntryTree } from "../session/tree.ts";
import type { ProjectionTokens } from "../tokens/projection.ts";
import { cacheSeries, type BetweenRequests, type CacheSeries, type CacheTurn } from "./cache-series.ts";
import { compareProjections, type Comparison } from "./compare.ts";
import type { EntryLabel } from "./describe.ts";
import { projectSide, resolveModelRef, type CompareSide } from "./sides.ts";

/** Counts the projection of one side (or of one request of a side's path). */
export type CountSide = (side: CompareSide, projection: Projection) => ProjectionTokens | Promise<ProjectionTokens>;

/** Entries named by their line in the file, as everywhere else in the app and the CLI. */
export function lineLabel(tree: EntryTree): EntryLabel {
  return (entry) => `line ${tree.entries[entry]?.line ?? "?"}`;
}

/** Projects both sides, counts them when `count` is given, and compares them. */
export async function compareSides(
  tree: EntryTree,
  a: CompareSide,
  b: CompareSide,
  count?: CountSide,
  options: { readonly json?: boolean } = {},
): Promise<Result<Comparison>> {
  const pa = projectSide(tree, a);
  if (!pa.ok) return err(`A: ${pa.error}`);
  const pb = projectSide(tree, b);
  if (!pb.ok) return err(`B: ${pb.error}`);
  let tokens: [ProjectionTokens, ProjectionTokens] | undefined;
  let tokensError: string | undefined;
  if (count) {
    try {
      tokens = [await count(a, pa.value), await count(b, pb.value)];
    } catch (error) {
      tokensError = error instanceof Error ? error.message : String(error);
    }
  }
  const comparison = compareProjections(pa.value, pb.value, tokens?.[0], tokens?.[1], {
    entryLabel: lineLabel(tree),
    ...(options.json ? { json: true } : {}),
  });
  return ok(tokensError ? { ...comparison, tokensError } : comparison);
}

/**
 * The cache series of one side: every request on the path to its leaf, under its rules and model; after the
 * turns `measured` before, when it was stopped part way.
 */
export async function cacheSeriesFor(
  tree: EntryTree,
  side: CompareSide,
  count: CountSide,
  between?: BetweenRequests,
  measured?: readonly CacheTurn[],
): Promise<Result<CacheSeries>> {
  const model = resolveModelRef(side.model);
  if (!model.ok) return model;
  const options = projectionOptions(side.settings);
  return ok(
    await cacheSeries(
      tree,
      side.leaf,
      model.value ? { ...options, model: model.value } : options,
      (projection) => count({ ...side, leaf: projection.leaf }, projection),
      between,
      measured,
    ),
  );
}
