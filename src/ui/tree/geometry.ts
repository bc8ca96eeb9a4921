/** What the tree draws besides its nodes — links, vertical segments, extent — and the row index the viewport reads. */

/** The node fields geometry needs. */
export interface PlacedNode {
  readonly x: number;
  readonly y: number;
  readonly depth: number;
  readonly parent: number;
  readonly childCount: number;
  readonly onPath: boolean;
}

export interface TreeLink {
  /** Node indices. */
  readonly source: number;
  readonly target: number;
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  readonly onPath: boolean;
}

/** A link out of a branch point, with its SVG path (a vertical S-curve). */
export interface BranchLink extends TreeLink {
  readonly d: string;
}

/** A maximal vertical chain of nodes (each the only child of the one above): drawn as one line. */
export interface TreeSegment {
  readonly x: number;
  readonly y1: number;
  readonly y2: number;
  /** Where the current path leaves the segment (it always enters at the top), if it runs through it. */
  readonly pathY2: number | undefined;
}

export interface TreeBounds {
  readonly minX: number;
  readonly maxX: number;
  readonly minY: number;
  readonly maxY: number;
}

function linkOf(nodes: readonly PlacedNode[], target: number): TreeLink {
  const s = nodes[nodes[target]!.parent]!;
  const t = nodes[target]!;
  return { source: t.parent, target, x1: s.x, y1: s.y, x2: t.x, y2: t.y, onPath: s.onPath && t.onPath };
}

function segmentsOf(nodes: readonly PlacedNode[]): TreeSegment[] {
  const segments: TreeSegment[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const p = nodes[i]!.parent;
    if (p >= 0 && nodes[p]!.childCount === 1) continue;
    let last = i;
    let pathLast = nodes[i]!.onPath ? i : -1;
    // In pre-order, an only child directly follows its parent.
    while (nodes[last]!.childCount === 1) {
      last++;
      if (pathLast === last - 1 && nodes[last]!.onPath) pathLast = last;
    }
    const top = nodes[i]!;
    segments.push({ x: top.x, y1: top.y, y2: nodes[last]!.y, pathY2: pathLast >= 0 ? nodes[pathLast]!.y : undefined });
  }
  return segments;
}

function boundsOf(nodes: readonly PlacedNode[]): TreeBounds {
  let minX = Infinity;
  let maxX = -Infinity;
  let maxY = 0;
  for (const node of nodes) {
    minX = Math.min(minX, node.x);
    maxX = Math.max(maxX, node.x);
    maxY = Math.max(maxY, node.y);
  }
  return nodes.length === 0 ? { minX: 0, maxX: 0, minY: 0, maxY: 0 } : { minX, maxX, minY: 0, maxY };
}

/** Every parent–child link of placed nodes (given in pre-order). */
export function linksOf(nodes: readonly PlacedNode[]): TreeLink[] {
  const links: TreeLink[] = [];
  for (let i = 0; i < nodes.length; i++) if (nodes[i]!.parent >= 0) links.push(linkOf(nodes, i));
  return links;
}

/** What the view draws: segments and branch links (with their paths), and the extent. */
export function buildGeometry(nodes: readonly PlacedNode[]) {
  const branchLinks: BranchLink[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const p = nodes[i]!.parent;
    if (p < 0 || nodes[p]!.childCount < 2) continue;
    const link = linkOf(nodes, i);
    const ym = (link.y1 + link.y2) / 2;
    branchLinks.push({ ...link, d: `M${link.x1},${link.y1}C${link.x1},${ym} ${link.x2},${ym} ${link.x2},${link.y2}` });
  }
  return { branchLinks, segments: segmentsOf(nodes), bounds: boundsOf(nodes) };
}
