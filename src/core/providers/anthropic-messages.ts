/**
 * The `messages` list of an Anthropic Messages API body, as pi-ai 0.73.1's `convertMessages` builds it from
 * already-transformed messages — plus, for every body message, the request messages it came from.
 */
import type {
  AssistantMessage,
  ImageContent,
  LlmMessage,
  TextContent,
  ToolResultMessage,
  UserMessage,
} from "../llm/types.ts";
import { PerObject } from "../project/memo.ts";
import type { TransformResult } from "../project/transform.ts";
import { assertNever } from "../result.ts";
import {
  isBlank,
  joinedText,
  originsOf,
  sanitizeSurrogates,
  toolResultRunLength,
  type CacheControl,
} from "./common.ts";

export interface AnthropicTextBlock {
  readonly type: "text";
  readonly text: string;
  readonly cache_control?: CacheControl;
}

export interface AnthropicImageBlock {
  readonly type: "image";
  readonly source: { readonly type: "base64"; readonly media_type: string; readonly data: string };
  readonly cache_control?: CacheControl;
}

export interface AnthropicThinkingBlock {
  readonly type: "thinking";
  readonly thinking: string;
  readonly signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  readonly type: "redacted_thinking";
  /** The opaque payload pi keeps in `thinkingSignature`; sent as is, even when absent. */
  readonly data: string | undefined;
}

export interface AnthropicToolUseBlock {
  readonly type: "tool_use";
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

export interface AnthropicToolResultBlock {
  readonly type: "tool_result";
  readonly tool_use_id: string;
  readonly content: string | readonly (AnthropicTextBlock | AnthropicImageBlock)[];
  readonly is_error: boolean;
  readonly cache_control?: CacheControl;
}

export type AnthropicBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock;

export interface AnthropicMessage {
  readonly role: "user" | "assistant";
  readonly content: string | readonly AnthropicBlock[];
}

/** Body messages and, index for index, the request message indices each one came from. */
export interface AnthropicMessageList {
  readonly messages: readonly AnthropicMessage[];
  readonly origins: readonly (readonly number[])[];
}

/** Text pi-ai puts before a tool result that holds only images. */
const IMAGE_ONLY_RESULT_TEXT = "(see attached image)";

function toImageBlock(image: ImageContent): AnthropicImageBlock {
  return { type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data } };
}

function toTextOrImageBlock(block: TextContent | ImageContent): AnthropicTextBlock | AnthropicImageBlock {
  return block.type === "text" ? { type: "text", text: sanitizeSurrogates(block.text) } : toImageBlock(block);
}

/** A user turn; undefined when nothing but blank text is left (pi-ai skips it). */
function toUserMessage(message: UserMessage): AnthropicMessage | undefined {
  if (typeof message.content === "string") {
    return isBlank(message.content) ? undefined : { role: "user", content: sanitizeSurrogates(message.content) };
  }
  const blocks = message.content.map(toTextOrImageBlock).filter((b) => b.type !== "text" || !isBlank(b.text));
  return blocks.length === 0 ? undefined : { role: "user", content: blocks };
}

/** One assistant content block; undefined for blocks pi-ai leaves out (blank text or thinking). */
function toAssistantBlock(block: AssistantMessage["content"][number]): AnthropicBlock | undefined {
  switch (block.type) {
    case "text":
      return isBlank(block.text) ? undefined : { type: "text", text: sanitizeSurrogates(block.text) };
    case "thinking":
      if (block.redacted) return { type: "redacted_thinking", data: block.thinkingSignature };
      if (isBlank(block.thinking)) return undefined;
      // Without a signature the API would reject the block, so pi-ai sends the reasoning as plain text.
      if (!block.thinkingSignature || isBlank(block.thinkingSignature)) {
        return { type: "text", text: sanitizeSurrogates(block.thinking) };
      }
      return { type: "thinking", thinking: sanitizeSurrogates(block.thinking), signature: block.thinkingSignature };
    case "toolCall":
      return { type: "tool_use", id: block.id, name: block.name, input: block.arguments ?? {} };
    default:
      return assertNever(block, "assistant content block");
  }
}

/** An assistant turn; undefined when no block survives (pi-ai skips it). */
function toAssistantMessage(message: AssistantMessage): AnthropicMessage | undefined {
  const blocks = message.content.map(toAssistantBlock).filter((b): b is AnthropicBlock => b !== undefined);
  return blocks.length === 0 ? undefined : { role: "assistant", content: blocks };
}

