/**
 * The session tree's layout: pure and framework-free, so Vitest runs it in Node.
 *
 * shown forest (filter) → runs (collapse) → display nodes in pre-order → d3-hierarchy's tidy tree places them:
 * rows go down one per depth, and each branch gets its own lane. Several roots hang under a virtual root.
 */
import { hierarchy, tree, type HierarchyPointNode } from "d3-hierarchy";
import type { EntryColumns } from "../../worker/protocol.ts";
import { shownForest } from "./forest.ts";
import { planRuns, type RunOptions } from "./runs.ts";
import {
  buildGeometry,
  linksOf,
  type BranchLink,
  type TreeBounds,
  type TreeLink,
  type TreeRows,
  type TreeSegment,
} from "./geometry.ts";

export { entryPath } from "./forest.ts";
export { NOTABLE_KINDS } from "./runs.ts";
export type { BranchLink, TreeBounds, TreeLink, TreeRows, TreeSegment } from "./geometry.ts";

export interface LayoutOptions extends Omit<RunOptions, "leaf"> {
  /** Entries to show (a filter or search). A hidden entry's shown descendants hang from its nearest shown ancestor. */
  readonly visible?: Int32Array;
  /** Entries from the root to the current leaf. */
  readonly path: ReadonlySet<number>;
  /** The current leaf: always shown, never inside a run. */
  readonly leaf?: number;
  /** Horizontal distance between lanes, in px (default 240). */
  readonly laneWidth?: number;
  /** Vertical distance between rows, in px (default 40). */
  readonly rowHeight?: number;
}

/** One drawn node: an entry, or a collapsed run of entries. */
export interface TreeNode {
  /** Stable across layouts: "e<entry>" or "r<first entry>". */
  readonly key: string;
  readonly kind: "entry" | "run";
  /** The entry, or the run's first entry. */
  readonly entry: number;
  /** A run's entries, top first (undefined for an entry node). */
  readonly members: Int32Array | undefined;
  /** 1, or the run's length. */
  readonly count: number;
  /** Centre, in layout px. */
  readonly x: number;
  readonly y: number;
  /** Index of the parent node, -1 for a root. */
  readonly parent: number;
  /** Row (0 for roots). */
  readonly depth: number;
  /** Nesting level for assistive technology: 1 for roots, +1 below each branch point (a linear chain is one level). */
  readonly level: number;
  readonly childCount: number;
  /** On the path from the root to the current leaf. */
  readonly onPath: boolean;
  /** The current leaf. */
  readonly isLeaf: boolean;
  readonly isBranchPoint: boolean;
  /** The first entry of a run the person expanded (it can fold again). */
  readonly isRunStart: boolean;
  readonly inCycle: boolean;
  readonly label: string | undefined;
}

export interface TreeLayout {
  /** In pre-order: the first child of node i, if any, is node i + 1. */
  readonly nodes: readonly TreeNode[];
  /** Every parent–child link, with coordinates. */
  readonly links: readonly TreeLink[];
  /** Display order for keyboard navigation (pre-order). */
  readonly order: Int32Array;
  readonly bounds: TreeBounds;
  /** Node drawing each entry; for a hidden entry, the node of its nearest shown ancestor; -1 if none. */
  readonly nodeOfEntry: Int32Array;
  /** Nodes bucketed by row, sorted by x: the spatial index the viewport queries. */
  readonly rows: TreeRows;
  /** Vertical chains, one line each (cheap to draw at any zoom). */
  readonly segments: readonly TreeSegment[];
  /** Links out of branch points (the only links that are not part of a segment). */
  readonly branchLinks: readonly BranchLink[];
  readonly laneWidth: number;
  readonly rowHeight: number;
}

interface Skeleton {
  readonly entry: Int32Array;
  readonly parent: Int32Array;
  readonly members: (Int32Array | undefined)[];
  readonly nodeOfEntry: Int32Array;
}

/** Display nodes in pre-order: each shown entry, except that a collapsed run stands for all its members. */
function buildSkeleton(
  count: number,
  forest: ReturnType<typeof shownForest>,
  collapsed: ReadonlyMap<number, Int32Array>,
): Skeleton {
  const { children, up } = forest;
  const entry: number[] = [];
  const parent: number[] = [];
  const members: (Int32Array | undefined)[] = [];
  const nodeOfEntry = new Int32Array(count).fill(-1);
  const stack: number[] = [];
  for (let r = forest.roots.length - 1; r >= 0; r--) stack.push(forest.roots[r]!);
  while (stack.length > 0) {
    const e = stack.pop()!;
    const id = entry.length;
    const run = collapsed.get(e);
    entry.push(e);
    parent.push(up[e]! < 0 ? -1 : nodeOfEntry[up[e]!]!);
    members.push(run);
    let tail = e;
    if (run) for (const m of run) nodeOfEntry[(tail = m)] = id;
    else nodeOfEntry[e] = id;
    for (let c = children.start[tail + 1]! - 1; c >= children.start[tail]!; c--) stack.push(children.list[c]!);
  }
  for (let e = 0; e < count; e++) if (!forest.shown[e] && up[e]! >= 0) nodeOfEntry[e] = nodeOfEntry[up[e]!]!;
  return { entry: Int32Array.from(entry), parent: Int32Array.from(parent), members, nodeOfEntry };
}

type Placed = HierarchyPointNode<number>;

