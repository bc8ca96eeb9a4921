/**
 * The payload as the rows the view shows: one row per line of pretty JSON that is unfolded, so a 2,000-message
 * body folded to summaries is 2,000-odd rows however many megabytes it holds, and only rows near the viewport
 * ever become DOM. Building the rows walks unfolded containers only; folded ones are one row each, and the folded
 * items of the main list are not even that until a row is asked for (`PayloadRows.at`): a list of 250,000 items,
 * most of them not read from the worker yet, is a few numbers until the person scrolls to them.
 */
import { isBinaryStandIn } from "../../core/binary-stand-in.ts";
import { isTextStandIn, type TextStandIn } from "../../core/text-stand-in.ts";
import { describeBinary } from "./binary.ts";
import { childPointer, isOpen, isOpenByDefault, type FoldOverrides } from "./folding.ts";
import { HeldItems, NOT_READ, type PayloadItems } from "./items.ts";
import { isLongString, stringChunks } from "./strings.ts";

/**
 * A node of the JSON tree: a container (folded or not) or a value. These are the rows a person can focus. A main-list
 * item not read from the worker yet is a node row whose value is `NOT_READ` (no container, nothing to unfold).
 */
export interface NodeRow {
  readonly kind: "node";
  /** The node's JSON pointer ("" is the body). */
  readonly id: string;
  readonly depth: number;
  /** Its property name or array index in its parent; undefined for the body. */
  readonly key: string | number | undefined;
  readonly value: unknown;
  /** The object or array holding the value, and the one holding that (for recognising image data). */
  readonly holder: unknown;
  readonly outer: unknown;
  /** Row index of the parent's node row, -1 for the body. */
  readonly parent: number;
  /** The main-list item this row belongs to (is or is inside), if any. */
  readonly item: number | undefined;
  /** "object"/"array" for containers; undefined for values. */
  readonly container: "object" | "array" | undefined;
  /** Children of a container (defined properties of an object). */
  readonly size: number;
  /** An unfolded container (its children follow); false for values and folded containers. */
  readonly open: boolean;
  /**
   * A string long enough to be shortened (a stand-in for one is), and whether it is shown in full (its rest follows
   * as part rows).
   */
  readonly long: boolean;
  readonly full: boolean;
  /** 1-based position among its siblings, and how many siblings there are. */
  readonly position: number;
  readonly siblings: number;
  /** A comma follows (it is not its parent's last child). */
  readonly comma: boolean;
}

/** The closing bracket of an unfolded container. */
export interface CloseRow {
  readonly kind: "close";
  readonly id: string;
  readonly depth: number;
  readonly item: number | undefined;
  readonly text: "}" | "]";
  readonly comma: boolean;
}

/** A further piece of a long string shown in full; the last one closes the string. */
export interface PartRow {
  readonly kind: "part";
  readonly id: string;
  readonly depth: number;
  readonly item: number | undefined;
  readonly part: number;
  readonly text: string;
  readonly last: boolean;
  readonly comma: boolean;
}

export type JsonRow = NodeRow | CloseRow | PartRow;

export interface RowOptions {
  /** The key of the main list in the body (`messages`, `input`, `contents`). */
  readonly listKey: string;
  readonly folds: FoldOverrides;
  /** Pointers of long strings shown in full. */
  readonly fullStrings: ReadonlySet<string>;
  /** The whole string behind a stand-in, once the worker has sent it; a stand-in without one is shown shortened. */
  readonly textOf?: (standIn: TextStandIn) => string | undefined;
  /** The main list's items, when they are not all in the body (`body[listKey]` is then not read). */
  readonly items?: PayloadItems;
}

/** A key unique among all rows, for keyed rendering: node, close and part rows of one node differ by prefix. */
export function rowKey(row: JsonRow): string {
  if (row.kind === "node") return `n${row.id}`;
  return row.kind === "close" ? `c${row.id}` : `p${row.part}${row.id}`;
}

