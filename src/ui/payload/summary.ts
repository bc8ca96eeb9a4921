/**
 * One-line summaries of folded JSON: for an item of the payload's main list (a message in any provider's shape)
 * `[12] user · "Fix the failing test in…" · 2 blocks · calls read`, for any other object or array its size.
 */

import { isTextStandIn } from "../../core/text-stand-in.ts";
import { plural } from "./format.ts";

/** How many characters of a message's text a summary quotes. */
export const SUMMARY_TEXT_CHARS = 48;

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value);
/** A string, or the head of a long one the worker stood in for (enough for a summary's quote). */
const str = (value: unknown): string | undefined =>
  typeof value === "string" ? value : isTextStandIn(value) ? value.head : undefined;

/** Keys whose string value is a message's text; thinking is only quoted when there is nothing else. */
const TEXT_KEYS = new Set(["text", "output", "content", "error", "refusal", "result"]);
const THINKING_KEYS = new Set(["thinking", "reasoning_content"]);
/** Where text hides one level down: content blocks, Google parts, tool results in each provider's shape. */
const NESTED_KEYS = new Set(["content", "parts", "toolResult", "functionResponse", "response", "summary"]);

function findText(value: unknown, keys: ReadonlySet<string>, depth: number): string | undefined {
  if (depth > 5) return undefined;
  if (Array.isArray(value)) {
    for (const element of value) {
      const found = findText(element, keys, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  for (const [key, field] of Object.entries(value)) {
    const text = str(field);
    if (text !== undefined && keys.has(key) && text.trim() !== "") return text;
    if (typeof field === "object" && NESTED_KEYS.has(key)) {
      const found = findText(field, keys, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const NON_SPACE = /\s*\S/y;

/** The first words of `text` on one line, quoted, "…" when cut. */
export function quoteText(text: string, chars = SUMMARY_TEXT_CHARS): string {
  // Only the start of a long text is looked at: a tool output can be megabytes.
  const head = text.slice(0, chars * 8);
  const line = head.replace(/\s+/g, " ").trim();
  NON_SPACE.lastIndex = head.length;
  const cut = line.length > chars || NON_SPACE.test(text);
  return cut ? `"${line.slice(0, chars).trimEnd()}…"` : `"${line}"`;
}

/** The blocks of a message: `content` (Anthropic, OpenAI, Bedrock) or `parts` (Google), when a list. */
function blocksOf(item: Json): { readonly blocks: readonly unknown[]; readonly word: string } | undefined {
  if (Array.isArray(item["content"])) return { blocks: item["content"], word: "block" };
  if (Array.isArray(item["parts"])) return { blocks: item["parts"], word: "part" };
  return undefined;
}

/** The tool a block or item calls, in any provider's shape. */
function calledTool(block: Json): string | undefined {
  const type = str(block["type"]);
  if (type === "tool_use" || type === "function_call" || type === "custom_tool_call") return str(block["name"]);
  if (isRecord(block["toolUse"])) return str(block["toolUse"]["name"]);
  if (isRecord(block["functionCall"])) return str(block["functionCall"]["name"]);
  if (type === "function" && isRecord(block["function"])) return str(block["function"]["name"]);
  return undefined;
}

function isToolResult(block: Json): boolean {
  const type = str(block["type"]);
  return (
    type === "tool_result" ||
    type === "function_call_output" ||
    type === "custom_tool_call_output" ||
    isRecord(block["toolResult"]) ||
    isRecord(block["functionResponse"])
  );
}

function isImage(block: Json): boolean {
  const type = str(block["type"]);
  if (type === "image" || type === "input_image" || type === "image_url") return true;
  if (isRecord(block["image"])) return true;
  return isRecord(block["inlineData"]) && (str(block["inlineData"]["mimeType"]) ?? "").startsWith("image/");
}

/** The tools called, results carried and images sent by an item (its own shape and its blocks). */
function facts(item: Json, blocks: readonly unknown[]): string[] {
  const parts = [item, ...blocks, ...(Array.isArray(item["tool_calls"]) ? item["tool_calls"] : [])].filter(isRecord);
  const calls = parts.map(calledTool).filter((name): name is string => name !== undefined);
  const results = parts.filter(isToolResult).length + (item["role"] === "tool" ? 1 : 0);
  const images = parts.filter(isImage).length;
  const out: string[] = [];
  if (calls.length > 0)
    out.push(`calls ${calls.slice(0, 3).join(", ")}${calls.length > 3 ? ` +${calls.length - 3}` : ""}`);
  if (results > 0) out.push(results === 1 ? "tool result" : plural(results, "tool result"));
  if (images > 0) out.push(plural(images, "image"));
  return out;
}

/** What kind of item this is: its role, or its type when it has no role (OpenAI Responses `function_call`, …). */
function labelOf(item: Json): string {
  return str(item["role"]) ?? str(item["type"]) ?? "item";
}

/**
 * `[12] user · "Fix the failing test in…" · 2 blocks · calls read`: the position, role or type, first text,
 * number of blocks and the tool calls, tool results and images of one item of the payload's main list.
 */
export function summarizeItem(item: unknown, index: number): string {
  const head = `[${index}]`;
  if (!isRecord(item)) return `${head} ${Array.isArray(item) ? describeFolded(item) : JSON.stringify(item)}`;
  const list = blocksOf(item);
  const text = findText(item, TEXT_KEYS, 0) ?? findText(item, THINKING_KEYS, 0);
  const pieces = [`${head} ${labelOf(item)}`];
  if (text !== undefined) pieces.push(quoteText(text));
  if (list) pieces.push(plural(list.blocks.length, list.word));
  for (const fact of facts(item, list?.blocks ?? [])) pieces.push(fact);
  return pieces.join(" · ");
}

/** `[…] 12 items`: a folded array of this many elements. */
export const describeFoldedArray = (length: number): string => `[…] ${plural(length, "item")}`;

/** `{…} text · 2 keys` or `[…] 12 items`: a folded object (with its `type` or `role` when it has one) or array. */
export function describeFolded(value: unknown): string {
  if (Array.isArray(value)) return describeFoldedArray(value.length);
  if (!isRecord(value)) return "";
  const keys = Object.keys(value).filter((key) => value[key] !== undefined).length;
  const kind = str(value["type"]) ?? str(value["role"]);
  return `{…} ${kind === undefined ? "" : `${kind} · `}${plural(keys, "key")}`;
}
