/**
 * What several stage-8 payload builders share: each export is a copy of one pi-ai 0.73.1 function, or of an
 * expression pi-ai repeats across its providers. Provider-specific variations stay in their builders.
 * Pure like the rest of `src/core`: nothing from pi or a provider SDK is imported.
 */
import type {
  ImageContent,
  LlmMessage,
  ModelInfo,
  SessionThinkingLevel,
  TextContent,
  ThinkingContent,
  ThinkingLevel,
  ToolCall,
} from "../llm/types.ts";
import { parseJsonShallow } from "../nesting.ts";
import { singleIndex } from "../project/memo.ts";
import type { TransformResult } from "../project/transform.ts";

/** pi-ai's `EXTENDED_THINKING_LEVELS` (`models.js`), weakest first. */
const THINKING_LEVELS: readonly SessionThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** The default budgets of pi-ai's `adjustMaxTokensForThinking` (pi passes no custom ones). */
const THINKING_BUDGETS: Readonly<Record<Exclude<ThinkingLevel, "xhigh">, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
};

/** `adjustMaxTokensForThinking` keeps this many tokens for the answer when the cap leaves no room beyond the budget. */
const MIN_OUTPUT_TOKENS = 1024;

/** pi-ai's `buildBaseOptions` caps the default output budget at this many tokens. */
const DEFAULT_MAX_TOKENS_CAP = 32000;

const ANY_SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Results computed from long strings that every payload of a session meets again (each leaf repeats its path):
 * the same string objects come back, so a lookup is far cheaper than another scan or parse. Forgets everything
 * when the strings it keeps alive would pass `maxChars`.
 */
class StringMemo<T> {
  readonly #values = new Map<string, T>();
  #chars = 0;

  constructor(readonly maxChars: number) {}

  get(text: string, compute: (text: string) => T): T {
    const known = this.#values.get(text);
    if (known !== undefined) return known;
    const value = compute(text);
    if (this.#chars + text.length > this.maxChars) {
      this.#values.clear();
      this.#chars = 0;
    }
    this.#values.set(text, value);
    this.#chars += text.length;
    return value;
  }
}

const MEMO_MAX_CHARS = 64 * 1024 * 1024;
const sanitized = new StringMemo<string>(MEMO_MAX_CHARS);

/** `String.prototype.isWellFormed` (Chromium 111, Node 20): one native scan, none for a one-byte string. */
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/**
 * pi-ai's `sanitizeSurrogates` (`utils/sanitize-unicode.js`), with the same regex: drops unpaired UTF-16
 * surrogates, keeps proper pairs such as emoji. Like pi-ai it throws a TypeError for a value that is not a
 * string (session data that failed validation is kept as is), so the request fails where pi's would.
 * Most texts hold no unpaired surrogate, which `isWellFormed` tells at once for a string V8 keeps one byte per
 * character and in one native pass otherwise (half the regex's time, and a text with emoji needs no more);
 * only texts that do hold one are scanned with the lookbehind, once per string.
 */
export function sanitizeSurrogates(text: string): string {
  if (typeof text !== "string") return (text as string).replace(LONE_SURROGATE, "");
  if (isWellFormed ? isWellFormed.call(text) : !ANY_SURROGATE.test(text)) return text;
  return sanitized.get(text, (t) => t.replace(LONE_SURROGATE, ""));
}

/** pi-ai's `shortHash` (`utils/hash.js`): two 32-bit multiplicative hashes (cyrb53 style) printed in base 36. */
export function shortHash(text: string): string {
  let a = 0xdeadbeef;
  let b = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 2654435761);
    b = Math.imul(b ^ unit, 1597334677);
  }
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return (b >>> 0).toString(36) + (a >>> 0).toString(36);
}

/** pi-ai's `text.trim().length === 0` test in the Anthropic and Bedrock `convertMessages`. */
export const isBlank = (text: string): boolean => text.trim().length === 0;

/** pi-ai's `getSupportedThinkingLevels` (`models.js`): a level mapped to null is unsupported; xhigh must be mapped. */
export function supportedThinkingLevels(model: ModelInfo): readonly SessionThinkingLevel[] {
  if (!model.reasoning) return ["off"];
  return THINKING_LEVELS.filter((level) => {
    const mapped = model.thinkingLevelMap?.[level];
    if (mapped === null) return false;
    return level !== "xhigh" || mapped !== undefined;
  });
}