/**
 * Whether `value` is shown as a JSON object or array (typed arrays are binary data, and so are the worker's stand-ins
 * for it: each is shown as one value).
 */
export function containerKind(value: unknown): "object" | "array" | undefined {
  if (Array.isArray(value)) return "array";
  if (
    typeof value !== "object" ||
    value === null ||
    ArrayBuffer.isView(value) ||
    isBinaryStandIn(value) ||
    isTextStandIn(value)
  )
    return undefined;
  return "object";
}

/** The children JSON.stringify writes: array elements, and the properties of an object that are not undefined. */
export function childEntries(value: object): [string | number, unknown][] {
  if (Array.isArray(value)) return value.map((element, index) => [index, element]);
  return Object.entries(value).filter(([, field]) => field !== undefined);
}

function countDefined(value: object): number {
  let count = 0;
  for (const key in value)
    if (Object.hasOwn(value, key) && (value as Record<string, unknown>)[key] !== undefined) count++;
  return count;
}

interface Place {
  readonly id: string;
  readonly depth: number;
  readonly key: string | number | undefined;
  readonly holder: unknown;
  readonly outer: unknown;
  readonly parent: number;
  readonly item: number | undefined;
  readonly position: number;
  readonly siblings: number;
  readonly comma: boolean;
}

/** Rows in the making, numbered from `base`: the rows before the main list's items, or after them. */
class Sink {
  readonly rows: JsonRow[] = [];
  readonly base: number;

  constructor(base: number) {
    this.base = base;
  }

  /** Adds `row`; returns its index among all rows. */
  push(row: JsonRow): number {
    return this.base + this.rows.push(row) - 1;
  }
}

/** What a walk reads besides the node: the options, the fold overrides of main-list items, where rows go. */
interface Walk {
  readonly options: RowOptions;
  /** Overrides of main-list items: a list of 100,000 items is looked up by number, not by a fresh pointer each. */
  readonly itemFolds: ReadonlyMap<number, boolean>;
  /** The main list's items, and its rows once the walk has reached it. */
  readonly items: PayloadItems | undefined;
  list: ListRows | undefined;
  sink: Sink;
}

/** The node row of `value` at `place`; `open` for a container the walk unfolds. */
function makeNode(value: unknown, place: Place, walk: Walk, open: boolean): NodeRow {
  const { options } = walk;
  const container = containerKind(value); // none for an item not read (NOT_READ is a symbol)
  const { id, depth, key, holder, outer, parent, item, position, siblings, comma } = place;
  const standIn = isTextStandIn(value) ? value : undefined;
  const text = typeof value === "string" ? value : standIn && options.textOf?.(standIn);
  const long =
    standIn !== undefined || (text !== undefined && isLongString(text) && !describeBinary(value, key, holder, outer));
  const full = long && text !== undefined && options.fullStrings.has(id);
  const size = container === "array" ? (value as unknown[]).length : container ? countDefined(value as object) : 0;
  // Written out rather than spread from `place`: one object shape for every row, built without a copy loop.
  return {
    kind: "node",
    id,
    depth,
    key,
    value,
    holder,
    outer,
    parent,
    item,
    container,
    size,
    open: open && container !== undefined,
    long,
    full,
    position,
    siblings,
    comma,
  };
}

/** Whether the container at `place` is unfolded (the body always is); a main-list item's override is by index. */
function isUnfolded(place: Place, arrayLength: number | undefined, walk: Walk): boolean {
  const { depth, id, item } = place;
  if (depth === 0) return true;
  const byDefault = isOpenByDefault(arrayLength === undefined ? { depth } : { depth, arrayLength });
  if (depth === 2 && item !== undefined) return walk.itemFolds.get(item) ?? byDefault;
  return isOpen(walk.options.folds, id, byDefault);
}

