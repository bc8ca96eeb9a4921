/**
 * Stage 7: pi-ai's `transformMessages` — what a provider builder does to the converted messages before it maps
 * them to a request body: images downgraded for text-only models, thinking from other models turned into text,
 * tool-call ids normalised per API, errored/aborted turns dropped, synthetic results for orphaned tool calls.
 * Unlike pi-ai, it records where every output message came from and why any input message was dropped.
 */
import type {
  AssistantMessage,
  ImageContent,
  LlmMessage,
  ModelInfo,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  TransformOptions,
} from "../llm/types.ts";
import { PerObject, TARGETS_KEPT } from "./memo.ts";

export type NormalizeToolCallId = (id: string, model: ModelInfo, source: AssistantMessage) => string;

export type { TransformOptions };

export type TransformDropReason = "errored turn" | "aborted turn";

export interface TransformResult {
  readonly messages: readonly LlmMessage[];
  /** For each output message, the input index it came from; undefined for a synthetic tool result. */
  readonly from: readonly (number | undefined)[];
  readonly dropped: readonly { readonly index: number; readonly reason: TransformDropReason }[];
  /** Tool calls that got a synthetic result: output index of that result → the tool call id. */
  readonly synthesized: readonly { readonly outputIndex: number; readonly toolCallId: string }[];
}

const USER_IMAGE_PLACEHOLDER = "(image omitted: model does not support images)";
const TOOL_IMAGE_PLACEHOLDER = "(tool image omitted: model does not support images)";
export const SYNTHETIC_RESULT_TEXT = "No result provided";

function replaceImages(
  content: readonly (TextContent | ImageContent)[],
  placeholder: string,
): (TextContent | ImageContent)[] {
  const out: (TextContent | ImageContent)[] = [];
  let previousWasPlaceholder = false;
  for (const block of content) {
    if (block.type === "image") {
      if (!previousWasPlaceholder) out.push({ type: "text", text: placeholder });
      previousWasPlaceholder = true;
      continue;
    }
    out.push(block);
    previousWasPlaceholder = (block as TextContent).text === placeholder;
  }
  return out;
}

/*
 * Every payload built along a session meets the same message and block objects again (each leaf repeats its
 * path, each rule toggle re-projects it). What this stage makes of one of them is remembered per object, so an
 * unchanged message comes out as the very object it came out as last time: later stages (payload items, token
 * counts) can then remember their own work per object too. Nothing here is ever mutated.
 */

/** A message with its images downgraded (for text-only models): depends on the message alone. */
const downgraded = new WeakMap<LlmMessage, LlmMessage>();

function downgradeImages(message: LlmMessage, model: ModelInfo): LlmMessage {
  if (model.input.includes("image")) return message;
  if (message.role !== "toolResult" && !(message.role === "user" && Array.isArray(message.content))) return message;
  let out = downgraded.get(message);
  if (out === undefined) {
    out =
      message.role === "toolResult"
        ? { ...message, content: replaceImages(message.content, TOOL_IMAGE_PLACEHOLDER) }
        : {
            ...message,
            content: replaceImages(message.content as readonly (TextContent | ImageContent)[], USER_IMAGE_PLACEHOLDER),
          };
    downgraded.set(message, out);
  }
  return out;
}

