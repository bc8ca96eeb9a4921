/**
 * Stage 8 for API "mistral-conversations": the `chat.stream` request pi-ai 0.73.1 hands to `onPayload` when pi
 * calls `streamSimple(model, context, { apiKey, reasoning, sessionId, cacheRetention })`.
 * Same fields, same defaults, no Mistral SDK. The session id only becomes an `x-affinity` header and
 * cache retention is not used at all, so neither reaches the body.
 */
import type {
  AssistantMessage,
  ImageContent,
  LlmMessage,
  ModelInfo,
  PayloadRequest,
  PayloadResult,
  ThinkingLevel,
  ToolDefinition,
  ToolResultMessage,
  UserMessage,
} from "../llm/types.ts";
import { transformForModel, type NormalizeToolCallId } from "../project/transform.ts";
import { assertNever } from "../result.ts";
import {
  clampedReasoning,
  defaultMaxTokens,
  dataUrlHolder,
  imageDataUrl,
  isImage,
  isText,
  sanitizeSurrogates,
  shortHash,
} from "./common.ts";

/** Mistral tool-call ids are exactly nine alphanumeric characters. */
const TOOL_CALL_ID_LENGTH = 9;
/** Models whose reasoning is set with `reasoningEffort`; other reasoning models use `promptMode: "reasoning"`. */
const REASONING_EFFORT_MODELS: ReadonlySet<string> = new Set([
  "mistral-small-2603",
  "mistral-small-latest",
  "mistral-medium-3.5",
]);
const USER_IMAGE_OMITTED = "(image omitted: model does not support images)";

type MistralContentPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image_url"; readonly imageUrl: string }
  | { readonly type: "thinking"; readonly thinking: readonly { readonly type: "text"; readonly text: string }[] };

interface MistralToolCall {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

export type MistralMessage =
  | { readonly role: "system"; readonly content: string }
  | { readonly role: "user"; readonly content: string | readonly MistralContentPart[] }
  | {
      readonly role: "assistant";
      readonly content?: readonly MistralContentPart[];
      readonly toolCalls?: readonly MistralToolCall[];
    }
  | {
      readonly role: "tool";
      readonly toolCallId: string;
      readonly name: string;
      readonly content: readonly MistralContentPart[];
    };

/** One candidate id: the id's alphanumerics if exactly nine of them, else a hash (salted by `attempt`). */
function deriveToolCallId(id: string, attempt: number): string {
  const alphanumeric = id.replace(/[^a-zA-Z0-9]/g, "");
  if (attempt === 0 && alphanumeric.length === TOOL_CALL_ID_LENGTH) return alphanumeric;
  const seedBase = alphanumeric || id;
  const seed = attempt === 0 ? seedBase : `${seedBase}:${attempt}`;
  return shortHash(seed)
    .replace(/[^a-zA-Z0-9]/g, "")
    .slice(0, TOOL_CALL_ID_LENGTH);
}

/**
 * pi-ai's per-request Mistral id normaliser: a stable nine-character id per original id, re-hashed with a
 * counter when two originals would collide. Stateful, so a fresh one is made for every request.
 */
export function mistralToolCallIdNormalizer(): NormalizeToolCallId {
  const byOriginal = new Map<string, string>();
  const ownerOf = new Map<string, string>();
  return (id) => {
    const known = byOriginal.get(id);
    if (known) return known;
    for (let attempt = 0; ; attempt++) {
      const candidate = deriveToolCallId(id, attempt);
      const owner = ownerOf.get(candidate);
      // pi-ai tests the owner for truthiness, so a candidate owned by the empty id counts as free.
      if (!owner || owner === id) {
        byOriginal.set(id, candidate);
        ownerOf.set(candidate, id);
        return candidate;
      }
    }
  };
}

/** `promptMode` / `reasoningEffort`: set only for reasoning models and a level that clamps to something. */
function reasoningFields(model: ModelInfo, level: ThinkingLevel | undefined): Record<string, string> {
  const clamped = clampedReasoning(model, level);
  if (!clamped || !model.reasoning) return {};
  if (!REASONING_EFFORT_MODELS.has(model.id)) return { promptMode: "reasoning" };
  const effort = model.thinkingLevelMap?.[clamped] ?? "high";
  return effort ? { reasoningEffort: effort } : {};
}

const imageUrl = (image: ImageContent): MistralContentPart =>
  dataUrlHolder({ type: "image_url", imageUrl: imageDataUrl(image) } as const, "imageUrl", image);

/** A user turn; images are dropped for text-only models, and an emptied turn is skipped or says why. */
function toUserMessage(message: UserMessage, supportsImages: boolean): MistralMessage | undefined {
  if (typeof message.content === "string") return { role: "user", content: sanitizeSurrogates(message.content) };
  const content = message.content
    .filter((part) => part.type === "text" || supportsImages)
    .map((part) =>
      part.type === "text" ? { type: "text" as const, text: sanitizeSurrogates(part.text) } : imageUrl(part),
    );
  if (content.length > 0) return { role: "user", content };
  const hadImages = message.content.some((part) => part.type === "image");
  return hadImages && !supportsImages ? { role: "user", content: USER_IMAGE_OMITTED } : undefined;
}

/** An assistant turn: non-blank text and thinking as parts, tool calls with JSON-string arguments. */
function toAssistantMessage(message: AssistantMessage): MistralMessage | undefined {
  const parts: MistralContentPart[] = [];
  const toolCalls: MistralToolCall[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case "text":
        if (block.text.trim().length > 0) parts.push({ type: "text", text: sanitizeSurrogates(block.text) });
        break;
      case "thinking":
        if (block.thinking.trim().length > 0) {
          parts.push({ type: "thinking", thinking: [{ type: "text", text: sanitizeSurrogates(block.thinking) }] });
        }
        break;
      case "toolCall":
        toolCalls.push({
          id: block.id,
          type: "function",
          function: { name: block.name, arguments: JSON.stringify(block.arguments || {}) },
        });
        break;
      default:
        return assertNever(block, "assistant block");
    }
  }
  if (parts.length === 0 && toolCalls.length === 0) return undefined;
  return { role: "assistant", ...(parts.length > 0 && { content: parts }), ...(toolCalls.length > 0 && { toolCalls }) };
}

