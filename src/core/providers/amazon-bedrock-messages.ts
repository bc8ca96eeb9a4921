/**
 * The `messages` list of a Bedrock Converse body, as pi-ai 0.73.1's `convertMessages` builds it from
 * already-transformed messages — plus, for every body message, the request messages it came from.
 * Images travel as raw bytes (`Uint8Array`), exactly the value the AWS SDK is handed.
 */
import {
  PayloadError,
  type AssistantMessage,
  type ImageContent,
  type LlmMessage,
  type TextContent,
  type ToolResultMessage,
  type UserMessage,
} from "../llm/types.ts";
import type { TransformResult } from "../project/transform.ts";
import { assertNever } from "../result.ts";
import { isBlank, originsOf, sanitizeSurrogates, toolResultRunLength } from "./common.ts";

/** Bedrock prompt-caching marker; `ttl` only for long retention. */
export interface BedrockCachePoint {
  readonly type: "default";
  readonly ttl?: "1h";
}

export type BedrockImageFormat = "jpeg" | "png" | "gif" | "webp";

export interface BedrockImage {
  readonly source: { readonly bytes: Uint8Array };
  readonly format: BedrockImageFormat;
}

export interface BedrockToolResult {
  readonly toolUseId: string;
  readonly content: readonly ({ readonly text: string } | { readonly image: BedrockImage })[];
  readonly status: "success" | "error";
}

export interface BedrockReasoningText {
  readonly text: string;
  readonly signature?: string;
}

/** One content block: Bedrock tells block kinds apart by their single key, not by a `type` field. */
export type BedrockBlock =
  | { readonly text: string }
  | { readonly image: BedrockImage }
  | { readonly toolUse: { readonly toolUseId: string; readonly name: string; readonly input: Record<string, unknown> } }
  | { readonly reasoningContent: { readonly reasoningText: BedrockReasoningText } }
  | { readonly toolResult: BedrockToolResult }
  | { readonly cachePoint: BedrockCachePoint };

export interface BedrockMessage {
  readonly role: "user" | "assistant";
  readonly content: readonly BedrockBlock[];
}

/** Body messages and, index for index, the request message indices each one came from. */
export interface BedrockMessageList {
  readonly messages: readonly BedrockMessage[];
  readonly origins: readonly (readonly number[])[];
}

export interface BedrockMessageOptions {
  /** Appended to the last message when it is a user message; undefined when caching is off or unsupported. */
  readonly cachePoint: BedrockCachePoint | undefined;
  /** Claude models replay signed reasoning; other models get reasoning text without a signature field. */
  readonly signedReasoning: boolean;
}

const IMAGE_FORMATS: Readonly<Record<string, BedrockImageFormat>> = {
  "image/jpeg": "jpeg",
  "image/jpg": "jpeg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** Base64 → bytes with the platform's `atob` (browser and Node alike), so it accepts and rejects what pi-ai does. */
function decodeBase64(data: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(data);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PayloadError(`an image is not valid base64 (${reason}); Bedrock needs its raw bytes`);
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** pi-ai's `createImageBlock`: only four formats are accepted; anything else fails the whole request. */
export function toBedrockImage(image: ImageContent): BedrockImage {
  const format = IMAGE_FORMATS[image.mimeType];
  if (!format) {
    throw new PayloadError(`Bedrock takes only JPEG, PNG, GIF and WebP images, not "${image.mimeType}"`);
  }
  return { source: { bytes: decodeBase64(image.data) }, format };
}

/** A user or tool-result block: text (lone surrogates removed, blanks kept) or image bytes. */
function toMediaBlock(block: TextContent | ImageContent): { text: string } | { image: BedrockImage } {
  return block.type === "image" ? { image: toBedrockImage(block) } : { text: sanitizeSurrogates(block.text) };
}

function toUserMessage(message: UserMessage): BedrockMessage {
  const content =
    typeof message.content === "string"
      ? [{ text: sanitizeSurrogates(message.content) }]
      : message.content.map(toMediaBlock);
  return { role: "user", content };
}

/** A reasoning block; Claude without a usable signature gets plain text instead (Bedrock would reject it). */
function toReasoningBlock(thinking: string, signature: string | undefined, signed: boolean): BedrockBlock {
  const text = sanitizeSurrogates(thinking);
  if (!signed) return { reasoningContent: { reasoningText: { text } } };
  if (!signature || isBlank(signature)) return { text };
  return { reasoningContent: { reasoningText: { text, signature } } };
}

/** Assistant blocks with blank text and blank thinking left out; undefined when nothing is left. */
function toAssistantMessage(message: AssistantMessage, signedReasoning: boolean): BedrockMessage | undefined {
  const content = message.content.flatMap((block): BedrockBlock[] => {
    switch (block.type) {
      case "text":
        return isBlank(block.text) ? [] : [{ text: sanitizeSurrogates(block.text) }];
      case "toolCall":
        return [{ toolUse: { toolUseId: block.id, name: block.name, input: block.arguments } }];
      case "thinking":
        return isBlank(block.thinking)
          ? []
          : [toReasoningBlock(block.thinking, block.thinkingSignature, signedReasoning)];
      default:
        return assertNever(block, "assistant block");
    }
  });
  return content.length > 0 ? { role: "assistant", content } : undefined;
}

function toToolResultBlock(message: ToolResultMessage): BedrockBlock {
  return {
    toolResult: {
      toolUseId: message.toolCallId,
      content: message.content.map(toMediaBlock),
      status: message.isError ? "error" : "success",
    },
  };
}

/** One body message from a single user/assistant message or a run of tool results (one user message). */
function toBedrockMessage(group: readonly LlmMessage[], signedReasoning: boolean): BedrockMessage | undefined {
  const first = group[0] as LlmMessage;
  switch (first.role) {
    case "user":
      return toUserMessage(first);
    case "assistant":
      return toAssistantMessage(first, signedReasoning);
    case "toolResult":
      return { role: "user", content: (group as readonly ToolResultMessage[]).map(toToolResultBlock) };
    default:
      return assertNever(first, "message role");
  }
}

/**
 * pi-ai's Bedrock `convertMessages` after `transformMessages`: skips assistant turns with nothing to say,
 * merges consecutive tool results into one user message, and appends the cache point to a final user message.
 * Throws PayloadError for an image pi-ai cannot encode (unknown type, bad base64).
 */
export function toBedrockMessages(transformed: TransformResult, options: BedrockMessageOptions): BedrockMessageList {
  const source = transformed.messages;
  const messages: BedrockMessage[] = [];
  const origins: (readonly number[])[] = [];
  for (let i = 0; i < source.length;) {
    const count = source[i]?.role === "toolResult" ? toolResultRunLength(source, i) : 1;
    const converted = toBedrockMessage(source.slice(i, i + count), options.signedReasoning);
    if (converted) {
      messages.push(converted);
      origins.push(originsOf(transformed.from, i, count));
    }
    i += count;
  }
  const last = messages.at(-1);
  if (options.cachePoint && last?.role === "user") {
    messages[messages.length - 1] = { ...last, content: [...last.content, { cachePoint: { ...options.cachePoint } }] };
  }
  return { messages, origins };
}
