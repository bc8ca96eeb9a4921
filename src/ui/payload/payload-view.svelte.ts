/**
 * The payload view's state: folds, long strings shown in full, the focused row and the scroll window. Rows are
 * derived from the body and these; only the rows in the window (and the focused one) are rendered.
 */
import { isTextStandIn, type TextStandIn } from "../../core/text-stand-in.ts";
import { buildRows, type PayloadRows } from "./json-rows.ts";
import type { PayloadItems } from "./items.ts";
import { NO_FOLDS, NO_STRINGS, childPointer, withFold, withMember, type FoldOverrides } from "./folding.ts";
import { nearestNode, payloadKeyAction } from "./keyboard.ts";
import { rowWindow, ROW_HEIGHT } from "./viewport.ts";

export interface PayloadInput {
  readonly body: Record<string, unknown>;
  readonly listKey: string;
  /** The JSON of one main-list item, from the session worker: where a long string stood in for is read whole. */
  readonly json?: ((item: number) => Promise<string>) | undefined;
  /** The main list's items when the body does not hold them all (a long list read from the worker as shown). */
  readonly items?: PayloadItems | undefined;
}

/** The value at `pointer` (RFC 6901, relative) inside `value`, or undefined. */
function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let at = value;
  for (const token of pointer.slice(1).split("/")) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** The node row for pointer `id`, or for its nearest ancestor shown (a fold hid it), or the first node. */
function resolveNode(rows: PayloadRows, id: string | undefined): number {
  for (let at = id; at !== undefined && at !== ""; at = at.slice(0, Math.max(0, at.lastIndexOf("/")))) {
    const index = rows.nodeIndex(at);
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
  /**
   * Whole strings behind the worker's stand-ins, read when shown in full; kept per stand-in (each body the worker
   * sends has its own), so a string read for one projection is never shown for another.
   */
  readonly texts = new WeakMap<TextStandIn, string>();
  /** Counts the texts read, so the rows are made again when one arrives. */
  textsRead = $state(0);
}

export class PayloadViewState {
  height = $state(0);
  /** Why a string asked for in full could not be read, until the next one is. */
  problem: string | undefined = $state();

  readonly #input: () => PayloadInput;
  readonly #memory: () => PayloadViewMemory | undefined;
  readonly #own = new PayloadViewMemory();
  readonly rows: PayloadRows = $derived.by(() => {
    const { body, listKey, items } = this.#input();
    const { folds, fullStrings, texts, textsRead } = this.memory;
    void textsRead;
    const textOf = (standIn: TextStandIn) => texts.get(standIn);
    return buildRows(body, { listKey, folds, fullStrings, textOf, ...(items ? { items } : {}) });
  });
  readonly activeIndex: number = $derived(resolveNode(this.rows, this.memory.activeId));
  readonly window = $derived(rowWindow(this.memory.scrollTop, this.height, this.rows.length));
  /**
   * The row that holds DOM focus (set by the view), kept rendered until focus has moved on: a key that takes the
   * focus far away (End, or past a long string shown in full) would otherwise drop the row under the focus before
   * the new one takes it, and the focus would fall to the page for a moment.
   */
  holding: number | undefined = $state();
  /** Row indices to render: the window, plus the focused row wherever it is (so focus never drops out). */
  readonly rendered: readonly number[] = $derived.by(() => {
    const { start, end } = this.window;
    const indices = Array.from({ length: end - start }, (_, i) => start + i);
    const outside = [this.activeIndex, this.holding].filter(
      (index, at, all): index is number =>
        index !== undefined && index < this.rows.length && (index < start || index >= end) && all.indexOf(index) === at,
    );
    for (const index of outside) {
      if (index < start) indices.unshift(index);
      else indices.push(index);
    }
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
    const row = this.rows.at(index);
    if (row?.kind === "node" && row.container !== undefined && row.depth > 0)
      this.memory.folds = withFold(this.memory.folds, row.id, open);
  }

  /**
   * Shows the long string at row `index` in full, or shortened again. A string the worker stood in for is read
   * whole first (with its item's JSON); it shows in full once it arrives.
   */
  setFull(index: number, full: boolean): void {
    const row = this.rows.at(index);
    if (row?.kind !== "node" || !row.long) return;
    const memory = this.memory;
    memory.fullStrings = withMember(memory.fullStrings, row.id, full);
    if (full && isTextStandIn(row.value) && !memory.texts.has(row.value))
      void this.#readText(row.value, row.id, row.item, memory);
  }

  async #readText(standIn: TextStandIn, id: string, item: number | undefined, memory: PayloadViewMemory) {
    const { json, listKey } = this.#input();
    if (json === undefined || item === undefined) return;
    this.problem = undefined;
    try {
      const itemId = childPointer(childPointer("", listKey), item);
      const text = atPointer(JSON.parse(await json(item)), id.slice(itemId.length));
      if (typeof text !== "string" || text.length !== standIn.length)
        throw new Error(`item ${item} no longer holds it (the payload changed)`);
      memory.texts.set(standIn, text);
      memory.textsRead += 1;
    } catch (error) {
      memory.fullStrings = withMember(memory.fullStrings, id, false);
      this.problem = `The whole string could not be read: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  focusRow(index: number): void {
    const row = this.rows.at(index);
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

  /**
   * Unfolds main-list item `item` and returns its row index (-1 when the body has no such item). An item not read
   * from the worker yet unfolds once it is.
   */
  openItem(item: number): number {
    const listId = childPointer("", this.#input().listKey);
    const listRow = this.rows.nodeIndex(listId);
    if (listRow > 0) this.setOpen(listRow, true);
    const index = this.rows.itemIndex(item);
    if (index > 0) this.memory.folds = withFold(this.memory.folds, childPointer(listId, item), true);
    return index;
  }
}
