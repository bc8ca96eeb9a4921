/**
 * Run collapsing: long stretches of the conversation where nothing happens become one "⋯ N entries" node.
 *
 * An entry is *notable* — always drawn on its own — when it is a root, a branch point or the tip of a branch
 * (not exactly one shown child), carries a label, is of a notable kind (`NOTABLE_KINDS`: user messages, which
 * are the turns people navigate by, and compaction, branch summaries, model, thinking-level and session-info
 * changes), is on a parent cycle, or is the current leaf or one of its `leafContext` nearest shown ancestors.
 * A chain of at least `minRun` consecutive non-notable entries, each the only shown child of the one before,
 * collapses into a run keyed by its first entry, unless that key is in `expanded`. The leaf is never inside one.
 */
import type { ShownForest } from "./forest.ts";

/** Entry flags of a layout source (`placement.ts`): never folded; on a parent cycle (never folded either). */
export const NOTABLE = 1;
export const IN_CYCLE = 2;

/** Kinds that are never folded into a run. */
export const NOTABLE_KINDS: ReadonlySet<string> = new Set([
  "user",
  "compaction",
  "branch_summary",
  "model_change",
  "thinking_level_change",
  "session_info",
]);

/** No run expanded. */
export const NONE_EXPANDED: ReadonlySet<number> = new Set();

/** A copy of `set` with `key` added (`on`) or removed: sets of expanded runs are replaced, never mutated. */
export function toggled(set: ReadonlySet<number>, key: number, on: boolean): ReadonlySet<number> {
  const next = new Set(set);
  if (on) next.add(key);
  else next.delete(key);
  return next;
}

export interface RunOptions {
  readonly expanded: ReadonlySet<number>;
  readonly leaf: number | undefined;
  /** Shortest chain that collapses (default 4). */
  readonly minRun?: number;
  /** How many shown ancestors of the leaf stay visible around it (default 2). */
  readonly leafContext?: number;
}

export interface RunPlan {
  /** Collapsed runs by first entry: their members, top first. */
  readonly collapsed: ReadonlyMap<number, Int32Array>;
  /** First entries of runs the person expanded (and that would still collapse). */
  readonly expandedStarts: ReadonlySet<number>;
}

function pinnedEntries(forest: ShownForest, leaf: number | undefined, context: number): Set<number> {
  const pinned = new Set<number>();
  if (leaf === undefined || !forest.shown[leaf]) return pinned;
  for (let e = leaf, left = context; e >= 0 && left >= 0; e = forest.up[e]!, left--) pinned.add(e);
  return pinned;
}

/**
 * Decides which chains collapse into runs. `flags` marks, per entry, what is `NOTABLE` (a notable kind or a label)
 * or `IN_CYCLE`: neither ever folds. Linear in the number of shown entries.
 */
export function planRuns(flags: Uint8Array, forest: ShownForest, options: RunOptions): RunPlan {
  const { children, shown, up } = forest;
  const minRun = options.minRun ?? 4;
  const pinned = pinnedEntries(forest, options.leaf, options.leafContext ?? 2);
  const foldable = (e: number): boolean =>
    e >= 0 &&
    shown[e] === 1 &&
    up[e]! >= 0 &&
    children.start[e + 1]! - children.start[e]! === 1 &&
    flags[e] === 0 &&
    !pinned.has(e);

  const collapsed = new Map<number, Int32Array>();
  const expandedStarts = new Set<number>();
  const members: number[] = [];
  for (const first of forest.order) {
    if (!foldable(first) || foldable(up[first]!)) continue;
    for (let e = first; foldable(e); e = children.list[children.start[e]!]!) members.push(e);
    if (members.length >= minRun) {
      if (options.expanded.has(first)) expandedStarts.add(first);
      else collapsed.set(first, Int32Array.from(members));
    }
    members.length = 0;
  }
  return { collapsed, expandedStarts };
}
