/**
 * The payload view's state: folds, long strings shown in full, the focused row and the scroll window. Rows are
 * derived from the body and these; only the rows in the window (and the focused one) are rendered.
 */
import { buildRows, nodeRowIndex, itemRow, type JsonRow } from "./json-rows.ts";
import { NO_FOLDS, NO_STRINGS, childPointer, withFold, withMember, type FoldOverrides } from "./folding.ts";
import { nearestNode, payloadKeyAction } from "./keyboard.ts";
import { rowWindow, ROW_HEIGHT } from "./viewport.ts";

export interface PayloadInput {
  readonly body: Record<string, unknown>;
  readonly listKey: string;
}

/** The node row for pointer `id`, or for its nearest ancestor shown (a fold hid it), or the first node. */
function resolveNode(rows: readonly JsonRow[], id: string | undefined): number {
  for (let at = id; at !== undefined && at !== ""; at = at.slice(0, Math.max(0, at.lastIndexOf("/")))) {
    const index = nodeRowIndex(rows, at);
    if (index > 0) return index;
  }
  return nearestNode(rows, 1, 1) ?? 0;
}

export class PayloadViewState {
  folds: FoldOverrides = $state.raw(NO_FOLDS);
  fullStrings: ReadonlySet<string> = $state.raw(NO_STRINGS);
  /** Pointer of the focused node (the one in the tab order). */
  activeId: string | undefined = $state();
  scrollTop = $state(0);
  height = $state(0);

  readonly #input: () => PayloadInput;
  readonly rows: readonly JsonRow[] = $derived.by(() => {
    const { body, listKey } = this.#input();
    return buildRows(body, { listKey, folds: this.folds, fullStrings: this.fullStrings });
  });
  readonly activeIndex: number = $derived(resolveNode(this.rows, this.activeId));
  readonly window = $derived(rowWindow(this.scrollTop, this.height, this.rows.length));
  /** Row indices to render: the window, plus the focused row wherever it is (so focus never drops out). */
  readonly rendered: readonly number[] = $derived.by(() => {
    const { start, end } = this.window;
    const indices = Array.from({ length: end - start }, (_, i) => start + i);
    const active = this.activeIndex;
    if (active < start) indices.unshift(active);
    else if (active >= end) indices.push(active);
    return indices;
  });
  readonly totalHeight = $derived(this.rows.length * ROW_HEIGHT);

  constructor(input: () => PayloadInput) {
    this.#input = input;
  }

  /** Folds or unfolds the container at row `index`. */
  setOpen(index: number, open: boolean): void {
    const row = this.rows[index];
    if (row?.kind === "node" && row.container !== undefined && row.depth > 0)
      this.folds = withFold(this.folds, row.id, open);
  }

  /** Shows the long string at row `index` in full, or shortened again. */
  setFull(index: number, full: boolean): void {
    const row = this.rows[index];
    if (row?.kind !== "node" || !row.long) return;
    this.fullStrings = withMember(this.fullStrings, row.id, full);
  }

  focusRow(index: number): void {
    const row = this.rows[index];
    if (row?.kind === "node") this.activeId = row.id;
  }

  /** Applies a key; returns whether it was one of the view's (the caller then moves DOM focus). */
  press(key: string): boolean {
    const page = Math.max(1, Math.floor(this.height / ROW_HEIGHT) - 1);
    const action = payloadKeyAction(this.rows, this.activeIndex, key, page);
    if (!action) return false;
    this.focusRow(action.row);
    if (action.type === "fold") this.setOpen(action.row, action.open);
    else if (action.type === "string") this.setFull(action.row, action.full);
    return true;
  }

  /** Unfolds main-list item `item` and returns its row index (-1 when the body has no such item). */
  openItem(item: number): number {
    const listRow = nodeRowIndex(this.rows, childPointer("", this.#input().listKey));
    if (listRow > 0) this.setOpen(listRow, true);
    const index = itemRow(this.rows, item);
    if (index > 0) this.setOpen(index, true);
    return index;
  }
}
