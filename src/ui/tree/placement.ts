/**
 * The numeric half of the tree layout: which nodes there are and where they go, as typed arrays only, so that it
 * can run in the layout worker (layout.worker.ts) and its result cross to the page without a copy (transfer).
 *
 * shown forest (filter) → runs (collapse) → display nodes in pre-order → d3-hierarchy's tidy tree places them:
 * rows go down one per depth, and each branch gets its own lane. Several roots hang under a virtual root.
 * `layout.ts` turns the result into the node objects and lines the view draws.
 */
import { hierarchy, tree, type HierarchyPointNode } from "d3-hierarchy";
import { codedString } from "../../worker/coded-strings.ts";
import type { EntryColumns } from "../../worker/protocol.ts";
import { entryPath, shownForest, type ShownForest } from "./forest.ts";
import { IN_CYCLE, NOTABLE, NOTABLE_KINDS, planRuns, type RunOptions } from "./runs.ts";

/** What the layout needs of a session, reduced to numbers: sent once to the layout worker. */
export interface LayoutSource {
  readonly count: number;
  /** Parent entry index, or -1 for a root (as `EntryColumns.parents`). */
  readonly parents: Int32Array;
  /** Per entry, `NOTABLE` (a notable kind, or labelled: never folded) and `IN_CYCLE` bits. */
  readonly flags: Uint8Array;
}

/** The layout source of a session: `notableKinds` and labelled entries are never folded into runs. */
export function layoutSource(
  columns: Pick<EntryColumns, "count" | "parents" | "kinds" | "labels" | "inCycle">,
  notableKinds: ReadonlySet<string> = NOTABLE_KINDS,
): LayoutSource {
  const flags = new Uint8Array(columns.count);
  for (let e = 0; e < columns.count; e++) {
    if (columns.labels.get(e) || notableKinds.has(codedString(columns.kinds, e) ?? "")) flags[e] = NOTABLE;
  }
  for (const e of columns.inCycle) if (e >= 0 && e < columns.count) flags[e]! |= IN_CYCLE;
  return { count: columns.count, parents: columns.parents, flags };
}

export interface PlacementOptions extends Omit<RunOptions, "leaf"> {
  /** Entries to show (a filter or search). A hidden entry's shown descendants hang from its nearest shown ancestor. */
  readonly visible?: Int32Array | undefined;
  /** The current leaf: always shown, never inside a run; its path from the root is marked. */
  readonly leaf?: number | undefined;
  /** Entries from the root to the current leaf (default: walked up from `leaf`). */
  readonly path?: ReadonlySet<number> | undefined;
  /** Horizontal distance between lanes, in px (default 240). */
  readonly laneWidth?: number;
  /** Vertical distance between rows, in px (default 40). */
  readonly rowHeight?: number;
}

/** Node flags in `Placement.flags`. */
export const NODE = { run: 1, onPath: 2, leaf: 4, runStart: 8, inCycle: 16 } as const;

/** Nodes in pre-order (the first child of node i, if any, is node i + 1), one typed array per field. */
export interface Placement {
  /** The entry, or a run's first entry. */
  readonly entry: Int32Array;
  /** Parent node, -1 for a root. */
  readonly parent: Int32Array;
  /** Centre, in layout px. */
  readonly x: Float64Array;
  /** Row (0 for roots). */
  readonly depth: Int32Array;
  readonly childCount: Int32Array;
  /** Nesting level for assistive technology: 1 for roots, +1 below each branch point. */
  readonly level: Int32Array;
  /** `NODE` bits. */
  readonly flags: Uint8Array;
  /** A run's entries are `members[memberStart[i]] … members[memberStart[i + 1] - 1]` (none for an entry node). */
  readonly memberStart: Int32Array;
  readonly members: Int32Array;
  /** Node drawing each entry; for a hidden entry, the node of its nearest shown ancestor; -1 if none. */
  readonly nodeOfEntry: Int32Array;
  /** Nodes bucketed by row: row r holds `rowNodes[rowStart[r]] … rowNodes[rowStart[r + 1] - 1]`, sorted by x. */
  readonly rowStart: Int32Array;
  readonly rowNodes: Int32Array;
  readonly laneWidth: number;
  readonly rowHeight: number;
}

/** The buffers of a placement, to transfer it from the worker. */
export function placementBuffers(p: Placement): ArrayBuffer[] {
  const arrays = [p.entry, p.parent, p.x, p.depth, p.childCount, p.level, p.flags, p.memberStart, p.members];
  return [...arrays, p.nodeOfEntry, p.rowStart, p.rowNodes].map((a) => a.buffer as ArrayBuffer);
}

interface Skeleton {
  readonly entry: Int32Array;
  readonly parent: Int32Array;
  readonly memberStart: Int32Array;
  readonly members: Int32Array;
  readonly nodeOfEntry: Int32Array;
}