/** Row and child count of each node of a forest given in pre-order by its parent column. */
function shapeOf(parent: Int32Array): { depth: Int32Array; childCount: Int32Array } {
  const depth = new Int32Array(parent.length);
  const childCount = new Int32Array(parent.length);
  for (let i = 0; i < parent.length; i++) {
    const p = parent[i]!;
    if (p >= 0) {
      depth[i] = depth[p]! + 1;
      childCount[p]!++;
    }
  }
  return { depth, childCount };
}

/**
 * Rows d3 can skip: rows where every node is the only child of an only child. There each node sits exactly below
 * its parent, so the tidy tree's spacing constraints on that row repeat the row above; contracting the row changes
 * no x. A 20,000-row session with 150 branches keeps a few hundred rows; a linear chain keeps two.
 */
function redundantRows(parent: Int32Array, depth: Int32Array, childCount: Int32Array): Uint8Array {
  let rows = 0;
  for (const d of depth) rows = Math.max(rows, d + 1);
  const redundant = new Uint8Array(rows).fill(1);
  redundant[0] = 0;
  for (let i = 0; i < parent.length; i++) {
    const p = parent[i]!;
    if (p < 0 || childCount[i] !== 1 || childCount[p] !== 1) redundant[depth[i]!] = 0;
  }
  return redundant;
}

/**
 * Places each node of a forest (given in pre-order by its parent column) in a lane with d3's tidy tree
 * (Reingold–Tilford in Buchheim's linear-time form) and returns the x of each, in px.
 *
 * Two things keep this fast on a 100,000-entry chain. `d3.hierarchy()` is not used: its height pass walks up to the
 * root from every node, quadratic on a long chain (0.7 s for 10,000 nodes); the nodes are built here in one pass on
 * d3's own prototype instead (`tree()` itself is iterative). And rows that cannot change any x are contracted first
 * (`compressRows`, on by default; the tests check it gives the same x as the full tree).
 */
export function placeLanes(parent: Int32Array, laneWidth: number, compressRows = true): Float64Array {
  const { depth, childCount } = shapeOf(parent);
  const skip = compressRows ? redundantRows(parent, depth, childCount) : new Uint8Array(depth.length);
  const make = (data: number, up: Placed | null): Placed => {
    const node = Object.create(hierarchy.prototype) as { -readonly [K in keyof Placed]: Placed[K] };
    node.data = data;
    node.parent = up;
    node.depth = up ? up.depth + 1 : 0;
    node.height = 0;
    return node as Placed;
  };
  const root = make(-1, null);
  const placed: (Placed | undefined)[] = new Array(parent.length);
  // anchor[i]: the nearest node at or above i that d3 places (every node between shares its x).
  const anchor = new Int32Array(parent.length);
  for (let i = 0; i < parent.length; i++) {
    const p = parent[i]!;
    if (skip[depth[i]!]) {
      anchor[i] = anchor[p]!;
      continue;
    }
    anchor[i] = i;
    const up = p < 0 ? root : placed[anchor[p]!]!;
    const node = (placed[i] = make(i, up));
    (up.children ??= []).push(node);
  }
  tree<number>()
    .nodeSize([laneWidth, 1])
    .separation(() => 1)(root);
  return Float64Array.from(anchor, (a) => placed[a]!.x);
}

/** Lays out a session's entries as a tree of entry and run nodes. See `runs.ts` for what collapses. */
export function layoutTree(columns: EntryColumns, options: LayoutOptions): TreeLayout {
  const laneWidth = options.laneWidth ?? 240;
  const rowHeight = options.rowHeight ?? 40;
  const leaf =
    options.leaf !== undefined && options.leaf >= 0 && options.leaf < columns.count ? options.leaf : undefined;
  const forest = shownForest(columns, options.visible, leaf);
  const runs = planRuns(columns, forest, { ...options, leaf });
  const skeleton = buildSkeleton(columns.count, forest, runs.collapsed);
  const xs = placeLanes(skeleton.parent, laneWidth);
  const { depth, childCount } = shapeOf(skeleton.parent);
  const n = skeleton.entry.length;
  const onCycle = new Set(columns.inCycle);
  const nodes: TreeNode[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const entry = skeleton.entry[i]!;
    const members = skeleton.members[i];
    const p = skeleton.parent[i]!;
    nodes[i] = {
      key: (members ? "r" : "e") + entry,
      kind: members ? "run" : "entry",
      entry,
      members,
      count: members?.length ?? 1,
      x: xs[i]!,
      y: depth[i]! * rowHeight,
      parent: p,
      depth: depth[i]!,
      level: p < 0 ? 1 : nodes[p]!.level + (childCount[p]! > 1 ? 1 : 0),
      childCount: childCount[i]!,
      onPath: options.path.has(entry),
      isLeaf: entry === leaf,
      isBranchPoint: childCount[i]! > 1,
      isRunStart: !members && runs.expandedStarts.has(entry),
      inCycle: onCycle.has(entry),
      label: members ? undefined : columns.labels[entry],
    };
  }
  const geometry = buildGeometry(nodes);
  let links: TreeLink[] | undefined;
  return {
    nodes,
    // Built on first use: the view draws segments and branch links instead, and 100,000 objects are not free.
    get links() {
      return (links ??= linksOf(nodes));
    },
    order: Int32Array.from({ length: n }, (_, i) => i),
    nodeOfEntry: skeleton.nodeOfEntry,
    laneWidth,
    rowHeight,
    ...geometry,
  };
}