/** Text-only results collapse to one newline-joined string; with images they stay a block list. */
function toToolResultContent(content: ToolResultMessage["content"]): AnthropicToolResultBlock["content"] {
  if (!content.some((block) => block.type === "image")) {
    return sanitizeSurrogates(joinedText(content));
  }
  const blocks = content.map(toTextOrImageBlock);
  const hasText = blocks.some((block) => block.type === "text");
  return hasText ? blocks : [{ type: "text", text: IMAGE_ONLY_RESULT_TEXT }, ...blocks];
}

function toToolResultBlock(message: ToolResultMessage): AnthropicToolResultBlock {
  return {
    type: "tool_result",
    tool_use_id: message.toolCallId,
    content: toToolResultContent(message.content),
    is_error: message.isError,
  };
}

/** Marks the last block of a final user message as a cache breakpoint (a string becomes one text block). */
function withCacheBreakpoint(message: AnthropicMessage, cacheControl: CacheControl): AnthropicMessage {
  if (message.role !== "user") return message;
  if (typeof message.content === "string") {
    return { ...message, content: [{ type: "text", text: message.content, cache_control: cacheControl }] };
  }
  const last = message.content.at(-1);
  if (!last || (last.type !== "text" && last.type !== "image" && last.type !== "tool_result")) return message;
  return { ...message, content: [...message.content.slice(0, -1), { ...last, cache_control: cacheControl }] };
}

/**
 * pi-ai's `convertMessages` after `transformMessages`: drops blank turns, merges consecutive tool results into
 * one user message, and puts the cache breakpoint on the last message when it is a user message.
 */
export function toAnthropicMessages(
  transformed: TransformResult,
  cacheControl: CacheControl | undefined,
): AnthropicMessageList {
  const source = transformed.messages;
  const messages: AnthropicMessage[] = [];
  const origins: (readonly number[])[] = [];
  for (let i = 0; i < source.length;) {
    const message = source[i] as LlmMessage;
    const count = message.role === "toolResult" ? toolResultRunLength(source, i) : 1;
    const converted = toAnthropicMessage(source, i, count);
    if (converted) {
      messages.push(converted);
      origins.push(originsOf(transformed.from, i, count));
    }
    i += count;
  }
  const last = messages.at(-1);
  if (cacheControl && last) messages[messages.length - 1] = withCacheBreakpoint(last, cacheControl);
  return { messages, origins };
}

/*
 * What a message becomes, kept per message object: every payload along a session meets the same messages again
 * (each leaf repeats its path; the stages before keep an unchanged message the same object), so its blocks are
 * made, and their texts scanned, once. Nothing here depends on the target model. Shared; never mutate them.
 */
const madeUser = new PerObject<UserMessage, AnthropicMessage | undefined>();
const madeAssistant = new PerObject<AssistantMessage, AnthropicMessage | undefined>();
const madeResults = new PerObject<ToolResultMessage, AnthropicToolResultBlock>();

/*
 * A run of tool results is one user message; the same results make the same message object (appended one block
 * at a time to the run before), so the token counter, which remembers its counts per payload item, finds it again.
 */
const runsStarting = new PerObject<AnthropicToolResultBlock, AnthropicMessage>();
const runsExtending = new PerObject<AnthropicMessage, AnthropicMessage>();

function resultsMessage(source: readonly LlmMessage[], start: number, count: number): AnthropicMessage {
  let message: AnthropicMessage | undefined;
  for (let i = start; i < start + count; i += 1) {
    const m = source[i] as ToolResultMessage;
    const block = madeResults.get(m, undefined, () => toToolResultBlock(m));
    const run: AnthropicMessage | undefined = message;
    message =
      run === undefined
        ? runsStarting.get(block, undefined, () => ({ role: "user", content: [block] }))
        : runsExtending.get(run, block, () => ({
            role: "user",
            content: [...(run.content as readonly AnthropicBlock[]), block],
          }));
  }
  return message as AnthropicMessage;
}

/** One body message from the user or assistant message at `start`, or the run of `count` tool results there. */
function toAnthropicMessage(source: readonly LlmMessage[], start: number, count: number): AnthropicMessage | undefined {
  const first = source[start] as LlmMessage;
  switch (first.role) {
    case "user":
      return madeUser.get(first, undefined, () => toUserMessage(first));
    case "assistant":
      return madeAssistant.get(first, undefined, () => toAssistantMessage(first));
    case "toolResult":
      return resultsMessage(source, start, count);
    default:
      return assertNever(first, "message role");
  }
}
