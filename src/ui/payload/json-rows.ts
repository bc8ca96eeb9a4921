/**
 * The payload as the rows the view shows: one row per line of pretty JSON that is unfolded, so a 2,000-message
 * body folded to summaries is 2,000-odd rows however many megabytes it holds, and only rows near the viewport
 * ever become DOM. Building the rows walks unfolded containers only; folded ones are one row each.
 */
import { isBinaryStandIn } from "../../core/binary-stand-in.ts";
import { isTextStandIn, type TextStandIn } from "../../core/text-stand-in.ts";
import { describeBinary } from "./binary.ts";
import { childPointer, isOpen, isOpenByDefault, type FoldOverrides } from "./folding.ts";
import { isLongString, stringChunks } from "./strings.ts";

/** A node of the JSON tree: a container (folded or not) or a value. These are the rows a person can focus. */
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

/** What a walk reads besides the node: the options, and the fold overrides of main-list items by index. */
interface Walk {
  readonly options: RowOptions;
  /** Overrides of main-list items: a list of 100,000 items is looked up by number, not by a fresh pointer each. */
  readonly itemFolds: ReadonlyMap<number, boolean>;
}

function pushNode(rows: JsonRow[], value: unknown, place: Place, walk: Walk): void {
  const { options } = walk;
  const container = containerKind(value);
  const { id, depth, key, holder, outer, parent, item, position, siblings, comma } = place;
  const standIn = isTextStandIn(value) ? value : undefined;
  const text = typeof value === "string" ? value : standIn && options.textOf?.(standIn);
  const long =
    standIn !== undefined || (text !== undefined && isLongString(text) && !describeBinary(value, key, holder, outer));
  const full = long && text !== undefined && options.fullStrings.has(id);
  const size = container === "array" ? (value as unknown[]).length : container ? countDefined(value as object) : 0;
  // Only containers open; a main-list item's override is found by its index (depth 2 with an item is one).
  let open = false;
  if (container !== undefined) {
    const byDefault = isOpenByDefault(Array.isArray(holder) ? { depth, arrayLength: holder.length } : { depth });
    if (depth === 0) open = true;
    else if (depth === 2 && item !== undefined) open = walk.itemFolds.get(item) ?? byDefault;
    else open = isOpen(options.folds, id, byDefault);
  }
  // Written out rather than spread from `place`: one object shape for every row, built without a copy loop.
  const row: NodeRow = {
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
    open,
    long,
    full,
    position,
    siblings,
    comma,
  };
  const index = rows.push(row) - 1;
  if (full) {
    const chunks = stringChunks(text!);
    for (let part = 1; part < chunks.length; part++) {
      const last = part === chunks.length - 1;
      rows.push({ kind: "part", id, depth, item, part, text: chunks[part]!, last, comma: last && comma });
    }
  }
  if (!open) return;
  if (Array.isArray(value)) {
    const isList = depth === 1 && key === options.listKey;
    for (let i = 0; i < value.length; i++)
      pushNode(rows, value[i], childPlace(place, index, value, i, i, value.length, isList), walk);
  } else {
    const children = childEntries(value as object);
    children.forEach(([name, child], at) => {
      pushNode(rows, child, childPlace(place, index, value, name, at, children.length, false), walk);
    });
  }
  rows.push({ kind: "close", id, depth, item, text: container === "array" ? "]" : "}", comma });
}

function childPlace(
  parent: Place,
  parentRow: number,
  holder: unknown,
  key: string | number,
  position: number,
  siblings: number,
  isList: boolean,
): Place {
  return {
    id: childPointer(parent.id, key),
    depth: parent.depth + 1,
    key,
    holder,
    outer: parent.holder,
    parent: parentRow,
    item: isList ? (key as number) : parent.item,
    position: position + 1,
    siblings,
    comma: position < siblings - 1,
  };
}

/** The rows of `body` with `options.folds` applied: what the view scrolls through. */
export function buildRows(body: Record<string, unknown>, options: RowOptions): JsonRow[] {
  const rows: JsonRow[] = [];
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
  pushNode(rows, body, root, { options, itemFolds });
  return rows;
}

/** The row index of the node row of main-list item `item`, or -1 when it has none. */
export function itemRow(rows: readonly JsonRow[], item: number): number {
  return rows.findIndex((row) => row.kind === "node" && row.item === item && row.depth === 2);
}

/** The index of the node row with pointer `id`, or -1. */
export const nodeRowIndex = (rows: readonly JsonRow[], id: string): number =>
  rows.findIndex((row) => row.kind === "node" && row.id === id);
