/**
 * The session tree's layout: pure and framework-free, so Vitest runs it in Node.
 *
 * `placement.ts` computes the nodes and their places as typed arrays (in the layout worker for large sessions);
 * `nodesOf` turns a placement into what the view reads — node objects, lines, bounds. `layoutTree` does both here.
 */
import type { EntryColumns } from "../../worker/protocol.ts";
import {
  buildGeometry,
  linksOf,
  type BranchLink,
  type TreeBounds,
  type TreeLink,
  type TreeSegment,
} from "./geometry.ts";
import { layoutSource, NODE, placeNodes, type Placement, type PlacementOptions } from "./placement.ts";

export { entryPath } from "./forest.ts";
export { NOTABLE_KINDS } from "./runs.ts";
export { placeLanes } from "./placement.ts";
export type { BranchLink, TreeBounds, TreeLink, TreeSegment } from "./geometry.ts";

export interface LayoutOptions extends PlacementOptions {
  /** Kinds never folded into a run (default `NOTABLE_KINDS`). */
  readonly notableKinds?: ReadonlySet<string>;
}

/** One drawn node: an entry, or a collapsed run of entries. */
export interface TreeNode {
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

/**
 * A node's key, stable across layouts: "e<entry>" or "r<first entry>". Made for the nodes drawn, not kept on every
 * node: writing 300,000 of them took half the time of making the nodes.
 */
export const nodeKey = (node: TreeNode): string => (node.kind === "run" ? "r" : "e") + node.entry;

/** Node indices bucketed by row: row r holds `nodes[start[r]] … nodes[start[r + 1] - 1]`, sorted by x. */
export interface TreeRows {
  readonly start: Int32Array;
  readonly nodes: Int32Array;
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

/** The layout with no node (nothing shown yet). */
export const EMPTY_LAYOUT: TreeLayout = {
  nodes: [],
  links: [],
  order: new Int32Array(0),
  bounds: { minX: 0, maxX: 0, minY: 0, maxY: 0 },
  nodeOfEntry: new Int32Array(0),
  rows: { start: new Int32Array(1), nodes: new Int32Array(0) },
  segments: [],
  branchLinks: [],
  laneWidth: 240,
  rowHeight: 40,
};

type Labels = Pick<EntryColumns, "labels">;

/** The node objects, lines and bounds of a placement; labels come from the session's columns. */
export function nodesOf(p: Placement, columns: Labels): TreeLayout {
  const nodes: TreeNode[] = new Array(p.entry.length);
  for (let i = 0; i < nodes.length; i++) nodes[i] = nodeAt(p, columns, i);
  return layoutOf(p, nodes);
}

/** Nodes `nodesOfPaced` makes between two pauses: about 15 ms of work. */
export const NODES_PER_SLICE = 25_000;

/**
 * `nodesOf` for the page, with `pause` (a task boundary) after every `NODES_PER_SLICE` nodes: a tree of 200,000
 * entries took 105-166 ms of node objects and collection in one task. `pause` resolves false when the layout is no
 * longer wanted (a newer one was asked for meanwhile): then the rest is not made, and the answer is undefined.
 */
export async function nodesOfPaced(
  p: Placement,
  columns: Labels,
  pause: () => Promise<boolean>,
  perSlice = NODES_PER_SLICE,
): Promise<TreeLayout | undefined> {
  const nodes: TreeNode[] = new Array(p.entry.length);
  for (let i = 0; i < nodes.length; i++) {
    if (i > 0 && i % perSlice === 0 && !(await pause())) return undefined;
    nodes[i] = nodeAt(p, columns, i);
  }
  return layoutOf(p, nodes);
}

function nodeAt(p: Placement, columns: Labels, i: number): TreeNode {
  const entry = p.entry[i]!;
  const flags = p.flags[i]!;
  const run = (flags & NODE.run) !== 0;
  const members = run ? p.members.subarray(p.memberStart[i]!, p.memberStart[i + 1]!) : undefined;
  return {
    kind: run ? "run" : "entry",
    entry,
    members,
    count: members?.length ?? 1,
    x: p.x[i]!,
    y: p.depth[i]! * p.rowHeight,
    parent: p.parent[i]!,
    depth: p.depth[i]!,
    level: p.level[i]!,
    childCount: p.childCount[i]!,
    onPath: (flags & NODE.onPath) !== 0,
    isLeaf: (flags & NODE.leaf) !== 0,
    isBranchPoint: p.childCount[i]! > 1,
    isRunStart: (flags & NODE.runStart) !== 0,
    inCycle: (flags & NODE.inCycle) !== 0,
    label: run ? undefined : columns.labels.get(entry),
  };
}

function layoutOf(p: Placement, nodes: TreeNode[]): TreeLayout {
  let links: TreeLink[] | undefined;
  return {
    nodes,
    // Built on first use: the view draws segments and branch links instead, and 100,000 objects are not free.
    get links() {
      return (links ??= linksOf(nodes));
    },
    order: Int32Array.from({ length: nodes.length }, (_, i) => i),
    nodeOfEntry: p.nodeOfEntry,
    rows: { start: p.rowStart, nodes: p.rowNodes },
    laneWidth: p.laneWidth,
    rowHeight: p.rowHeight,
    ...buildGeometry(nodes),
  };
}

/** Lays out a session's entries as a tree of entry and run nodes, in this thread. See `runs.ts` for what collapses. */
export function layoutTree(columns: EntryColumns, options: LayoutOptions): TreeLayout {
  return nodesOf(placeNodes(layoutSource(columns, options.notableKinds), options), columns);
}
