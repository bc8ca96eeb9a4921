/**
 * What in a provider request is prompt text: the pieces of one payload item (a message of the main list) and
 * the system prompt and tool definitions, found by walking the provider's JSON. Ids, signatures, encrypted
 * reasoning, cache markers and type tags are not prompt text and are never tokenised.
 */
import { dataUrlIn } from "../providers/common.ts";

/** Base64 image data (or a data: URL, or raw bytes) found in an item. */
export type ImageData = string | Uint8Array;

/** The prompt-relevant pieces of one payload item, each counted (and cached) on its own. */
export interface PromptPieces {
  /** Message text, tool results, tool names. */
  readonly text: string[];
  /** Reasoning the item replays (thinking blocks, reasoning summaries, reasoning_content). */
  readonly thinking: string[];
  /** Tool-call arguments, rendered as the values themselves rather than escaped JSON where the API allows. */
  readonly toolArgs: string[];
  readonly images: ImageData[];
  /**
   * Characters of encrypted reasoning the item replays (thinking signatures, redacted thinking, OpenAI's
   * encrypted_content). Never tokenised: the provider decrypts it into hidden reasoning tokens, whose number
   * grows with this length.
   */
  opaque: number;
}

/** Keys whose values are never prompt text. */
const NOT_TEXT = new Set([
  "id",
  "call_id",
  "tool_use_id",
  "tool_call_id",
  "toolCallId",
  "toolUseId",
  "textSignature",
  "cache_control",
  "cachePoint",
  "type",
  "role",
  "status",
  "annotations",
  "detail",
  "media_type",
  "mimeType",
  "mime_type",
  "format",
  "phase",
  "is_error",
  "isError",
  "thought",
]);

/** Keys that hold reasoning text in one API or another. */
const THINKING_KEYS = new Set([
  "thinking",
  "reasoning_content",
  "reasoning",
  "reasoning_text",
  "reasoning_details",
  "reasoningContent",
]);

/** Keys that hold encrypted reasoning: measured (`opaque`), never tokenised. */
const OPAQUE_KEYS = new Set(["signature", "thinkingSignature", "thoughtSignature", "encrypted_content"]);

export function emptyPieces(): PromptPieces {
  return { text: [], thinking: [], toolArgs: [], images: [], opaque: 0 };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null;

/**
 * Rendered arguments per arguments object: the session's own objects reach the payload unchanged, so a re-count
 * after a rule toggle finds the same string (and the count cache finds it without building it again).
 */
const renderedArguments = new WeakMap<object, string>();

/** Tool-call arguments as a model reads them back: `key` then the value, strings unescaped. */
export function renderArguments(args: unknown): string {
  if (!isObject(args) || Array.isArray(args)) return typeof args === "string" ? args : (JSON.stringify(args) ?? "");
  const known = renderedArguments.get(args);
  if (known !== undefined) return known;
  let out = "";
  for (const [key, value] of Object.entries(args)) {
    out += `${key}\n${typeof value === "string" ? value : JSON.stringify(value)}\n`;
  }
  renderedArguments.set(args, out);
  return out;
}

/** Bytes serialised by JSON from a Uint8Array come back as {"0": 137, "1": 80, …}. */
function asBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (!isObject(value)) return undefined;
  const values = Object.values(value);
  return values.length > 0 && values.every((v) => typeof v === "number")
    ? Uint8Array.from(values as number[])
    : undefined;
}

/**
 * The image an object stands for, in any of the APIs' shapes, if it is one. A data URL a builder made is not read:
 * its image's own base64 is counted instead (see `dataUrlIn`).
 */
function imageOf(node: Json): ImageData | undefined {
  const behind = dataUrlIn(node);
  if (behind) return behind.image.data;
  const source = node["source"];
  if (node["type"] === "image" && isObject(source) && typeof source["data"] === "string") return source["data"];
  if (node["type"] === "input_image" && typeof node["image_url"] === "string") return node["image_url"];
  const imageUrl = node["image_url"];
  if (node["type"] === "image_url" && isObject(imageUrl) && typeof imageUrl["url"] === "string")
    return dataUrlIn(imageUrl)?.image.data ?? imageUrl["url"];
  const inline = node["inlineData"];
  if (isObject(inline) && typeof inline["data"] === "string") return inline["data"];
  const bedrock = node["image"];
  if (isObject(bedrock) && isObject(bedrock["source"])) return asBytes(bedrock["source"]["bytes"]);
  return undefined;
}

function walk(value: unknown, into: PromptPieces, bucket: "text" | "thinking"): void {
  if (typeof value === "string") {
    if (value.startsWith("data:image/")) into.images.push(value);
    else if (value.length > 0) into[bucket].push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const element of value) walk(element, into, bucket);
    return;
  }
  if (!isObject(value)) return;
  const image = imageOf(value);
  if (image !== undefined) {
    into.images.push(image);
    return;
  }
  walkObject(value, into, bucket);
}

function walkObject(node: Json, into: PromptPieces, bucket: "text" | "thinking"): void {
  const type = node["type"];
  if (type === "redacted_thinking") {
    into.opaque += typeof node["data"] === "string" ? node["data"].length : 0;
    return;
  }
  const isReasoning = type === "reasoning" || type === "thinking" || node["thought"] === true;
  const inner = isReasoning ? "thinking" : bucket;
  for (const key in node) {
    const value = node[key];
    if (value === undefined || value === null || NOT_TEXT.has(key) || !Object.hasOwn(node, key)) continue;
    if (OPAQUE_KEYS.has(key) || (inner === "thinking" && key === "data")) {
      into.opaque += typeof value === "string" ? value.length : 0;
      continue;
    }
    // Anthropic tool_use and Bedrock toolUse carry `input`, Google functionCall `args`, OpenAI `arguments`.
    if ((key === "input" && (type === "tool_use" || "toolUseId" in node)) || key === "args")
      into.toolArgs.push(renderArguments(value));
    else if (key === "arguments") into.toolArgs.push(typeof value === "string" ? value : renderArguments(value));
    else walk(value, into, THINKING_KEYS.has(key) ? "thinking" : inner);
  }
}

/** The prompt pieces of one item of the payload's main list. */
export function itemPieces(item: unknown): PromptPieces {
  const pieces = emptyPieces();
  walk(item, pieces, "text");
  return pieces;
}

/** System prompt text of a request body: body-level fields plus system/developer items of the main list. */
export function systemPieces(body: Json, systemItems: readonly unknown[]): PromptPieces {
  const pieces = emptyPieces();
  const config = isObject(body["config"]) ? body["config"] : {};
  for (const value of [body["system"], body["instructions"], body["systemInstruction"], config["systemInstruction"]]) {
    if (value !== undefined) walk(value, pieces, "text");
  }
  for (const item of systemItems) walk(item, pieces, "text");
  return pieces;
}

/** The tool definitions of a request body as one JSON text (schemas are JSON to the model too), or "". */
export function toolsText(body: Json): string {
  const config = isObject(body["config"]) ? body["config"] : {};
  const tools = body["tools"] ?? body["toolConfig"] ?? config["tools"];
  if (tools === undefined || (Array.isArray(tools) && tools.length === 0)) return "";
  return JSON.stringify(tools);
}

/** True for a main-list item that holds the system prompt (OpenAI-style APIs put it there). */
export function isSystemItem(item: unknown): boolean {
  return isObject(item) && (item["role"] === "system" || item["role"] === "developer");
}
