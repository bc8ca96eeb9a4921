/**
 * Stage 8 for API "openai-completions": the Chat Completions request body pi-ai 0.73.1 sends from
 * `streamSimple(model, context, { apiKey, reasoning, sessionId, cacheRetention })`
 * (`streamSimpleOpenAICompletions` → `buildParams`), with the provider quirks of `openai-completions-compat.ts`.
 */
import type {
  CacheRetention,
  ModelInfo,
  PayloadRequest,
  PayloadResult,
  ThinkingLevel,
  ToolDefinition,
} from "../llm/types.ts";
import { PayloadError } from "../llm/types.ts";
import { assertNever } from "../result.ts";
import { clampedReasoning, defaultMaxTokens, mappedEffort, type CacheControl } from "./common.ts";
import { resolveCompletionsCompat, type CompletionsCompat } from "./openai-completions-compat.ts";
import { convertCompletionsMessages, type ChatMessage } from "./openai-completions-messages.ts";

type Body = Record<string, unknown>;

interface ChatTool {
  readonly type: "function";
  readonly function: Record<string, unknown>;
  readonly cache_control?: CacheControl;
}

/**
 * pi-ai fills `{VAR}` placeholders in Cloudflare base URLs from the environment and stops when one is unset,
 * before the body is built. A browser has no environment, so such a model cannot produce a body.
 */
function assertBaseUrlResolvable(model: ModelInfo): void {
  if (model.provider !== "cloudflare-workers-ai" && model.provider !== "cloudflare-ai-gateway") return;
  const placeholder = /\{([A-Z_][A-Z0-9_]*)\}/.exec(model.baseUrl)?.[1];
  if (placeholder === undefined) return;
  throw new PayloadError(
    `${placeholder} is required for provider ${model.provider} but is not set: pi-ai fills {${placeholder}} in ` +
      `the base URL "${model.baseUrl}" from the environment and sends nothing without it. ` +
      `Give the model a base URL without placeholders to see its request.`,
  );
}

/** True when some message holds a tool call or a tool result (pi-ai checks the messages before transforming). */
function hasToolHistory(request: PayloadRequest): boolean {
  return request.messages.some(
    (message) =>
      message.role === "toolResult" ||
      (message.role === "assistant" && message.content.some((block) => block.type === "toolCall")),
  );
}

function convertTool(tool: ToolDefinition, compat: CompletionsCompat): ChatTool {
  const strict = compat.supportsStrictMode ? { strict: false } : {};
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters, ...strict },
  };
}

/** The tool list; an empty one when there are no tools but the history uses some (proxies demand the field). */
function convertTools(request: PayloadRequest, compat: CompletionsCompat): readonly ChatTool[] | undefined {
  if (request.tools && request.tools.length > 0) return request.tools.map((tool) => convertTool(tool, compat));
  return hasToolHistory(request) ? [] : undefined;
}

/** The Anthropic-style cache marker, when the format asks for one and caching is on. */
function cacheMarker(compat: CompletionsCompat, retention: CacheRetention): CacheControl | undefined {
  if (compat.cacheControlFormat !== "anthropic" || retention === "none") return undefined;
  return retention === "long" && compat.supportsLongCacheRetention
    ? { type: "ephemeral", ttl: "1h" }
    : { type: "ephemeral" };
}

function hasMarkableText(content: ChatMessage["content"]): boolean {
  if (typeof content === "string") return content.length > 0;
  return Array.isArray(content) && content.some((part) => part.type === "text");
}

/** The message with the marker on its last text (a non-empty string becomes a one-part list). */
function withMarker(message: ChatMessage, marker: CacheControl): ChatMessage {
  const { content } = message;
  if (typeof content === "string") {
    return content.length > 0
      ? { ...message, content: [{ type: "text", text: content, cache_control: marker }] }
      : message;
  }
  if (!Array.isArray(content)) return message;
  const last = content.findLastIndex((part) => part.type === "text");
  return { ...message, content: content.map((part, i) => (i === last ? { ...part, cache_control: marker } : part)) };
}

/** Marks the first system/developer message, the last tool, and the last user/assistant message with text. */
function markForCaching(
  messages: readonly ChatMessage[],
  tools: readonly ChatTool[] | undefined,
  marker: CacheControl,
): { readonly messages: readonly ChatMessage[]; readonly tools: readonly ChatTool[] | undefined } {
  const system = messages.findIndex((m) => m.role === "system" || m.role === "developer");
  const conversation = messages.findLastIndex(
    (m) => (m.role === "user" || m.role === "assistant") && hasMarkableText(m.content),
  );
  const lastTool = (tools?.length ?? 0) - 1;
  return {
    messages: messages.map((m, i) => (i === system || i === conversation ? withMarker(m, marker) : m)),
    tools: tools?.map((tool, i) => (i === lastTool ? { ...tool, cache_control: marker } : tool)),
  };
}