function isSameModel(message: AssistantMessage, model: ModelInfo): boolean {
  return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

/** Another model's text block without its signature, and its thinking as text: one object per block. */
const plainText = new WeakMap<TextContent | ThinkingContent, TextContent>();

function asPlainText(block: TextContent | ThinkingContent): TextContent {
  let out = plainText.get(block);
  if (out === undefined) {
    out = { type: "text", text: block.type === "text" ? block.text : block.thinking };
    plainText.set(block, out);
  }
  return out;
}

/** Another model's tool call, as rewritten (its id normalised, its thought signature dropped), per id. */
const rewrittenCalls = new PerObject<ToolCall, ToolCall, string>(TARGETS_KEPT);

function rewriteCall(block: ToolCall, id: string): ToolCall {
  return rewrittenCalls.get(block, id, () => {
    let call: ToolCall = block;
    if (block.thoughtSignature) {
      const { thoughtSignature: _dropped, ...rest } = block;
      call = rest;
    }
    return id === block.id ? call : { ...call, id };
  });
}

type Content = AssistantMessage["content"];

const sameBlocks = (a: Content, b: Content): boolean => a.length === b.length && a.every((block, i) => block === b[i]);

/** An assistant message as rewritten, per content it was rewritten to (compared block by block). */
const rewrittenAssistants = new PerObject<AssistantMessage, AssistantMessage, Content>(TARGETS_KEPT, sameBlocks);

function withContent(message: AssistantMessage, content: Content): AssistantMessage {
  if (sameBlocks(content, message.content)) return message;
  return rewrittenAssistants.get(message, content, () => ({ ...message, content }));
}

/** Thinking that pi-ai drops even from the model's own turns: not redacted, unsigned, and blank. */
const isEmptyThinking = (block: AssistantMessage["content"][number]): boolean =>
  block.type === "thinking" &&
  !block.redacted &&
  !block.thinkingSignature &&
  (!block.thinking || block.thinking.trim() === "");

/** The target a message is transformed for: what, besides the message, its transform depends on. */
interface Target {
  readonly model: ModelInfo;
  readonly normalize: NormalizeToolCallId | undefined;
  readonly thinkingAsText: boolean;
}

const sameTarget = (a: Target, b: Target): boolean =>
  a.model === b.model && a.normalize === b.normalize && a.thinkingAsText === b.thinkingAsText;

/** What `transformAssistant` made of a message for one target, with the tool-call ids it renamed on the way. */
interface Transformed {
  readonly message: AssistantMessage;
  readonly renamed: readonly (readonly [string, string])[];
}

/**
 * Another model's turn as transformed, per message and target: each request of a cache series meets every earlier
 * turn again. Kept per normaliser object; a stateful one (Mistral's) is made afresh for every request, so it
 * never finds what another request kept, and within one request it answers an id the same way each time.
 */
const transformed = new PerObject<AssistantMessage, Transformed, Target>(TARGETS_KEPT, sameTarget);

function transformAssistant(
  message: AssistantMessage,
  model: ModelInfo,
  idMap: Map<string, string>,
  normalize: NormalizeToolCallId | undefined,
  thinkingAsText: boolean,
): AssistantMessage {
  const same = isSameModel(message, model);
  // The common case, the target model's own turn: only empty unsigned thinking goes, usually nothing.
  if (same && !message.content.some(isEmptyThinking)) return message;
  const made = transformed.get(message, { model, normalize, thinkingAsText }, () => {
    const renamed: [string, string][] = [];
    return { message: transformContent(message, model, same, renamed, normalize, thinkingAsText), renamed };
  });
  for (let k = 0; k < made.renamed.length; k += 1) {
    const [id, to] = made.renamed[k] as readonly [string, string];
    idMap.set(id, to);
  }
  return made.message;
}

function transformContent(
  message: AssistantMessage,
  model: ModelInfo,
  same: boolean,
  renamed: [string, string][],
  normalize: NormalizeToolCallId | undefined,
  thinkingAsText: boolean,
): AssistantMessage {
  const content: AssistantMessage["content"][number][] = [];
  for (const block of message.content) {
    switch (block.type) {
      case "thinking":
        if (block.redacted) {
          if (same) content.push(block);
        } else if (same && block.thinkingSignature) content.push(block);
        else if (!block.thinking || block.thinking.trim() === "") continue;
        else if (same) content.push(block);
        else if (thinkingAsText) content.push(asPlainText(block));
        break;
      case "text":
        content.push(same ? block : asPlainText(block));
        break;
      case "toolCall": {
        if (same) {
          content.push(block);
          break;
        }
        let id = block.id;
        if (normalize) {
          id = normalize(block.id, model, message);
          if (id !== block.id) renamed.push([block.id, id]);
        }
        content.push(block.thoughtSignature || id !== block.id ? rewriteCall(block, id) : block);
        break;
      }
      default:
        content.push(block);
    }
  }
  return withContent(message, content);
}

/** A tool result renamed to its call's normalised id, per id. */
const renamedResults = new PerObject<ToolResultMessage, ToolResultMessage, string>(TARGETS_KEPT);

function renameResult(message: ToolResultMessage, id: string): ToolResultMessage {
  return renamedResults.get(message, id, () => ({ ...message, toolCallId: id }));
}

function mapMessage(
  message: LlmMessage,
  model: ModelInfo,
  idMap: Map<string, string>,
  normalize: NormalizeToolCallId | undefined,
  thinkingAsText: boolean,
): LlmMessage {
  const downgraded = downgradeImages(message, model);
  switch (downgraded.role) {
    case "user":
      return downgraded;
    case "toolResult": {
      const id = idMap.get(downgraded.toolCallId);
      return id && id !== downgraded.toolCallId ? renameResult(downgraded, id) : downgraded;
    }
    case "assistant":
      return transformAssistant(downgraded, model, idMap, normalize, thinkingAsText);
    default:
      return downgraded;
  }
}

/** Why pi-ai's transform drops this message (an errored or aborted assistant turn), if it does. */
export function failedTurnReason(message: LlmMessage): TransformDropReason | undefined {
  if (message.role !== "assistant") return undefined;
  if (message.stopReason === "error") return "errored turn";
  if (message.stopReason === "aborted") return "aborted turn";
  return undefined;
}

/** pi-ai's `transformMessages(messages, model, normalizeToolCallId)` with provenance. */
export function transformForModel(
  messages: readonly LlmMessage[],
  model: ModelInfo,
  normalize?: NormalizeToolCallId,
  options: TransformOptions = {},
): TransformResult {
  const dropFailed = options.dropFailedTurns ?? true;
  const synthesize = options.synthesizeMissingResults ?? true;
  const thinkingAsText = (options.crossModelThinking ?? "text") === "text";
  const idMap = new Map<string, string>();
  const mapped = messages.map((m) => mapMessage(m, model, idMap, normalize, thinkingAsText));

  const out: LlmMessage[] = [];
  const from: (number | undefined)[] = [];
  const dropped: { index: number; reason: TransformDropReason }[] = [];
  const synthesized: { outputIndex: number; toolCallId: string }[] = [];
  let pending: readonly ToolCall[] = [];
  const answered = new Set<string>();

  const flushPending = (): void => {
    // Most flushes find nothing waiting (every user message and assistant turn flushes); `answered` is only read
    // while calls wait, and starts afresh with them.
    if (pending.length === 0) return;
    if (synthesize) {
      for (const call of pending) {
        if (answered.has(call.id)) continue;
        const result: ToolResultMessage = {
          role: "toolResult",
          toolCallId: call.id,
          toolName: call.name,
          content: [{ type: "text", text: SYNTHETIC_RESULT_TEXT }],
          isError: true,
          timestamp: 0,
        };
        synthesized.push({ outputIndex: out.length, toolCallId: call.id });
        out.push(result);
        from.push(undefined);
      }
    }
    pending = [];
    answered.clear();
  };

  mapped.forEach((message, index) => {
    if (message.role === "assistant") {
      flushPending();
      const failed = dropFailed ? failedTurnReason(message) : undefined;
      if (failed) {
        dropped.push({ index, reason: failed });
        return;
      }
      const calls = message.content.filter((b): b is ToolCall => b.type === "toolCall");
      if (calls.length > 0) {
        pending = calls;
        answered.clear();
      }
    } else if (message.role === "toolResult") {
      answered.add(message.toolCallId);
    } else if (message.role === "user") {
      flushPending();
    }
    out.push(message);
    from.push(index);
  });
  flushPending();
  return { messages: out, from, dropped, synthesized };
}
