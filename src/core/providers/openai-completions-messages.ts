/**
 * pi-ai 0.73.1's `convertMessages` for Chat Completions: transformed pi messages → `messages[]` of the request
 * body, with the provider quirks of `CompletionsCompat` applied and the source of every entry recorded.
 */
import {
  PayloadError,
  type AssistantMessage,
  type ImageContent,
  type LlmMessage,
  type ModelInfo,
  type PayloadRequest,
  type ThinkingContent,
  type ToolCall,
  type ToolResultMessage,
  type UserMessage,
} from "../llm/types.ts";
import { parseJsonShallow } from "../nesting.ts";
import { transformForModel } from "../project/transform.ts";
import { assertNever } from "../result.ts";
import {
  dataUrlHolder,
  imageDataUrl,
  isImage,
  isText,
  isThinking,
  isToolCall,
  joinedText,
  sanitizeSurrogates,
  type CacheControl,
  argumentsText,
} from "./common.ts";
import type { CompletionsCompat } from "./openai-completions-compat.ts";

export type ChatContentPart =
  | { readonly type: "text"; readonly text: string; readonly cache_control?: CacheControl }
  | { readonly type: "image_url"; readonly image_url: { readonly url: string } };

/** One entry of the body's `messages`; assistant entries may carry extra fields (`tool_calls`, `reasoning_content`, …). */
export interface ChatMessage {
  readonly role: "system" | "developer" | "user" | "assistant" | "tool";
  readonly content: string | readonly ChatContentPart[] | null;
  readonly [field: string]: unknown;
}

export interface ConvertedMessages {
  readonly messages: readonly ChatMessage[];
  /** `origins[i]`: indices into `PayloadRequest.messages` that produced `messages[i]`. */
  readonly origins: readonly (readonly number[])[];
}

/** What pi-ai puts between tool results and a following user message when a provider needs an assistant turn there. */
const BRIDGE_MESSAGE: ChatMessage = { role: "assistant", content: "I have processed the tool results." };
const TOOL_IMAGES_INTRO = "Attached image(s) from tool result:";
const IMAGE_ONLY_RESULT = "(see attached image)";
const OPENAI_TOOL_CALL_ID_LIMIT = 40;

/**
 * The tool-call id normaliser pi-ai hands to `transformMessages` for this API: an OpenAI Responses id
 * `call|item` keeps only its sanitised, 40-character call part; provider "openai" cuts ids to 40 characters.
 */
export function normalizeCompletionsToolCallId(id: string, model: ModelInfo): string {
  if (id.includes("|")) {
    const callId = id.split("|")[0] ?? "";
    return callId.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, OPENAI_TOOL_CALL_ID_LIMIT);
  }
  if (model.provider === "openai") return id.slice(0, OPENAI_TOOL_CALL_ID_LIMIT);
  return id;
}

function imagePart(image: ImageContent): ChatContentPart {
  return { type: "image_url", image_url: dataUrlHolder({ url: imageDataUrl(image) }, "url", image) };
}

/** A user message; an empty content list yields nothing (pi-ai skips it). */
function convertUser(message: UserMessage): ChatMessage | undefined {
  if (typeof message.content === "string") return { role: "user", content: sanitizeSurrogates(message.content) };
  const parts = message.content.map((block) =>
    isText(block) ? ({ type: "text", text: sanitizeSurrogates(block.text) } as const) : imagePart(block),
  );
  return parts.length > 0 ? { role: "user", content: parts } : undefined;
}

/** The assistant `content`: visible text as one string, or (thinking as text) a list led by the thinking. */
function assistantContent(
  texts: readonly string[],
  thinking: readonly ThinkingContent[],
  compat: CompletionsCompat,
): ChatMessage["content"] {
  if (thinking.length > 0 && compat.requiresThinkingAsText) {
    const thought = thinking.map((block) => sanitizeSurrogates(block.thinking)).join("\n\n");
    return [{ type: "text", text: thought }, ...texts.map((text) => ({ type: "text", text }) as const)];
  }
  const joined = texts.join("");
  if (joined.length > 0) return joined;
  return compat.requiresAssistantAfterToolResult ? "" : null;
}

