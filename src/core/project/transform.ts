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
  ToolCall,
  ToolResultMessage,
  TransformOptions,
} from "../llm/types.ts";

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

function downgradeImages(message: LlmMessage, model: ModelInfo): LlmMessage {
  if (model.input.includes("image")) return message;
  if (message.role === "user" && Array.isArray(message.content)) {
    return { ...message, content: replaceImages(message.content, USER_IMAGE_PLACEHOLDER) };
  }
  if (message.role === "toolResult") {
    return { ...message, content: replaceImages(message.content, TOOL_IMAGE_PLACEHOLDER) };
  }
  return message;
}

function isSameModel(message: AssistantMessage, model: ModelInfo): boolean {
  return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

function transformAssistant(
  message: AssistantMessage,
  model: ModelInfo,
  idMap: Map<string, string>,
  normalize: NormalizeToolCallId | undefined,
  thinkingAsText: boolean,
): AssistantMessage {
  const same = isSameModel(message, model);
  const content = message.content.flatMap((block): AssistantMessage["content"][number][] => {
    switch (block.type) {
      case "thinking":
        if (block.redacted) return same ? [block] : [];
        if (same && block.thinkingSignature) return [block];
        if (!block.thinking || block.thinking.trim() === "") return [];
        if (same) return [block];
        return thinkingAsText ? [{ type: "text", text: block.thinking }] : [];
      case "text":
        return same ? [block] : [{ type: "text", text: block.text }];
      case "toolCall": {
        let call: ToolCall = block;
        if (!same && call.thoughtSignature) {
          const { thoughtSignature: _dropped, ...rest } = call;
          call = rest;
        }
        if (!same && normalize) {
          const id = normalize(call.id, model, message);
          if (id !== call.id) {
            idMap.set(call.id, id);
            call = { ...call, id };
          }
        }
        return [call];
      }
      default:
        return [block];
    }
  });
  return { ...message, content };
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
      return id && id !== downgraded.toolCallId ? { ...downgraded, toolCallId: id } : downgraded;
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
  let answered = new Set<string>();

  const flushPending = (): void => {
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
    answered = new Set();
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
        answered = new Set();
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
