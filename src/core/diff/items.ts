/**
 * What the diff reads of a payload: its main list, each item's text as the model reads it, and the units a
 * provider's prompt cache matches on (tools, system prompt, then the items, without cache markers).
 */
import type { Projection } from "../project/project.ts";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null;

/** The items of the payload's main list (`messages`, `input` or `contents`). */
export function payloadItems(projection: Projection): readonly unknown[] {
  const list = projection.payload.body[projection.payload.listKey];
  return Array.isArray(list) ? list : [];
}

/** Keys that are bookkeeping, not text the model reads. */
const NOT_TEXT = new Set([
  "id",
  "call_id",
  "tool_use_id",
  "tool_call_id",
  "toolCallId",
  "toolUseId",
  "type",
  "role",
  "status",
  "cache_control",
  "cachePoint",
  "signature",
  "thinkingSignature",
  "thoughtSignature",
  "textSignature",
  "encrypted_content",
  "media_type",
  "mimeType",
  "mime_type",
  "detail",
  "format",
  "phase",
  "annotations",
]);

function isImage(node: Json): boolean {
  const type = node["type"];
  return type === "image" || type === "input_image" || type === "image_url" || "inlineData" in node;
}

function collect(value: unknown, out: string[]): void {
  if (typeof value === "string") {
    if (value.startsWith("data:image/")) out.push("[image]");
    else if (value.length > 0) out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const element of value) collect(element, out);
    return;
  }
  if (!isObject(value)) return;
  if (isImage(value)) {
    out.push("[image]");
    return;
  }
  if (value["type"] === "redacted_thinking") {
    out.push("[redacted thinking]");
    return;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (NOT_TEXT.has(key) || inner === undefined || inner === null) continue;
    if (typeof inner === "string" && (key === "arguments" || key === "name")) out.push(inner);
    else if (key === "input" || key === "args") out.push(JSON.stringify(inner, null, 1));
    else collect(inner, out);
  }
}

/** The text of some payload items as the model reads it (images and encrypted reasoning as short markers). */
export function readableText(items: readonly unknown[]): string {
  const out: string[] = [];
  for (const item of items) collect(item, out);
  return out.join("\n");
}

const isCacheMarker = (key: string): boolean => key === "cache_control" || key === "cachePoint";
const isCachePoint = (value: unknown): boolean =>
  isObject(value) && !Array.isArray(value) && Object.keys(value).length === 1 && "cachePoint" in value;

/**
 * Deep equality that ignores prompt-cache markers (they move every turn and are not part of the cached prefix).
 * Strings from the same session entry are the same objects, so equal requests compare in time proportional to
 * their structure, not their text.
 */
export function sameForCache(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x === "string" && Array.isArray(y)) return isTextBlock(y, x);
  if (typeof y === "string" && Array.isArray(x)) return isTextBlock(x, y);
  if (!isObject(x) || !isObject(y)) return false;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y)) return false;
    const xs = x.some(isCachePoint) ? x.filter((e) => !isCachePoint(e)) : x;
    const ys = y.some(isCachePoint) ? y.filter((e) => !isCachePoint(e)) : y;
    return xs.length === ys.length && xs.every((e, i) => sameForCache(e, ys[i]));
  }
  const keys = (o: Json) => Object.keys(o).filter((k) => o[k] !== undefined && !isCacheMarker(k));
  const kx = keys(x);
  const ky = keys(y);
  return kx.length === ky.length && kx.every((k) => k in y && sameForCache(x[k], y[k]));
}

/**
 * Content given as a string equals one text block of that string (Anthropic turns the last user message's
 * string into a block to put its cache marker on; providers read both the same).
 */
function isTextBlock(blocks: readonly unknown[], text: string): boolean {
  const only = blocks.length === 1 ? blocks[0] : undefined;
  if (!isObject(only) || only["type"] !== "text" || only["text"] !== text) return false;
  return Object.keys(only).every((k) => k === "type" || k === "text" || isCacheMarker(k));
}

/** One thing a prompt cache matches on, in the order providers read them. */
export interface CacheUnit {
  readonly kind: "model" | "tools" | "system" | "item";
  /** Position in the main list (items only). */
  readonly item?: number;
  readonly value: unknown;
}

/** Tool definitions and system prompt of a request body, wherever the API puts them. */
function bodyParts(body: Json): { tools: unknown; system: unknown } {
  const config = isObject(body["config"]) ? body["config"] : {};
  return {
    tools: body["tools"] ?? body["toolConfig"] ?? config["tools"],
    system: body["system"] ?? body["instructions"] ?? body["systemInstruction"] ?? config["systemInstruction"],
  };
}

/**
 * The request as a prompt cache sees it: the model (nothing is shared across models), the tool definitions, the
 * system prompt, then every item of the main list. Compare units with `sameForCache`.
 */
export function cacheUnits(projection: Projection): CacheUnit[] {
  const { tools, system } = bodyParts(projection.payload.body);
  const model = projection.model;
  return [
    { kind: "model", value: `${model.provider}/${model.id} ${model.api}` },
    { kind: "tools", value: tools ?? null },
    { kind: "system", value: system ?? null },
    ...payloadItems(projection).map((item, index) => ({ kind: "item" as const, item: index, value: item })),
  ];
}