/** `prompt_cache_key` (OpenAI itself, or long retention) and `prompt_cache_retention: "24h"` (long retention). */
function promptCacheFields(
  model: ModelInfo,
  compat: CompletionsCompat,
  retention: CacheRetention,
  sessionId: string | undefined,
): Body {
  const long = retention === "long" && compat.supportsLongCacheRetention;
  const keyed = (model.baseUrl.includes("api.openai.com") && retention !== "none") || long;
  return {
    ...(keyed && sessionId !== undefined ? { prompt_cache_key: sessionId } : {}),
    ...(long ? { prompt_cache_retention: "24h" } : {}),
  };
}

function maxTokensFields(model: ModelInfo, compat: CompletionsCompat): Body {
  const maxTokens = defaultMaxTokens(model);
  return maxTokens ? { [compat.maxTokensField]: maxTokens } : {};
}

/** OpenAI-style `reasoning_effort`; with thinking off, only a model's explicit "off" mapping is sent. */
function openAiThinking(model: ModelInfo, compat: CompletionsCompat, effort: ThinkingLevel | undefined): Body {
  if (!compat.supportsReasoningEffort) return {};
  if (effort) return { reasoning_effort: mappedEffort(model, effort) };
  const off = model.thinkingLevelMap?.off;
  return typeof off === "string" ? { reasoning_effort: off } : {};
}

/** OpenRouter's `reasoning: { effort }`; with thinking off, "none" unless the model maps off to null. */
function openRouterThinking(model: ModelInfo, effort: ThinkingLevel | undefined): Body {
  if (effort) return { reasoning: { effort: mappedEffort(model, effort) } };
  const off = model.thinkingLevelMap?.off;
  return off === null ? {} : { reasoning: { effort: off ?? "none" } };
}

/** The thinking switch in the provider's format; nothing for models without reasoning. */
function thinkingFields(model: ModelInfo, compat: CompletionsCompat, effort: ThinkingLevel | undefined): Body {
  if (!model.reasoning) return {};
  const format = compat.thinkingFormat;
  switch (format) {
    case "zai":
    case "qwen":
      return { enable_thinking: effort !== undefined };
    case "qwen-chat-template":
      return { chat_template_kwargs: { enable_thinking: effort !== undefined, preserve_thinking: true } };
    case "deepseek":
      return effort
        ? { thinking: { type: "enabled" }, reasoning_effort: mappedEffort(model, effort) }
        : { thinking: { type: "disabled" } };
    case "openrouter":
      return openRouterThinking(model, effort);
    case "openai":
      return openAiThinking(model, compat, effort);
    default:
      return assertNever(format, "thinking format");
  }
}

/** Routing preferences from the model's raw `compat`: OpenRouter's `provider`, Vercel AI Gateway's `providerOptions`. */
function routingFields(model: ModelInfo): Body {
  const openRouter = model.compat?.["openRouterRouting"];
  const vercel = model.compat?.["vercelGatewayRouting"] as { only?: unknown; order?: unknown } | undefined;
  const fields: Body = {};
  if (model.baseUrl.includes("openrouter.ai") && openRouter) fields["provider"] = openRouter;
  if (model.baseUrl.includes("ai-gateway.vercel.sh") && vercel && (vercel.only || vercel.order)) {
    const gateway = { ...(vercel.only ? { only: vercel.only } : {}), ...(vercel.order ? { order: vercel.order } : {}) };
    fields["providerOptions"] = { gateway };
  }
  return fields;
}

/**
 * The Chat Completions body pi-ai would send for this model and request, and the source of each message.
 * Throws `PayloadError` where pi-ai stops before building it (a Cloudflare base URL needing environment values).
 */
export function buildOpenAICompletionsPayload(model: ModelInfo, request: PayloadRequest): PayloadResult {
  assertBaseUrlResolvable(model);
  const compat = resolveCompletionsCompat(model);
  const retention = request.cacheRetention ?? "short";
  const effort = clampedReasoning(model, request.reasoning);
  const converted = convertCompletionsMessages(model, request, compat);
  const tools = convertTools(request, compat);
  const marker = cacheMarker(compat, retention);
  const marked = marker ? markForCaching(converted.messages, tools, marker) : { messages: converted.messages, tools };
  const body: Body = {
    model: model.id,
    messages: marked.messages,
    stream: true,
    ...promptCacheFields(model, compat, retention, request.sessionId),
    ...(compat.supportsUsageInStreaming ? { stream_options: { include_usage: true } } : {}),
    ...(compat.supportsStore ? { store: false } : {}),
    ...maxTokensFields(model, compat),
    ...(marked.tools ? { tools: marked.tools } : {}),
    ...(request.tools?.length && compat.zaiToolStream ? { tool_stream: true } : {}),
    ...thinkingFields(model, compat, effort),
    ...routingFields(model),
  };
  return { body, listKey: "messages", origins: converted.origins };
}