/**
 * pi-ai's `clampThinkingLevel` (`models.js`): the requested level if supported, else the nearest supported one
 * above it, else below it. A level pi-ai does not know (a session may hold any string) gets the first supported.
 */
export function clampThinkingLevel(model: ModelInfo, level: ThinkingLevel): SessionThinkingLevel {
  const supported = supportedThinkingLevels(model);
  const index = THINKING_LEVELS.indexOf(level);
  if (index === -1) return supported[0] ?? "off";
  const above = THINKING_LEVELS.slice(index).find((l) => supported.includes(l));
  const below = THINKING_LEVELS.slice(0, index)
    .reverse()
    .find((l) => supported.includes(l));
  return above ?? below ?? supported[0] ?? "off";
}

/**
 * The reasoning pi-ai's OpenAI and Mistral `streamSimple*` pass on: `options.reasoning ? clampThinkingLevel(…)
 * : undefined`, with a clamped "off" as undefined.
 */
export function clampedReasoning(model: ModelInfo, level: ThinkingLevel | undefined): ThinkingLevel | undefined {
  if (!level) return undefined;
  const clamped = clampThinkingLevel(model, level);
  return clamped === "off" ? undefined : clamped;
}

/** `model.thinkingLevelMap?.[effort] ?? effort`, the effort string pi-ai's OpenAI providers send for a level. */
export function mappedEffort(model: ModelInfo, level: ThinkingLevel): string {
  return model.thinkingLevelMap?.[level] ?? level;
}

/**
 * pi-ai's Anthropic `mapThinkingLevelToEffort`: the model's own mapping when it is a string, else low/medium/high.
 * pi-ai's Bedrock copy only adds a native "xhigh" for Opus 4.7 in front of it.
 */
export function adaptiveThinkingEffort(model: ModelInfo, level: ThinkingLevel): string {
  const mapped = model.thinkingLevelMap?.[level];
  if (typeof mapped === "string") return mapped;
  switch (level) {
    case "minimal":
    case "low":
      return "low";
    case "medium":
      return "medium";
    default:
      // "high", "xhigh", and any other string a session file holds: pi-ai falls back to "high".
      return "high";
  }
}

/** The default output cap of pi-ai's `buildBaseOptions`: the model's maxTokens, at most 32,000; none without one. */
export function defaultMaxTokens(model: ModelInfo): number | undefined {
  return model.maxTokens > 0 ? Math.min(model.maxTokens, DEFAULT_MAX_TOKENS_CAP) : undefined;
}

/**
 * pi-ai's `adjustMaxTokensForThinking` (`providers/simple-options.js`) with the default budgets (xhigh counts as
 * high): the output cap raised by the budget, and the budget shrunk when the model's cap leaves no room for it.
 */
export function adjustMaxTokensForThinking(
  baseMaxTokens: number,
  modelMaxTokens: number,
  level: ThinkingLevel,
): { readonly maxTokens: number; readonly thinkingBudget: number } {
  // A level read from the file may be any string: never one of Object.prototype's keys ("hasOwnProperty" gave pi
  // a function here; undefined gives the same JSON, as both end in NaN for max_tokens and no budget_tokens).
  const key = level === "xhigh" ? "high" : level;
  const budget = Object.hasOwn(THINKING_BUDGETS, key) ? THINKING_BUDGETS[key] : (undefined as unknown as number);
  const maxTokens = Math.min(baseMaxTokens + budget, modelMaxTokens);
  const thinkingBudget = maxTokens <= budget ? Math.max(0, maxTokens - MIN_OUTPUT_TOKENS) : budget;
  return { maxTokens, thinkingBudget };
}

/** Content-block guards: pi-ai's `block.type === "text"` (…) filters, typed. */
export const isText = (block: { readonly type: string }): block is TextContent => block.type === "text";
export const isImage = (block: { readonly type: string }): block is ImageContent => block.type === "image";

const joinedTexts = new WeakMap<object, string>();

/**
 * The text blocks of a content list joined by newlines, as pi-ai writes a tool result's text. The same list gives
 * the same string object every time (a lone text is itself), so what is remembered per string afterwards — the
 * surrogate scan, the token count — is found without hashing a fresh copy of a long output.
 */
export function joinedText(content: readonly { readonly type: string }[]): string {
  let text = joinedTexts.get(content);
  if (text === undefined) {
    const texts = content.filter(isText).map((block) => block.text);
    text = texts.length === 1 ? (texts[0] as string) : texts.join("\n");
    joinedTexts.set(content, text);
  }
  return text;
}
export const isThinking = (block: { readonly type: string }): block is ThinkingContent => block.type === "thinking";
export const isToolCall = (block: { readonly type: string }): block is ToolCall => block.type === "toolCall";

