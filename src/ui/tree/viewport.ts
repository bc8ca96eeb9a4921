/**
 * Viewport arithmetic, pure: which part of the layout a transform shows, what is inside it, and the transforms
 * that fit the tree or bring a node into view. Per pan frame the cost is a binary search per visible row.
 */
import type { TreeBounds, TreeLayout } from "./layout.ts";

/** A zoom transform: screen = world × k + (x, y). */
export interface ViewTransform {
  readonly x: number;
  readonly y: number;
  readonly k: number;
}

export interface WorldRect {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** Size of a node card in world px (the layout's lanes are wider, rows taller). */
export const CARD = { width: 220, height: 28 } as const;

/**
 * The world rectangle the viewport shows, grown by `margin` screen px on every side and snapped outward to a grid of
 * `cell` screen px, so that a pan smaller than a cell yields the same numbers and nothing downstream recomputes.
 */
export function viewWindow(t: ViewTransform, width: number, height: number, margin = 64, cell = 256): WorldRect {
  const step = cell / t.k;
  const down = (v: number) => Math.floor(v / step) * step;
  const up = (v: number) => Math.ceil(v / step) * step;
  return {
    x0: down((-margin - t.x) / t.k),
    y0: down((-margin - t.y) / t.k),
    x1: up((width + margin - t.x) / t.k),
    y1: up((height + margin - t.y) / t.k),
  };
}

export interface NodesInView {
  readonly nodes: readonly number[];
  /** More than `cap` nodes intersect: the view is too far out to draw cards. */
  readonly overflow: boolean;
}

function firstAtOrRight(layout: TreeLayout, from: number, to: number, x: number): number {
  const { nodes, rows } = layout;
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (nodes[rows.nodes[mid]!]!.x < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Nodes whose card meets `rect`, at most `cap` of them, found row by row through the layout's row index. */
export function nodesIn(layout: TreeLayout, rect: WorldRect, cap: number): NodesInView {
  const { nodes, rows, rowHeight } = layout;
  const rowCount = rows.start.length - 1;
  const r0 = Math.max(0, Math.floor((rect.y0 - CARD.height / 2) / rowHeight));
  const r1 = Math.min(rowCount - 1, Math.ceil((rect.y1 + CARD.height / 2) / rowHeight));
  const found: number[] = [];
  for (let r = r0; r <= r1; r++) {
    const end = rows.start[r + 1]!;
    for (let j = firstAtOrRight(layout, rows.start[r]!, end, rect.x0 - CARD.width / 2); j < end; j++) {
      const i = rows.nodes[j]!;
      if (nodes[i]!.x - CARD.width / 2 > rect.x1) break;
      if (found.length === cap) return { nodes: found, overflow: true };
      found.push(i);
    }
  }
  return { nodes: found, overflow: false };
}

const clamp = (v: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, v));

/** The transform showing all of `bounds` (never magnifying past 1), centred. */
export function fitTransform(
  bounds: TreeBounds,
  width: number,
  height: number,
  scaleExtent: readonly [number, number],
): ViewTransform {
  const w = bounds.maxX - bounds.minX + CARD.width + 48;
  const h = bounds.maxY - bounds.minY + CARD.height + 48;
  const k = clamp(Math.min(width / w, height / h, 1), scaleExtent);
  const cx = (bounds.minX + bounds.maxX) / 2;
  const cy = (bounds.minY + bounds.maxY) / 2;
  return { k, x: width / 2 - cx * k, y: height / 2 - cy * k };
}

/** The transform with the point (x, y) at the centre of the viewport. */
export function centreOn(t: ViewTransform, x: number, y: number, width: number, height: number): ViewTransform {
  return { k: t.k, x: width / 2 - x * t.k, y: height / 2 - y * t.k };
}

/** The smallest pan that brings the card centred at (x, y) fully into view with `margin` px to spare. */
export function revealTransform(
  t: ViewTransform,
  x: number,
  y: number,
  width: number,
  height: number,
  margin = 48,
): ViewTransform {
  const shift = (centre: number, half: number, size: number) => {
    const lo = centre - half * t.k;
    const hi = centre + half * t.k;
    if (hi - lo > size - 2 * margin) return size / 2 - centre;
    if (lo < margin) return margin - lo;
    if (hi > size - margin) return size - margin - hi;
    return 0;
  };
  const dx = shift(x * t.k + t.x, CARD.width / 2, width);
  const dy = shift(y * t.k + t.y, CARD.height / 2, height);
  return dx === 0 && dy === 0 ? t : { k: t.k, x: t.x + dx, y: t.y + dy };
}

/**
 * The first view of a tree, at scale `k`: `node` (the current leaf) at the centre of the viewport, and sideways as
 * much as fits of its path — the ancestors in the rows on screen, which may sit in other lanes. The node stays
 * centred when the path fits around it; otherwise the view moves towards the path as far as it can while the
 * node's card stays in view with `margin` px to spare.
 */
export function openingTransform(
  layout: Pick<TreeLayout, "nodes">,
  node: number,
  width: number,
  height: number,
  k = 1,
  margin = 24,
): ViewTransform {
  const target = layout.nodes[node];
  if (!target) return { k, x: width / 2, y: height / 2 };
  const top = target.y - height / 2 / k;
  let lo = target.x;
  let hi = target.x;
  for (let p = target.parent; p >= 0 && layout.nodes[p]!.y >= top; p = layout.nodes[p]!.parent) {
    lo = Math.min(lo, layout.nodes[p]!.x);
    hi = Math.max(hi, layout.nodes[p]!.x);
  }
  // How far from the view's centre a card's centre may be while the whole card shows.
  const free = Math.max(0, (width / 2 - margin) / k - CARD.width / 2);
  const cx =
    hi - lo <= 2 * free
      ? clamp(target.x, [hi - free, lo + free])
      : clamp((lo + hi) / 2, [target.x - free, target.x + free]);
  return { k, x: width / 2 - cx * k, y: height / 2 - target.y * k };
}