function pushNode(value: unknown, place: Place, walk: Walk): void {
  if (place.depth === 1 && place.key === walk.options.listKey && walk.items !== undefined)
    return pushList(place, walk.items, walk);
  const container = containerKind(value);
  const { holder } = place;
  const holderLength = Array.isArray(holder) ? holder.length : holder === walk.items ? walk.items?.length : undefined;
  const row = makeNode(value, place, walk, container !== undefined && isUnfolded(place, holderLength, walk));
  const index = walk.sink.push(row);
  const { id, depth, item, comma } = place;
  if (row.full) {
    const chunks = stringChunks(typeof value === "string" ? value : walk.options.textOf!(value as TextStandIn)!);
    for (let part = 1; part < chunks.length; part++) {
      const last = part === chunks.length - 1;
      walk.sink.push({ kind: "part", id, depth, item, part, text: chunks[part]!, last, comma: last && comma });
    }
  }
  if (!row.open) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      pushNode(value[i], childPlace(place, index, value, i, i, value.length), walk);
  } else {
    const children = childEntries(value as object);
    children.forEach(([name, child], at) => {
      pushNode(child, childPlace(place, index, value, name, at, children.length), walk);
    });
  }
  walk.sink.push({ kind: "close", id, depth, item, text: container === "array" ? "]" : "}", comma });
}

function childPlace(
  parent: Place,
  parentRow: number,
  holder: unknown,
  key: string | number,
  position: number,
  siblings: number,
): Place {
  return {
    id: childPointer(parent.id, key),
    depth: parent.depth + 1,
    key,
    holder,
    outer: parent.holder,
    parent: parentRow,
    item: parent.item,
    position: position + 1,
    siblings,
    comma: position < siblings - 1,
  };
}

/**
 * The main list: its node row, then (unfolded) the rows of its items, which `ListRows` answers for, then its
 * closing bracket, which starts the rows after it.
 */
function pushList(place: Place, items: PayloadItems, walk: Walk): void {
  const open = isUnfolded(place, undefined, walk);
  const row: NodeRow = { ...makeNode([], place, walk, open), value: items, container: "array", size: items.length };
  const index = walk.sink.push(row);
  if (!open) return;
  const list = new ListRows(index, place, items, walk);
  walk.list = list;
  walk.sink = new Sink(list.end);
  walk.sink.push({ kind: "close", id: place.id, depth: place.depth, item: undefined, text: "]", comma: place.comma });
}

/** Folded item rows kept made (a few screens' worth many times over). */
const FOLDED_ROWS_KEPT = 2_000;

/**
 * The rows of the main list's items, from row `start` on: one row per folded item, made when asked for, and the
 * rows of the items that show more than one (unfolded, or a long string in full), made up front. Only those are
 * walked; a list of 250,000 folded items costs a few arrays of the unfolded ones' numbers.
 */
class ListRows {
  readonly start: number;
  /** Row index after the last item's rows. */
  readonly end: number;
  readonly #place: Place;
  readonly #items: PayloadItems;
  readonly #walk: Walk;
  /** The items made up front, in order; where their rows start; and how many extra rows the ones before had. */
  readonly #expanded: number[] = [];
  readonly #expandedStart: number[] = [];
  readonly #expandedRows: JsonRow[][] = [];
  /** Extra rows (beyond one per item) of the expanded items before expanded item i: `#extraBefore[i]`. */
  readonly #extraBefore: number[] = [];
  /**
   * Folded item rows made lately (only of items read: one not read yet is made again once it is), so the rows on
   * screen are the same objects each time they are drawn; forgotten past `FOLDED_ROWS_KEPT`, so scrolling through
   * the whole list does not keep a row (and its item) per item.
   */
  readonly #folded = new Map<number, NodeRow>();