/** `data:${mimeType};base64,${data}`, the image URL pi-ai's OpenAI Completions, Responses and Mistral code builds. */
export function imageDataUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

/**
 * The image behind each `data:` URL a builder made, by the object holding the URL and its key there. The URL is
 * a concatenation that V8 copies into one new string the first time anything reads it, and payload items are
 * kept for reuse: reading it would hold every image twice for as long as the session is open. Token counts and
 * the page's view of a payload find the image here instead, and written JSON gets a fresh URL (`freshDataUrls`).
 */
const dataUrls = new WeakMap<object, { readonly key: string; readonly image: ImageContent }>();

/**
 * `holder`, remembered as holding the data URL of `image` under `key`. Only for base64 data: data of another kind
 * (pi writes none, a damaged file may hold it) makes a short URL such as `data:image/png;base64,[object Object]`,
 * which is read as the string it is.
 */
export function dataUrlHolder<T extends object>(holder: T, key: keyof T & string, image: ImageContent): T {
  if (typeof image.data === "string") dataUrls.set(holder, { key, image });
  return holder;
}

/** The image whose data URL `holder` holds, and under which key, if a builder made it. */
export function dataUrlIn(holder: object): { readonly key: string; readonly image: ImageContent } | undefined {
  return dataUrls.get(holder);
}

/**
 * A `JSON.stringify` replacer that writes a builder's data URLs from fresh strings, so the copy V8 makes to write
 * one is garbage afterwards instead of staying with the kept payload item. The JSON is the same.
 */
export function freshDataUrls(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const behind = dataUrls.get(value);
  if (!behind) return value;
  const fresh: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    fresh[key] = key === behind.key ? imageDataUrl(behind.image) : (value as Record<string, unknown>)[key];
  }
  return fresh;
}

/**
 * `object[key]`, with a builder's data URL written from a fresh string (see `freshDataUrls`): for code that
 * compares or prints payload values and must not leave a copy of the image with the kept payload item.
 */
export function freshField(object: Record<string, unknown>, key: string): unknown {
  const behind = dataUrls.get(object);
  return behind?.key === key ? imageDataUrl(behind.image) : object[key];
}

/**
 * Anthropic's prompt-caching marker as pi-ai writes it (`getCacheControl` in `anthropic.js`, and on OpenRouter's
 * `anthropic/` models in `openai-completions.js`); `ttl` only for long retention where supported.
 */
export interface CacheControl {
  readonly type: "ephemeral";
  readonly ttl?: "1h";
}

/**
 * How many messages from `start` on are tool results: the run pi-ai's Anthropic and Bedrock `convertMessages`
 * gather into one user message.
 */
export function toolResultRunLength(messages: readonly LlmMessage[], start: number): number {
  let end = start;
  while (messages[end]?.role === "toolResult") end++;
  return end - start;
}

/**
 * Ours, not pi-ai's: request indices behind transformed messages `from[start..start+count)`; synthetic ones have
 * none. One message's is the shared `singleIndex` array (every message of every leaf's payload asks).
 */
export function originsOf(from: TransformResult["from"], start: number, count: number): readonly number[] {
  if (count === 1) return singleIndex(from[start]);
  return from.slice(start, start + count).filter((index): index is number => index !== undefined);
}

const argumentsJson = new WeakMap<object, string>();

/**
 * `JSON.stringify` of a tool call's arguments, once per arguments object: every payload built along a path
 * sends the same calls again, from the same session objects. Payload bodies share such parts; never mutate them.
 */
export function argumentsText(args: unknown): string {
  if (typeof args !== "object" || args === null) return JSON.stringify(args);
  let text = argumentsJson.get(args);
  if (text === undefined) {
    text = JSON.stringify(args);
    argumentsJson.set(args, text);
  }
  return text;
}

const parsedSignatures = new StringMemo<unknown>(MEMO_MAX_CHARS);

/**
 * `JSON.parse` of a signature string (an OpenAI reasoning item), remembered per string: long encrypted
 * reasoning is parsed once per session rather than once per payload. Throws like `JSON.parse` on bad JSON, and
 * a RangeError for a value nested too deep to send.
 * The result is shared between payloads; never mutate it.
 */
export function parseSignatureJson(text: string): unknown {
  return parsedSignatures.get(text, parseJsonShallow);
}
