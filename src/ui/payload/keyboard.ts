/**
 * The payload view's keys, as in the WAI-ARIA tree pattern, as a pure function from (rows, focused row, key) to
 * an action. Up/Down: previous/next node. Right: unfold a folded container, else its first child. Left: fold an
 * unfolded container, else its parent. Home/End, PageUp/PageDown. Enter or Space: fold or unfold a container,
 * show a long string in full or shortened again.
 */
import type { RowList } from "./json-rows.ts";

export type PayloadKeyAction =
  | { readonly type: "focus"; readonly row: number }
  | { readonly type: "fold"; readonly row: number; readonly open: boolean }
  | { readonly type: "string"; readonly row: number; readonly full: boolean };

const isNode = (rows: RowList, index: number): boolean => index > 0 && rows.at(index)?.kind === "node";

/** The nearest node row from `from` in `step` direction (inclusive), or undefined. Row 0 (the body) is skipped. */
export function nearestNode(rows: RowList, from: number, step: 1 | -1): number | undefined {
  for (let i = Math.max(0, Math.min(rows.length - 1, from)); i >= 0 && i < rows.length; i += step) {
    if (isNode(rows, i)) return i;
  }
  return undefined;
}

/** What `key` does with row `focused` focused; `page` is how many rows a page is. Undefined: not a key of ours. */
export function payloadKeyAction(
  rows: RowList,
  focused: number,
  key: string,
  page: number,
): PayloadKeyAction | undefined {
  const row = rows.at(focused);
  if (!row || row.kind !== "node") {
    const first = nearestNode(rows, 0, 1);
    return first === undefined ? undefined : { type: "focus", row: first };
  }
  const focus = (target: number | undefined): PayloadKeyAction | undefined =>
    target === undefined || target === focused ? undefined : { type: "focus", row: target };
  switch (key) {
    case "ArrowDown":
      return focus(nearestNode(rows, focused + 1, 1));
    case "ArrowUp":
      return focus(nearestNode(rows, focused - 1, -1));
    case "Home":
      return focus(nearestNode(rows, 0, 1));
    case "End":
      return focus(nearestNode(rows, rows.length - 1, -1));
    case "PageDown":
      return focus(nearestNode(rows, focused + page, -1) ?? nearestNode(rows, focused + page, 1));
    case "PageUp":
      return focus(nearestNode(rows, focused - page, 1) ?? nearestNode(rows, focused - page, -1));
    case "ArrowRight":
      if (row.container === undefined) return undefined;
      if (!row.open) return { type: "fold", row: focused, open: true };
      return row.size > 0 ? focus(focused + 1) : undefined;
    case "ArrowLeft":
      if (row.open) return { type: "fold", row: focused, open: false };
      return row.parent > 0 ? focus(row.parent) : undefined;
    case "Enter":
    case " ":
      if (row.container !== undefined) return { type: "fold", row: focused, open: !row.open };
      return row.long ? { type: "string", row: focused, full: !row.full } : undefined;
    default:
      return undefined;
  }
}
