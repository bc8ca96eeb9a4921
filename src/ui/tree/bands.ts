/**
 * What the tree draws in SVG, cut into bands of rows. Each band is a few `<path>`s (lines, the current path, and
 * node boxes per colour) built once per layout, when first seen. A pan only adds and drops whole bands; the
 * bands that stay are not touched, so the browser re-records nothing for them.
 */
import type { TreeLayout } from "./layout.ts";
import { CARD } from "./viewport.ts";

/** Rows per band at the finest level; zoomed out, bands double until about four cover the view. */
export const BAND_ROWS = 32;

export interface BoxPath {
  readonly key: string;
  readonly colour: string;
  readonly onPath: boolean;
  readonly d: string;
}

export interface Band {
  readonly key: string;
  /** Every line in the band, as one path. */
  readonly lines: string;
  /** The part of the current path in the band. */
  readonly path: string;
  /** Node boxes in the band, one path per colour and path membership (built on first use). */
  readonly boxes: readonly BoxPath[];
}

function boxesOf(layout: TreeLayout, r0: number, r1: number, colourOf: (entry: number) => string): BoxPath[] {
  const { rows, nodes } = layout;
  const groups = new Map<string, { key: string; colour: string; onPath: boolean; d: string }>();
  const box = `h${CARD.width}v${CARD.height}h${-CARD.width}Z`;
  for (let j = rows.start[r0]!; j < rows.start[r1]!; j++) {
    const node = nodes[rows.nodes[j]!]!;
    const colour = colourOf(node.entry);
    const key = `${colour} ${node.onPath}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, colour, onPath: node.onPath, d: "" }));
    group.d += `M${node.x - CARD.width / 2},${node.y - CARD.height / 2}${box}`;
  }
  return [...groups.values()];
}

function buildBand(layout: TreeLayout, r0: number, r1: number, colourOf: (entry: number) => string): Band {
  // Lines: vertical segments clipped to the band, and the branch curves that end in it.
  const top = r0 * layout.rowHeight;
  const bottom = r1 * layout.rowHeight;
  let lines = "";
  let path = "";
  for (const s of layout.segments) {
    if (s.y2 < top || s.y1 >= bottom) continue;
    const from = Math.max(s.y1, top);
    lines += `M${s.x},${from}V${Math.min(s.y2, bottom)}`;
    if (s.pathY2 !== undefined && s.pathY2 >= from) path += `M${s.x},${from}V${Math.min(s.pathY2, bottom)}`;
  }
  for (const l of layout.branchLinks) {
    if (l.y2 < top || l.y2 >= bottom) continue;
    if (l.onPath) path += l.d;
    else lines += l.d;
  }
  let boxes: BoxPath[] | undefined;
  return {
    key: `${r0}-${r1}`,
    lines,
    path,
    get boxes() {
      return (boxes ??= boxesOf(layout, r0, r1, colourOf));
    },
  };
}

const cache = new WeakMap<TreeLayout, Map<string, Band>>();

/** The bands that meet world rows from y0 to y1, built on first use and kept while the layout lives. */
export function bandsIn(layout: TreeLayout, y0: number, y1: number, colourOf: (entry: number) => string): Band[] {
  let built = cache.get(layout);
  if (!built) cache.set(layout, (built = new Map()));
  const rowCount = layout.rows.start.length - 1;
  let size = BAND_ROWS;
  while (size * 4 < (y1 - y0) / layout.rowHeight) size *= 2;
  const span = size * layout.rowHeight;
  const b0 = Math.max(0, Math.floor((y0 - layout.rowHeight) / span));
  const b1 = Math.min(Math.ceil(rowCount / size) - 1, Math.floor((y1 + layout.rowHeight) / span));
  const bands: Band[] = [];
  for (let b = b0; b <= b1; b++) {
    const key = `${size}:${b}`;
    let band = built.get(key);
    if (!band) built.set(key, (band = buildBand(layout, b * size, Math.min(rowCount, (b + 1) * size), colourOf)));
    bands.push(band);
  }
  return bands;
}
