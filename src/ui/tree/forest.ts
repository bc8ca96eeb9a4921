/**
 * The shown forest: which entries the tree draws and the shown entry each one hangs from.
 * Typed arrays and explicit stacks only — a session can be a 100,000-entry chain, and nothing here recurses.
 */
import type { EntryColumns } from "../../worker/protocol.ts";

/** Children lists of a forest in compressed form: the children of `e` are `list[start[e]] … list[start[e + 1] - 1]`. */
export interface ChildLists {
  readonly start: Int32Array;
  readonly list: Int32Array;
}

/** The entries the tree draws, and the parent each one hangs from. */
export interface ShownForest {
  /** 1 where the entry is drawn. */
  readonly shown: Uint8Array;
  /** For every entry, its nearest shown proper ancestor (-1: none). For a shown entry, its parent in the drawing. */
  readonly up: Int32Array;
  /** Shown children of each shown entry, in file order. */
  readonly children: ChildLists;
  /** Shown entries without a shown ancestor, in file order. */
  readonly roots: Int32Array;
  /** Shown entries in pre-order (parents before children, first child's subtree first). */
  readonly order: Int32Array;
}

/**
 * The parent column made safe to walk: a parent out of range becomes -1, and every parent cycle is cut by making
 * its lowest-index entry a root (pi would loop forever on such entries; we draw them as a separate tree).
 */
export function guardedParents(columns: Pick<EntryColumns, "count" | "parents">): Int32Array {
  const n = columns.count;
  const parents = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = columns.parents[i] ?? -1;
    parents[i] = p >= 0 && p < n ? p : -1;
  }
  const state = new Uint8Array(n); // 0 unseen, 1 on the current walk, 2 settled
  const walk: number[] = [];
  for (let start = 0; start < n; start++) {
    let cur = start;
    while (cur !== -1 && state[cur] === 0) {
      state[cur] = 1;
      walk.push(cur);
      cur = parents[cur]!;
    }
    if (cur !== -1 && state[cur] === 1) {
      let lowest = cur;
      for (let j = walk.lastIndexOf(cur); j < walk.length; j++) lowest = Math.min(lowest, walk[j]!);
      parents[lowest] = -1;
    }
    for (const e of walk) state[e] = 2;
    walk.length = 0;
  }
  return parents;
}

/**
 * Children lists of the forest `parents` describes, restricted to entries where `include` is 1 (all if absent).
 * Each list is in file order, or in the order entries appear in `order` (all entries, each once) when given.
 */
export function childListsOf(parents: Int32Array, include?: Uint8Array, order?: Int32Array): ChildLists {
  const n = parents.length;
  const start = new Int32Array(n + 1);
  for (let e = 0; e < n; e++) {
    const p = parents[e]!;
    if (p >= 0 && (!include || include[e])) start[p + 1]!++;
  }
  for (let e = 0; e < n; e++) start[e + 1]! += start[e]!;
  const fill = start.slice(0, n);
  const list = new Int32Array(start[n]!);
  for (let k = 0; k < n; k++) {
    const e = order ? order[k]! : k;
    const p = parents[e]!;
    if (p >= 0 && (!include || include[e])) list[fill[p]!++] = e;
  }
  return { start, list };
}

/** Entries without a parent (restricted to `include`), in index order or in the order of `order`. */
export function rootsOf(parents: Int32Array, include?: Uint8Array, order?: Int32Array): Int32Array {
  const roots: number[] = [];
  for (let k = 0; k < parents.length; k++) {
    const e = order ? order[k]! : k;
    if (parents[e] === -1 && (!include || include[e])) roots.push(e);
  }
  return Int32Array.from(roots);
}

/** Pre-order walk of a forest, iteratively. */
export function preorder(children: ChildLists, roots: Int32Array): Int32Array {
  const out = new Int32Array(children.list.length + roots.length);
  const stack: number[] = [];
  for (let r = roots.length - 1; r >= 0; r--) stack.push(roots[r]!);
  let n = 0;
  while (stack.length > 0) {
    const e = stack.pop()!;
    out[n++] = e;
    for (let c = children.start[e + 1]! - 1; c >= children.start[e]!; c--) stack.push(children.list[c]!);
  }
  return out;
}

function shownMask(count: number, visible: Int32Array | undefined, leaf: number | undefined): Uint8Array {
  const shown = new Uint8Array(count);
  if (!visible) shown.fill(1);
  else for (const e of visible) if (e >= 0 && e < count) shown[e] = 1;
  if (leaf !== undefined && leaf >= 0 && leaf < count) shown[leaf] = 1;
  return shown;
}

/**
 * The forest the tree draws: `visible` entries (all when absent, and always the current `leaf`), each hanging from
 * its nearest shown ancestor, so a filter keeps the shape of the conversation around what it hides — and its order:
 * shown entries keep the order of the whole tree's pre-order, so a filter never swaps two branches.
 */
export function shownForest(
  columns: Pick<EntryColumns, "count" | "parents">,
  visible: Int32Array | undefined,
  leaf: number | undefined,
): ShownForest {
  const parents = guardedParents(columns);
  const shown = shownMask(columns.count, visible, leaf);
  if (!visible) {
    const children = childListsOf(parents);
    const roots = rootsOf(parents);
    return { shown, up: parents, children, roots, order: preorder(children, roots) };
  }
  const whole = preorder(childListsOf(parents), rootsOf(parents));
  const up = new Int32Array(columns.count).fill(-1);
  for (const e of whole) {
    const p = parents[e]!;
    up[e] = p < 0 ? -1 : shown[p] ? p : up[p]!;
  }
  const children = childListsOf(up, shown, whole);
  const roots = rootsOf(up, shown, whole);
  return { shown, up, children, roots, order: preorder(children, roots) };
}

/** The entries from a root down to `leaf` (the current path), walked with the cycle guard. Empty without a leaf. */
export function entryPath(columns: Pick<EntryColumns, "count" | "parents">, leaf: number | undefined): Set<number> {
  const path = new Set<number>();
  if (leaf === undefined || leaf < 0 || leaf >= columns.count) return path;
  for (let e = leaf; e >= 0 && e < columns.count && !path.has(e); e = columns.parents[e] ?? -1) path.add(e);
  return path;
}

const ranks = new WeakMap<Int32Array, Int32Array>();

/** Each entry's position in the whole tree's pre-order (children in file order), cached per parents column. */
function displayRanks(columns: Pick<EntryColumns, "count" | "parents">): Int32Array {
  let rank = ranks.get(columns.parents);
  if (!rank) {
    const parents = guardedParents(columns);
    const order = preorder(childListsOf(parents), rootsOf(parents));
    rank = new Int32Array(columns.count);
    order.forEach((e, i) => (rank![e] = i));
    ranks.set(columns.parents, rank);
  }
  return rank;
}

/**
 * `entries` sorted as the tree shows them, in display order (pre-order: a parent before its children, the first
 * branch before the next), which `shownForest` keeps whatever the filter: the order in which search hits are visited.
 */
export function inDisplayOrder(columns: Pick<EntryColumns, "count" | "parents">, entries: Int32Array): Int32Array {
  const rank = displayRanks(columns);
  return Int32Array.from(entries.filter((e) => e >= 0 && e < columns.count)).sort((a, b) => rank[a]! - rank[b]!);
}