/** pi-ai's `buildToolResultText`: trimmed text with an error prefix, or a note when there is no text. */
function toolResultText(text: string, hasImages: boolean, supportsImages: boolean, isError: boolean): string {
  const prefix = isError ? "[tool error] " : "";
  const trimmed = text.trim();
  if (trimmed.length > 0) {
    const omitted = hasImages && !supportsImages ? "\n[tool image omitted: model does not support images]" : "";
    return `${prefix}${trimmed}${omitted}`;
  }
  if (!hasImages) return `${prefix}(no tool output)`;
  return `${prefix}${supportsImages ? "(see attached image)" : "(image omitted: model does not support images)"}`;
}

/** A tool result: one text part (texts joined by newlines), then its images when the model takes them. */
function toToolMessage(message: ToolResultMessage, supportsImages: boolean): MistralMessage {
  const texts = message.content.filter(isText);
  const images = message.content.filter(isImage);
  const text = texts.map((part) => sanitizeSurrogates(part.text)).join("\n");
  const content = [
    { type: "text" as const, text: toolResultText(text, images.length > 0, supportsImages, message.isError) },
    ...(supportsImages ? images.map(imageUrl) : []),
  ];
  return { role: "tool", toolCallId: message.toolCallId, name: message.toolName, content };
}

function toMistralMessage(message: LlmMessage, supportsImages: boolean): MistralMessage | undefined {
  switch (message.role) {
    case "user":
      return toUserMessage(message, supportsImages);
    case "assistant":
      return toAssistantMessage(message);
    case "toolResult":
      return toToolMessage(message, supportsImages);
    default:
      return assertNever(message, "message role");
  }
}

/** A deep copy of a JSON schema with only string keys, as pi-ai's `stripSymbolKeys` makes it. */
function copyStringKeyed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyStringKeyed);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, copyStringKeyed(entry)]));
  }
  return value;
}

function toFunctionTools(tools: readonly ToolDefinition[]): unknown[] {
  return tools.map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: copyStringKeyed(tool.parameters),
      strict: false,
    },
  }));
}

/**
 * The body pi-ai sends to Mistral's chat completions for this model and request (`listKey` "messages"; the
 * system prompt, when there is one, is the first message and has no origin). Runs `transformForModel` with a
 * fresh Mistral id normaliser exactly where pi-ai runs `transformMessages`. Never throws: with an API key
 * pi-ai has nothing to refuse before `onPayload`.
 */
export function buildMistralPayload(model: ModelInfo, request: PayloadRequest): PayloadResult {
  const supportsImages = model.input.includes("image");
  const transformed = transformForModel(request.messages, model, mistralToolCallIdNormalizer(), request.transform);
  const messages: MistralMessage[] = [];
  const origins: (readonly number[])[] = [];
  if (request.systemPrompt) {
    messages.push({ role: "system", content: sanitizeSurrogates(request.systemPrompt) });
    origins.push([]);
  }
  transformed.messages.forEach((message, i) => {
    const converted = toMistralMessage(message, supportsImages);
    if (!converted) return;
    messages.push(converted);
    const from = transformed.from[i];
    origins.push(from === undefined ? [] : [from]);
  });
  const maxTokens = defaultMaxTokens(model);
  const body = {
    model: model.id,
    stream: true,
    messages,
    ...(request.tools && request.tools.length > 0 && { tools: toFunctionTools(request.tools) }),
    ...(maxTokens !== undefined && { maxTokens }),
    ...reasoningFields(model, request.reasoning),
  };
  return { body, listKey: "messages", origins };
}
