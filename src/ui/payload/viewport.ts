/** Which rows of the payload view are in the DOM: those on screen plus a margin, as a half-open range. */

/** Height of every row in px (the CSS gives rows exactly this height). */
export const ROW_HEIGHT = 22;
/** Rows rendered beyond each edge of the viewport, so a short scroll shows rows already built. */
export const MARGIN_ROWS = 12;

export interface RowWindow {
  readonly start: number;
  readonly end: number;
}

/** Rows [start, end) meeting the viewport `[scrollTop, scrollTop + height)`, grown by `margin` rows each side. */
export function rowWindow(scrollTop: number, height: number, count: number, margin = MARGIN_ROWS): RowWindow {
  const first = Math.floor(Math.max(0, scrollTop) / ROW_HEIGHT);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, height)) / ROW_HEIGHT);
  return { start: Math.max(0, Math.min(count, first - margin)), end: Math.max(0, Math.min(count, last + margin)) };
}

/**
 * The scrollTop that shows row `index` within a viewport of `height`, changing `scrollTop` as little as possible;
 * with `top`, the row is put near the top (one row below it) instead.
 */
export function scrollToRow(index: number, scrollTop: number, height: number, top = false): number {
  const y = index * ROW_HEIGHT;
  if (top) return Math.max(0, y - ROW_HEIGHT);
  if (y < scrollTop) return y;
  if (y + ROW_HEIGHT > scrollTop + height) return Math.max(0, y + ROW_HEIGHT - height);
  return scrollTop;
}