function toolCallField(call: ToolCall): unknown {
  return { id: call.id, type: "function", function: { name: call.name, arguments: argumentsText(call.arguments) } };
}

/** OpenRouter's encrypted reasoning travels in tool calls' `thoughtSignature` as JSON; unparsable ones are dropped. */
function reasoningDetails(calls: readonly ToolCall[]): unknown[] {
  return calls
    .filter((call) => call.thoughtSignature)
    .map((call) => {
      try {
        return parseJsonShallow(call.thoughtSignature ?? "");
      } catch (error) {
        // pi-ai drops a signature that is not JSON, but would send one nested too deep, and fail writing it.
        if (error instanceof RangeError)
          throw new PayloadError(`a tool call's thought signature cannot be sent: ${error.message}`);
        return null;
      }
    })
    .filter(Boolean);
}

function hasContent(content: unknown): boolean {
  return (typeof content === "string" || Array.isArray(content)) && content.length > 0;
}

/**
 * An assistant message, or nothing when it would carry neither content nor tool calls.
 * Thinking replays under the field its first block's signature names (`reasoning_content`, `reasoning`, …),
 * assigned in pi-ai's order so that even odd signature names end up where pi-ai puts them.
 */
function convertAssistant(
  message: AssistantMessage,
  model: ModelInfo,
  compat: CompletionsCompat,
): ChatMessage | undefined {
  const texts = message.content
    .filter(isText)
    .filter((b) => b.text.trim().length > 0)
    .map((b) => sanitizeSurrogates(b.text));
  const thinking = message.content.filter(isThinking).filter((b) => b.thinking.trim().length > 0);
  const fields: Record<string, unknown> = { role: "assistant", content: assistantContent(texts, thinking, compat) };
  const signature = thinking[0]?.thinkingSignature;
  if (!compat.requiresThinkingAsText && signature) fields[signature] = thinking.map((b) => b.thinking).join("\n");
  const calls = message.content.filter(isToolCall);
  if (calls.length > 0) {
    fields["tool_calls"] = calls.map(toolCallField);
    const details = reasoningDetails(calls);
    if (details.length > 0) fields["reasoning_details"] = details;
  }
  if (
    compat.requiresReasoningContentOnAssistantMessages &&
    model.reasoning &&
    fields["reasoning_content"] === undefined
  ) {
    fields["reasoning_content"] = "";
  }
  if (!hasContent(fields["content"]) && !fields["tool_calls"]) return undefined;
  return fields as unknown as ChatMessage;
}

function convertToolResult(message: ToolResultMessage, compat: CompletionsCompat): ChatMessage {
  const text = joinedText(message.content);
  return {
    role: "tool",
    content: sanitizeSurrogates(text.length > 0 ? text : IMAGE_ONLY_RESULT),
    tool_call_id: message.toolCallId,
    ...(compat.requiresToolResultName && message.toolName ? { name: message.toolName } : {}),
  };
}

/** A transformed message with the request indices it came from. */
interface Sourced<T> {
  readonly message: T;
  readonly origin: readonly number[];
}

/** What one step of the conversion adds, and the role pi-ai remembers afterwards (undefined: unchanged). */
interface Step {
  readonly items: readonly Sourced<ChatMessage>[];
  readonly lastRole?: LlmMessage["role"];
}

/**
 * A run of consecutive tool results: one `tool` message each, then (vision models only) their images in a
 * single user message, because Chat Completions tool messages cannot hold images.
 */
