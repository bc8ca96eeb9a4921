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

/**
 * What a person did in a payload view that should outlive it: folds, strings shown in full, the focused node, the
 * scroll position, and the entry the view last scrolled to. The app keeps one per session, so switching to
 * another tab (which unmounts the view) or the view being drawn again leaves the payload as it was left.
 */
export class PayloadViewMemory {
  folds: FoldOverrides = $state.raw(NO_FOLDS);
  fullStrings: ReadonlySet<string> = $state.raw(NO_STRINGS);
  /** Pointer of the focused node (the one in the tab order). */
  activeId: string | undefined = $state();
  scrollTop = $state(0);
  /** The entry (`focusEntry`) the view last revealed: shown again for the same entry, the view keeps its scroll. */
  revealed: number | undefined;
}

export class PayloadViewState {
  height = $state(0);

  readonly #input: () => PayloadInput;
  readonly #memory: () => PayloadViewMemory | undefined;
  readonly #own = new PayloadViewMemory();
  readonly rows: readonly JsonRow[] = $derived.by(() => {
    const { body, listKey } = this.#input();
    const { folds, fullStrings } = this.memory;
    return buildRows(body, { listKey, folds, fullStrings });
  });
  readonly activeIndex: number = $derived(resolveNode(this.rows, this.memory.activeId));
  readonly window = $derived(rowWindow(this.memory.scrollTop, this.height, this.rows.length));
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

  /** `memory` gives the memory to keep the person's folds, focus and scroll in; without one the view has its own. */
  constructor(input: () => PayloadInput, memory: () => PayloadViewMemory | undefined = () => undefined) {
    this.#input = input;
    this.#memory = memory;
  }

  /** Where the person's folds, focus and scroll are kept. */
  get memory(): PayloadViewMemory {
    return this.#memory() ?? this.#own;
  }

  /** Folds or unfolds the container at row `index`. */
  setOpen(index: number, open: boolean): void {
    const row = this.rows[index];
    if (row?.kind === "node" && row.container !== undefined && row.depth > 0)
      this.memory.folds = withFold(this.memory.folds, row.id, open);
  }

  /** Shows the long string at row `index` in full, or shortened again. */
  setFull(index: number, full: boolean): void {
    const row = this.rows[index];
    if (row?.kind !== "node" || !row.long) return;
    this.memory.fullStrings = withMember(this.memory.fullStrings, row.id, full);
  }

  focusRow(index: number): void {
    const row = this.rows[index];
    if (row?.kind === "node") this.memory.activeId = row.id;
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
