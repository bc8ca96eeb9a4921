/**
 * Aligns the items of two payloads by provenance: items that came from the same session entries belong together,
 * whatever their position (one assistant message may be one item for one API and three for another; Anthropic
 * sends consecutive tool results as one item). Items without entries (a system prompt in the list, pi-ai's
 * synthetic results for orphaned tool calls) are matched by content, then by kind in order.
 */
import { Interner, shortestEdit } from "./myers.ts";

/** Items of both sides that came from the same entries: one line of the change list. */
export interface ItemGroup {
  /** Positions in A's main list, ascending. */
  readonly a: readonly number[];
  /** Positions in B's main list, ascending. */
  readonly b: readonly number[];
  /** The session entries behind them, in the order the items name them. */
  readonly entries: readonly number[];
}

/** One side of the alignment: each item's entries, serialized form and kind (for items without entries). */
export interface AlignSide {
  readonly sources: readonly (readonly number[])[];
  readonly keys: readonly string[];
  /** "system" or "synthetic" for items without entries. */
  readonly kinds: readonly string[];
}

class UnionFind {
  readonly #parent: Int32Array;
  constructor(size: number) {
    this.#parent = Int32Array.from({ length: size }, (_, i) => i);
  }
  find(i: number): number {
    let root = i;
    while (this.#parent[root] !== root) root = this.#parent[root] as number;
    while (this.#parent[i] !== root) {
      const next = this.#parent[i] as number;
      this.#parent[i] = root;
      i = next;
    }
    return root;
  }
  union(i: number, j: number): void {
    const ri = this.find(i);
    const rj = this.find(j);
    if (ri !== rj) this.#parent[Math.max(ri, rj)] = Math.min(ri, rj);
  }
}

/** Pairs items without entries: equal content first, then the same kind in order between equal ones. */
function pairSourceless(a: AlignSide, b: AlignSide): [number, number][] {
  const onlyA = a.sources.flatMap((s, i) => (s.length === 0 ? [i] : []));
  const onlyB = b.sources.flatMap((s, i) => (s.length === 0 ? [i] : []));
  if (onlyA.length === 0 || onlyB.length === 0) return [];
  const interner = new Interner();
  const edits =
    shortestEdit(
      interner.ids(onlyA.map((i) => a.keys[i] as string)),
      interner.ids(onlyB.map((j) => b.keys[j] as string)),
    ) ?? [];
  const pairs: [number, number][] = [];
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    for (const i of removed) {
      const k = added.findIndex((j) => b.kinds[j] === a.kinds[i]);
      if (k >= 0) pairs.push([i, added.splice(k, 1)[0] as number]);
    }
    removed = [];
    added = [];
  };
  for (const edit of edits) {
    if (edit.op === "same") {
      flush();
      pairs.push([onlyA[edit.a] as number, onlyB[edit.b] as number]);
    } else if (edit.op === "removed") removed.push(onlyA[edit.a] as number);
    else added.push(onlyB[edit.b] as number);
  }
  flush();
  return pairs;
}

/** Groups of aligned items, in payload order: B's order, with what only A has placed where A had it. */
export function alignItems(a: AlignSide, b: AlignSide): ItemGroup[] {
  const nA = a.sources.length;
  const uf = new UnionFind(nA + b.sources.length);
  const byEntry = new Map<number, number>();
  const link = (node: number, sources: readonly number[]) => {
    for (const entry of sources) {
      const seen = byEntry.get(entry);
      if (seen === undefined) byEntry.set(entry, node);
      else uf.union(seen, node);
    }
  };
  a.sources.forEach((s, i) => link(i, s));
  b.sources.forEach((s, j) => link(nA + j, s));
  for (const [i, j] of pairSourceless(a, b)) uf.union(i, nA + j);

  const groups = new Map<number, { a: number[]; b: number[]; entries: number[] }>();
  const groupOf = (node: number) => {
    const root = uf.find(node);
    let group = groups.get(root);
    if (!group) groups.set(root, (group = { a: [], b: [], entries: [] }));
    return group;
  };
  const add = (node: number, sources: readonly number[], side: "a" | "b", index: number) => {
    const group = groupOf(node);
    group[side].push(index);
    for (const entry of sources) if (!group.entries.includes(entry)) group.entries.push(entry);
  };
  b.sources.forEach((s, j) => add(nA + j, s, "b", j));
  a.sources.forEach((s, i) => add(i, s, "a", i));
  return orderGroups([...groups.values()].map((g) => ({ ...g, a: g.a.sort((x, y) => x - y) })));
}

function orderGroups(groups: readonly ItemGroup[]): ItemGroup[] {
  const withB = groups.filter((g) => g.b.length > 0).sort((x, y) => (x.b[0] as number) - (y.b[0] as number));
  const onlyA = groups.filter((g) => g.b.length === 0).sort((x, y) => (x.a[0] as number) - (y.a[0] as number));
  // What only A has goes before the first group of B that comes after it in A; between two groups both sides
  // have, removals come before additions (as in a text diff).
  const bound = new Array<number>(withB.length);
  let next = Number.POSITIVE_INFINITY;
  for (let k = withB.length - 1; k >= 0; k -= 1) {
    const at = (withB[k] as ItemGroup).a[0];
    if (at !== undefined) next = at;
    bound[k] = next;
  }
  const out: ItemGroup[] = [];
  let taken = 0;
  withB.forEach((group, k) => {
    while (taken < onlyA.length && ((onlyA[taken] as ItemGroup).a[0] as number) < (bound[k] as number))
      out.push(onlyA[taken++]!);
    out.push(group);
  });
  while (taken < onlyA.length) out.push(onlyA[taken++]!);
  return out;
}

/** Within one group: which items of A and B are equal, which only one side has. */
export interface ItemPair {
  readonly a?: number;
  readonly b?: number;
  readonly same: boolean;
}

export function pairItems(group: ItemGroup, keysA: readonly string[], keysB: readonly string[]): ItemPair[] {
  const interner = new Interner();
  const edits = shortestEdit(
    interner.ids(group.a.map((i) => keysA[i] as string)),
    interner.ids(group.b.map((j) => keysB[j] as string)),
  ) ?? [
    ...group.a.map((_, i) => ({ op: "removed" as const, a: i })),
    ...group.b.map((_, j) => ({ op: "added" as const, b: j })),
  ];
  return edits.map((edit) =>
    edit.op === "same"
      ? { a: group.a[edit.a] as number, b: group.b[edit.b] as number, same: true }
      : edit.op === "removed"
        ? { a: group.a[edit.a] as number, same: false }
        : { b: group.b[edit.b] as number, same: false },
  );
}