function convertToolResultRun(
  run: readonly Sourced<ToolResultMessage>[],
  model: ModelInfo,
  compat: CompletionsCompat,
): Step {
  const items = run.map(({ message, origin }) => ({ message: convertToolResult(message, compat), origin }));
  const withImages = model.input.includes("image") ? run.filter(({ message }) => message.content.some(isImage)) : [];
  if (withImages.length === 0) return { items, lastRole: "toolResult" };
  const images = withImages.flatMap(({ message }) => message.content.filter(isImage).map(imagePart));
  const imageMessage: ChatMessage = { role: "user", content: [{ type: "text", text: TOOL_IMAGES_INTRO }, ...images] };
  const bridge = compat.requiresAssistantAfterToolResult ? [{ message: BRIDGE_MESSAGE, origin: [] }] : [];
  return {
    items: [...items, ...bridge, { message: imageMessage, origin: withImages.flatMap((r) => r.origin) }],
    lastRole: "user",
  };
}

function single(message: ChatMessage | undefined, origin: readonly number[], role: LlmMessage["role"]): Step {
  return message ? { items: [{ message, origin }], lastRole: role } : { items: [] };
}

/** A user or assistant message on its own, or a run of consecutive tool results (converted together). */
type Group =
  | { readonly kind: "user"; readonly entry: Sourced<UserMessage> }
  | { readonly kind: "assistant"; readonly entry: Sourced<AssistantMessage> }
  | { readonly kind: "toolResults"; readonly run: readonly Sourced<ToolResultMessage>[] };

function groupMessages(messages: readonly Sourced<LlmMessage>[]): readonly Group[] {
  const groups: Group[] = [];
  for (const { message, origin } of messages) {
    const last = groups[groups.length - 1];
    switch (message.role) {
      case "user":
        groups.push({ kind: "user", entry: { message, origin } });
        break;
      case "assistant":
        groups.push({ kind: "assistant", entry: { message, origin } });
        break;
      case "toolResult":
        if (last?.kind === "toolResults") {
          groups[groups.length - 1] = { kind: "toolResults", run: [...last.run, { message, origin }] };
        } else {
          groups.push({ kind: "toolResults", run: [{ message, origin }] });
        }
        break;
      default:
        return assertNever(message, "message");
    }
  }
  return groups;
}

function convertGroup(group: Group, model: ModelInfo, compat: CompletionsCompat): Step {
  switch (group.kind) {
    case "user":
      return single(convertUser(group.entry.message), group.entry.origin, "user");
    case "assistant":
      return single(convertAssistant(group.entry.message, model, compat), group.entry.origin, "assistant");
    case "toolResults":
      return convertToolResultRun(group.run, model, compat);
    default:
      return assertNever(group, "message group");
  }
}

function systemMessage(prompt: string, model: ModelInfo, compat: CompletionsCompat): ChatMessage {
  const role = model.reasoning && compat.supportsDeveloperRole ? "developer" : "system";
  return { role, content: sanitizeSurrogates(prompt) };
}

/**
 * The body's `messages`: the system prompt (as `developer` for reasoning models where supported), then the
 * request messages after `transformForModel`, converted one by one; see `CompletionsCompat` for the quirks.
 */
export function convertCompletionsMessages(
  model: ModelInfo,
  request: PayloadRequest,
  compat: CompletionsCompat,
): ConvertedMessages {
  const transformed = transformForModel(request.messages, model, normalizeCompletionsToolCallId, request.transform);
  const sourced = transformed.messages.map((message, i) => {
    const from = transformed.from[i];
    return { message, origin: from === undefined ? [] : [from] };
  });
  const items: Sourced<ChatMessage>[] = request.systemPrompt
    ? [{ message: systemMessage(request.systemPrompt, model, compat), origin: [] }]
    : [];
  let lastRole: LlmMessage["role"] | undefined;
  for (const group of groupMessages(sourced)) {
    const needsBridge = compat.requiresAssistantAfterToolResult && lastRole === "toolResult" && group.kind === "user";
    if (needsBridge) items.push({ message: BRIDGE_MESSAGE, origin: [] });
    const step = convertGroup(group, model, compat);
    for (const item of step.items) items.push(item);
    lastRole = step.lastRole ?? lastRole;
  }
  return { messages: items.map((item) => item.message), origins: items.map((item) => item.origin) };
}
