/**
 * The provider-neutral message model that pi-ai works with (mirrors `@mariozechner/pi-ai` 0.73.1 types).
 * Everything between `toLlmMessages` and the payload builders speaks these types.
 */

export interface TextContent {
  readonly type: "text";
  readonly text: string;
  readonly textSignature?: string;
}

export interface ThinkingContent {
  readonly type: "thinking";
  readonly thinking: string;
  readonly thinkingSignature?: string;
  readonly redacted?: boolean;
}

export interface ImageContent {
  readonly type: "image";
  readonly data: string;
  readonly mimeType: string;
}

export interface ToolCall {
  readonly type: "toolCall";
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly thoughtSignature?: string;
}

export interface Usage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly totalTokens: number;
  readonly cost?: {
    readonly input: number;
    readonly output: number;
    readonly cacheRead: number;
    readonly cacheWrite: number;
    readonly total: number;
  };
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export interface UserMessage {
  readonly role: "user";
  readonly content: string | readonly (TextContent | ImageContent)[];
  readonly timestamp: number;
}

export interface AssistantMessage {
  readonly role: "assistant";
  readonly content: readonly (TextContent | ThinkingContent | ToolCall)[];
  readonly api: string;
  readonly provider: string;
  readonly model: string;
  readonly usage?: Usage;
  readonly stopReason: StopReason;
  readonly errorMessage?: string;
  readonly timestamp: number;
}

export interface ToolResultMessage {
  readonly role: "toolResult";
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: readonly (TextContent | ImageContent)[];
  readonly details?: unknown;
  readonly isError: boolean;
  readonly timestamp: number;
}

/** A message a provider understands: what `convertToLlm` produces. */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage;

export type ThinkingLevel = "minimal" | "low" | "medium" | "high" | "xhigh";
export type SessionThinkingLevel = "off" | ThinkingLevel;
export type CacheRetention = "none" | "short" | "long";

/** A tool definition as pi-ai takes it: `parameters` is a JSON schema. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

/** A model as in pi-ai's registry (`getModels()`), kept as plain data. */
export interface ModelInfo {
  readonly id: string;
  readonly name: string;
  readonly api: string;
  readonly provider: string;
  readonly baseUrl: string;
  readonly reasoning: boolean;
  readonly thinkingLevelMap?: Partial<Record<SessionThinkingLevel, string | null>>;
  readonly input: readonly ("text" | "image")[];
  readonly cost: {
    readonly input: number;
    readonly output: number;
    readonly cacheRead: number;
    readonly cacheWrite: number;
  };
  readonly contextWindow: number;
  readonly maxTokens: number;
  readonly headers?: Record<string, string>;
  readonly compat?: Record<string, unknown>;
}

/** Everything a payload builder needs besides the model: pi-ai's `Context` plus the `streamSimple` options pi sets. */
export interface PayloadRequest {
  readonly systemPrompt?: string;
  /** Messages after `convertToLlm`, not yet transformed: each builder runs `transformForModel` as pi-ai does. */
  readonly messages: readonly LlmMessage[];
  readonly tools?: readonly ToolDefinition[];
  /** Thinking level; undefined when the session's level is "off". */
  readonly reasoning?: ThinkingLevel;
  /** pi passes the session header id. */
  readonly sessionId?: string;
  /** undefined = pi-ai's default. */
  readonly cacheRetention?: CacheRetention;
  /** What-if switches for pi-ai's `transformMessages`; undefined = exactly as pi-ai. */
  readonly transform?: TransformOptions;
}

/** pi-ai's `transformMessages` always does all of these; each can be switched off to show its effect. */
export interface TransformOptions {
  /** Assistant messages with stopReason error/aborted are left out (pi-ai: always). */
  readonly dropFailedTurns?: boolean;
  /** Tool calls without a result get a "No result provided" error result (pi-ai: always). */
  readonly synthesizeMissingResults?: boolean;
  /** Thinking from another model is sent as plain text (pi-ai: "text"), or left out ("drop"). */
  readonly crossModelThinking?: "text" | "drop";
}

/**
 * A provider request body plus where each item of its main list came from.
 * `origins[i]` lists the indices (into `PayloadRequest.messages`) that produced `body[listKey][i]`;
 * an empty list means the item has no source message (a system prompt, a synthetic tool result, …).
 */
export interface PayloadResult {
  readonly body: Record<string, unknown>;
  readonly listKey: "messages" | "input" | "contents";
  readonly origins: readonly (readonly number[])[];
}

/** pi-ai would refuse to build this request (it throws before calling `onPayload`). */
export class PayloadError extends Error {
  override readonly name = "PayloadError";
}