  constructor(listRow: number, listPlace: Place, items: PayloadItems, walk: Walk) {
    this.start = listRow + 1;
    this.#items = items;
    this.#walk = walk;
    this.#place = {
      id: listPlace.id,
      depth: listPlace.depth,
      key: listPlace.key,
      holder: items,
      outer: listPlace.holder,
      parent: listRow,
      item: undefined,
      position: 0,
      siblings: items.length,
      comma: false,
    };
    let extra = 0;
    for (const item of this.#toExpand()) {
      const sink = new Sink(this.start + item + extra);
      walk.sink = sink;
      pushNode(items.at(item), this.#itemPlace(item), walk);
      if (sink.rows.length === 1) continue;
      this.#expanded.push(item);
      this.#expandedStart.push(sink.base);
      this.#expandedRows.push(sink.rows);
      this.#extraBefore.push(extra);
      extra += sink.rows.length - 1;
    }
    this.end = this.start + items.length + extra;
  }

  /** The items that may be more than one row, ascending: unfolded ones and those shown as a long string in full. */
  #toExpand(): number[] {
    const { itemFolds, options } = this.#walk;
    const count = this.#items.length;
    const open: number[] = [];
    if (isOpenByDefault({ depth: 2, arrayLength: count })) {
      for (let item = 0; item < count; item++) if (itemFolds.get(item) !== false) open.push(item);
    } else for (const [item, unfolded] of itemFolds) if (unfolded && item < count) open.push(item);
    const prefix = `${this.#place.id}/`;
    for (const id of options.fullStrings) {
      const item = id.startsWith(prefix) ? Number(id.slice(prefix.length)) : NaN;
      if (Number.isInteger(item) && item >= 0 && item < count && `${prefix}${item}` === id) open.push(item);
    }
    return [...new Set(open)].sort((a, b) => a - b);
  }

  #itemPlace(item: number): Place {
    const { id, depth, holder, outer, parent, siblings } = this.#place;
    return {
      id: childPointer(id, item),
      depth: depth + 1,
      key: item,
      holder,
      outer,
      parent,
      item,
      position: item + 1,
      siblings,
      comma: item < siblings - 1,
    };
  }

  /** How many expanded items start at or before row `index`. */
  #expandedUpTo(index: number): number {
    let low = 0;
    let high = this.#expanded.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.#expandedStart[mid]! <= index) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Row `index` (within `[start, end)`). */
  at(index: number): JsonRow {
    const before = this.#expandedUpTo(index);
    if (before > 0) {
      const last = before - 1;
      const offset = index - this.#expandedStart[last]!;
      const rows = this.#expandedRows[last]!;
      if (offset < rows.length) return rows[offset]!;
      return this.#foldedRow(index - this.start - this.#extraBefore[last]! - (rows.length - 1));
    }
    return this.#foldedRow(index - this.start);
  }

  #foldedRow(item: number): NodeRow {
    const known = this.#folded.get(item);
    if (known !== undefined) return known;
    const value = this.#items.at(item);
    const row = makeNode(value, this.#itemPlace(item), this.#walk, false);
    if (value === NOT_READ) return row;
    if (this.#folded.size >= FOLDED_ROWS_KEPT) this.#folded.clear();
    this.#folded.set(item, row);
    return row;
  }

  /** The row index of item `item`'s node row. */
  itemIndex(item: number): number {
    if (!(item >= 0 && item < this.#items.length)) return -1;
    let low = 0;
    let high = this.#expanded.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.#expanded[mid]! < item) low = mid + 1;
      else high = mid;
    }
    if (this.#expanded[low] === item) return this.#expandedStart[low]!;
    if (low === 0) return this.start + item;
    const previous = low - 1;
    return this.start + item + this.#extraBefore[previous]! + this.#expandedRows[previous]!.length - 1;
  }

  /** The index of the node row with pointer `id` inside the list, or -1. */
  nodeIndex(id: string): number {
    const prefix = `${this.#place.id}/`;
    if (!id.startsWith(prefix)) return -1;
    const slash = id.indexOf("/", prefix.length);
    const step = id.slice(prefix.length, slash < 0 ? undefined : slash);
    if (!/^(0|[1-9]\d*)$/.test(step)) return -1;
    const item = Number(step);
    const index = this.itemIndex(item);
    if (slash < 0 || index < 0) return index;
    const at = this.#expanded.indexOf(item);
    return at < 0 ? -1 : rowIndexIn(this.#expandedRows[at]!, this.#expandedStart[at]!, id);
  }
}

function rowIndexIn(rows: readonly JsonRow[], base: number, id: string): number {
  const at = rows.findIndex((row) => row.kind === "node" && row.id === id);
  return at < 0 ? -1 : base + at;
}

/** Rows as the keyboard and the view read them: any of them by index. */
export interface RowList {
  readonly length: number;
  /** Row `index`, or undefined outside `[0, length)`. */
  at(index: number): JsonRow | undefined;
}

/** The rows of a payload: those before the main list's items, the items' (`ListRows`), and those after. */
export class PayloadRows implements RowList, Iterable<JsonRow> {
  readonly length: number;
  readonly #before: readonly JsonRow[];
  readonly #list: ListRows | undefined;
  readonly #after: readonly JsonRow[];

  constructor(before: readonly JsonRow[], list: ListRows | undefined, after: readonly JsonRow[]) {
    this.#before = before;
    this.#list = list;
    this.#after = after;
    this.length = (list ? list.end : before.length) + after.length;
  }

  at(index: number): JsonRow | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    if (index < this.#before.length) return this.#before[index];
    const list = this.#list;
    if (list === undefined) return this.#after[index - this.#before.length];
    return index < list.end ? list.at(index) : this.#after[index - list.end];
  }

  /** Rows `[start, end)`, as an array. */
  slice(start = 0, end = this.length): JsonRow[] {
    const rows: JsonRow[] = [];
    for (let i = Math.max(0, start); i < Math.min(end, this.length); i++) rows.push(this.at(i)!);
    return rows;
  }

  *[Symbol.iterator](): Iterator<JsonRow> {
    for (let i = 0; i < this.length; i++) yield this.at(i)!;
  }

  /** The index of the node row with pointer `id`, or -1. */
  nodeIndex(id: string): number {
    const inList = this.#list?.nodeIndex(id) ?? -1;
    if (inList >= 0) return inList;
    const before = rowIndexIn(this.#before, 0, id);
    if (before >= 0) return before;
    return rowIndexIn(this.#after, this.#list ? this.#list.end : this.#before.length, id);
  }

  /** The row index of the node row of main-list item `item`, or -1 when it has none. */
  itemIndex(item: number): number {
    return this.#list?.itemIndex(item) ?? -1;
  }
}

/** The rows of `body` with `options.folds` applied: what the view scrolls through. */
export function buildRows(body: Record<string, unknown>, options: RowOptions): PayloadRows {
  const root: Place = {
    id: "",
    depth: 0,
    key: undefined,
    holder: undefined,
    outer: undefined,
    parent: -1,
    item: undefined,
    position: 1,
    siblings: 1,
    comma: false,
  };
  // Overrides of main-list items ("/messages/12"), by item index.
  const itemFolds = new Map<number, boolean>();
  const listPrefix = `${childPointer("", options.listKey)}/`;
  for (const [id, open] of options.folds) {
    const rest = id.startsWith(listPrefix) ? id.slice(listPrefix.length) : "";
    if (/^(0|[1-9]\d*)$/.test(rest)) itemFolds.set(Number(rest), open);
  }
  const list = body[options.listKey];
  const items = options.items ?? (Array.isArray(list) ? new HeldItems(list) : undefined);
  const before = new Sink(0);
  const walk: Walk = { options, itemFolds, items, list: undefined, sink: before };
  pushNode(body, root, walk);
  return walk.list
    ? new PayloadRows(before.rows, walk.list, walk.sink.rows)
    : new PayloadRows(before.rows, undefined, []);
}

/** The row index of the node row of main-list item `item`, or -1 when it has none. */
export const itemRow = (rows: PayloadRows, item: number): number => rows.itemIndex(item);

/** The index of the node row with pointer `id`, or -1. */
export const nodeRowIndex = (rows: PayloadRows, id: string): number => rows.nodeIndex(id);
