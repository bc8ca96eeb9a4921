/**
 * What one node row says, as plain strings for text nodes: the key, the value as pretty JSON writes it (or a
 * summary, an image placeholder, a shortened string), and the trailing comma.
 */
import { isTextStandIn } from "../../core/text-stand-in.ts";
import { describeBinary } from "./binary.ts";
import { NOT_READ } from "./items.ts";
import type { NodeRow } from "./json-rows.ts";
import { previewString, stringChunks } from "./strings.ts";
import { describeFolded, describeFoldedArray, summarizeItem } from "./summary.ts";

export type ValueTone = "string" | "number" | "literal" | "binary" | "bracket" | "summary";

export interface NodeText {
  /** The JSON key (`"role"`) for object properties; undefined for array elements and the body. */
  readonly key: string | undefined;
  /** A main-list item's one-line summary (shown folded, and before the bracket when unfolded). */
  readonly summary: string | undefined;
  readonly value: string;
  readonly tone: ValueTone;
}

/** Whether the row is an item of the payload's main list. */
export const isItemRow = (row: NodeRow): boolean => row.item !== undefined && row.depth === 2;

function leafText(row: NodeRow): Pick<NodeText, "value" | "tone"> {
  const { value } = row;
  const binary = describeBinary(value, row.key, row.holder, row.outer);
  if (binary !== undefined) return { value: binary, tone: "binary" };
  // A stand-in's head holds more than the shortened string and the first piece of the full one show.
  const text = typeof value === "string" ? value : isTextStandIn(value) ? value.head : undefined;
  if (text !== undefined) {
    if (!row.long) return { value: JSON.stringify(text), tone: "string" };
    return { value: row.full ? `"${stringChunks(text, 1)[0]!}` : previewString(text), tone: "string" };
  }
  if (typeof value === "number") return { value: JSON.stringify(value), tone: "number" };
  if (value === null || value === undefined || typeof value === "boolean")
    return { value: JSON.stringify(value ?? null), tone: "literal" };
  return { value: String(value), tone: "literal" };
}

/** The text of a node row. */
export function nodeText(row: NodeRow): NodeText {
  const key = typeof row.key === "string" ? JSON.stringify(row.key) : undefined;
  if (row.value === NOT_READ) return { key, summary: `[${row.item}]`, value: "reading…", tone: "summary" };
  const summary = isItemRow(row) ? summarizeItem(row.value, row.item!) : undefined;
  if (row.container === undefined) return { key, summary, ...leafText(row) };
  if (row.open) return { key, summary, value: row.container === "array" ? "[" : "{", tone: "bracket" };
  // An array's row knows its length (the main list's value is its items, which the page may not all hold).
  const folded = row.container === "array" ? describeFoldedArray(row.size) : describeFolded(row.value);
  return { key, summary, value: summary === undefined ? folded : "", tone: "summary" };
}