/** Display nodes in pre-order: each shown entry, except that a collapsed run stands for all its members. */
function buildSkeleton(count: number, forest: ShownForest, collapsed: ReadonlyMap<number, Int32Array>): Skeleton {
  const { children, up } = forest;
  const entry: number[] = [];
  const parent: number[] = [];
  const memberStart: number[] = [0];
  const members: number[] = [];
  const nodeOfEntry = new Int32Array(count).fill(-1);
  const stack: number[] = [];
  for (let r = forest.roots.length - 1; r >= 0; r--) stack.push(forest.roots[r]!);
  while (stack.length > 0) {
    const e = stack.pop()!;
    const id = entry.length;
    const run = collapsed.get(e);
    entry.push(e);
    parent.push(up[e]! < 0 ? -1 : nodeOfEntry[up[e]!]!);
    let tail = e;
    if (run) {
      for (const m of run) {
        nodeOfEntry[(tail = m)] = id;
        members.push(m);
      }
    } else nodeOfEntry[e] = id;
    memberStart.push(members.length);
    for (let c = children.start[tail + 1]! - 1; c >= children.start[tail]!; c--) stack.push(children.list[c]!);
  }
  for (let e = 0; e < count; e++) if (!forest.shown[e] && up[e]! >= 0) nodeOfEntry[e] = nodeOfEntry[up[e]!]!;
  return {
    entry: Int32Array.from(entry),
    parent: Int32Array.from(parent),
    memberStart: Int32Array.from(memberStart),
    members: Int32Array.from(members),
    nodeOfEntry,
  };
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

/** Nodes bucketed by row, each row sorted by x (the spatial index the viewport queries). */
function rowsOf(depth: Int32Array, x: Float64Array): { rowStart: Int32Array; rowNodes: Int32Array } {
  let rowCount = 0;
  for (const d of depth) rowCount = Math.max(rowCount, d + 1);
  const rowStart = new Int32Array(rowCount + 1);
  for (const d of depth) rowStart[d + 1]!++;
  for (let r = 0; r < rowCount; r++) rowStart[r + 1]! += rowStart[r]!;
  const fill = rowStart.slice(0, rowCount);
  const rowNodes = new Int32Array(depth.length);
  for (let i = 0; i < depth.length; i++) rowNodes[fill[depth[i]!]!++] = i;
  // Pre-order already visits each row left to right in a tidy tree; sort only if that ever stops holding.
  for (let r = 0; r < rowCount; r++) {
    for (let j = rowStart[r]! + 1; j < rowStart[r + 1]!; j++) {
      if (x[rowNodes[j - 1]!]! > x[rowNodes[j]!]!) {
        rowNodes.subarray(rowStart[r]!, rowStart[r + 1]!).sort((a, b) => x[a]! - x[b]!);
        break;
      }
    }
  }
  return { rowStart, rowNodes };
}

function nodeFlags(
  source: LayoutSource,
  skeleton: Skeleton,
  options: PlacementOptions,
  expandedStarts: ReadonlySet<number>,
): Uint8Array {
  const { entry, memberStart } = skeleton;
  const path = options.path ?? entryPath(source, options.leaf);
  const flags = new Uint8Array(entry.length);
  for (let i = 0; i < entry.length; i++) {
    const e = entry[i]!;
    const run = memberStart[i + 1]! > memberStart[i]!;
    flags[i] =
      (run ? NODE.run : 0) |
      (path.has(e) ? NODE.onPath : 0) |
      (e === options.leaf ? NODE.leaf : 0) |
      (!run && expandedStarts.has(e) ? NODE.runStart : 0) |
      (source.flags[e]! & IN_CYCLE ? NODE.inCycle : 0);
  }
  return flags;
}

/** Lays out a session's entries as entry and run nodes, with their lanes and rows. See `runs.ts` for what folds. */
export function placeNodes(source: LayoutSource, options: PlacementOptions): Placement {
  const laneWidth = options.laneWidth ?? 240;
  const rowHeight = options.rowHeight ?? 40;
  const leaf =
    options.leaf !== undefined && options.leaf >= 0 && options.leaf < source.count ? options.leaf : undefined;
  const forest = shownForest(source, options.visible, leaf);
  const runs = planRuns(source.flags, forest, { ...options, leaf });
  const skeleton = buildSkeleton(source.count, forest, runs.collapsed);
  const x = placeLanes(skeleton.parent, laneWidth);
  const { depth, childCount } = shapeOf(skeleton.parent);
  const n = skeleton.entry.length;
  const level = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = skeleton.parent[i]!;
    level[i] = p < 0 ? 1 : level[p]! + (childCount[p]! > 1 ? 1 : 0);
  }
  const flags = nodeFlags(source, skeleton, { ...options, leaf }, runs.expandedStarts);
  return { ...skeleton, x, depth, childCount, level, flags, ...rowsOf(depth, x), laneWidth, rowHeight };
}
