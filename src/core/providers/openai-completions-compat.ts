/**
 * Per-provider quirks of OpenAI-compatible Chat Completions endpoints, as pi-ai 0.73.1 resolves them
 * (`detectCompat` + `getCompat`): detected from the provider name and base URL, then overridden field by field
 * by the model's own `compat` record.
 */
import type { ModelInfo } from "../llm/types.ts";

/** How a provider wants thinking switched on or off; anything pi-ai does not know behaves like "openai". */
export type ThinkingFormat = "openai" | "openrouter" | "deepseek" | "zai" | "qwen" | "qwen-chat-template";

/** The resolved settings that shape a Chat Completions request body (header-only settings are left out). */
export interface CompletionsCompat {
  /** Send `store: false`. */
  readonly supportsStore: boolean;
  /** A reasoning model gets its system prompt as a `developer` message. */
  readonly supportsDeveloperRole: boolean;
  /** Send `reasoning_effort` (thinking format "openai" only). */
  readonly supportsReasoningEffort: boolean;
  /** Send `stream_options: { include_usage: true }`. */
  readonly supportsUsageInStreaming: boolean;
  readonly maxTokensField: "max_completion_tokens" | "max_tokens";
  /** Tool results carry the tool's `name`. */
  readonly requiresToolResultName: boolean;
  /** A user message may not follow tool results directly: a canned assistant reply is put in between. */
  readonly requiresAssistantAfterToolResult: boolean;
  /** Replayed thinking goes into the assistant content as text instead of a side field. */
  readonly requiresThinkingAsText: boolean;
  /** Every replayed assistant message of a reasoning model carries `reasoning_content` (empty if need be). */
  readonly requiresReasoningContentOnAssistantMessages: boolean;
  readonly thinkingFormat: ThinkingFormat;
  /** Send `tool_stream: true` alongside tools (z.ai). */
  readonly zaiToolStream: boolean;
  /** Tool definitions carry `strict: false`. */
  readonly supportsStrictMode: boolean;
  /** "anthropic": mark system prompt, last tool and last text with `cache_control`. */
  readonly cacheControlFormat: "anthropic" | undefined;
  /** Long retention is honoured (`prompt_cache_retention: "24h"`, or `ttl: "1h"` on cache markers). */
  readonly supportsLongCacheRetention: boolean;
}

const THINKING_FORMATS: readonly ThinkingFormat[] = [
  "openai",
  "openrouter",
  "deepseek",
  "zai",
  "qwen",
  "qwen-chat-template",
];

/** Facts about the endpoint that several settings depend on. */
interface Endpoint {
  readonly isZai: boolean;
  readonly isMoonshot: boolean;
  readonly isCloudflareWorkersAi: boolean;
  readonly isCloudflareGateway: boolean;
  readonly isGrok: boolean;
  readonly isDeepSeek: boolean;
  readonly isChutes: boolean;
  readonly isOpenRouter: boolean;
  /** Rejects OpenAI-only fields (`store`, the `developer` role). */
  readonly isNonStandard: boolean;
}

function describeEndpoint(model: ModelInfo): Endpoint {
  const { provider, baseUrl } = model;
  const has = (fragment: string): boolean => baseUrl.includes(fragment);
  const isZai = provider === "zai" || has("api.z.ai");
  const isMoonshot = provider === "moonshotai" || provider === "moonshotai-cn" || has("api.moonshot.");
  const isCloudflareWorkersAi = provider === "cloudflare-workers-ai" || has("api.cloudflare.com");
  const isCloudflareGateway = provider === "cloudflare-ai-gateway" || has("gateway.ai.cloudflare.com");
  const isGrok = provider === "xai" || has("api.x.ai");
  const isDeepSeek = provider === "deepseek" || has("deepseek.com");
  const isChutes = has("chutes.ai");
  const isOpenRouter = provider === "openrouter" || has("openrouter.ai");
  const isNonStandard =
    provider === "cerebras" ||
    has("cerebras.ai") ||
    isGrok ||
    isChutes ||
    has("deepseek.com") ||
    isZai ||
    isMoonshot ||
    provider === "opencode" ||
    has("opencode.ai") ||
    isCloudflareWorkersAi ||
    isCloudflareGateway;
  return {
    isZai,
    isMoonshot,
    isCloudflareWorkersAi,
    isCloudflareGateway,
    isGrok,
    isDeepSeek,
    isChutes,
    isOpenRouter,
    isNonStandard,
  };
}

function detectThinkingFormat(endpoint: Endpoint): ThinkingFormat {
  if (endpoint.isDeepSeek) return "deepseek";
  if (endpoint.isZai) return "zai";
  if (endpoint.isOpenRouter) return "openrouter";
  return "openai";
}

/** pi-ai's `detectCompat`: the settings implied by the provider name and base URL alone. */
export function detectCompletionsCompat(model: ModelInfo): CompletionsCompat {
  const endpoint = describeEndpoint(model);
  const { isMoonshot, isCloudflareGateway, isCloudflareWorkersAi } = endpoint;
  return {
    supportsStore: !endpoint.isNonStandard,
    supportsDeveloperRole: !endpoint.isNonStandard,
    supportsReasoningEffort: !endpoint.isGrok && !endpoint.isZai && !isMoonshot && !isCloudflareGateway,
    supportsUsageInStreaming: true,
    maxTokensField: endpoint.isChutes || isMoonshot || isCloudflareGateway ? "max_tokens" : "max_completion_tokens",
    requiresToolResultName: false,
    requiresAssistantAfterToolResult: false,
    requiresThinkingAsText: false,
    requiresReasoningContentOnAssistantMessages: endpoint.isDeepSeek,
    thinkingFormat: detectThinkingFormat(endpoint),
    zaiToolStream: false,
    supportsStrictMode: !isMoonshot && !isCloudflareGateway,
    cacheControlFormat: model.provider === "openrouter" && model.id.startsWith("anthropic/") ? "anthropic" : undefined,
    supportsLongCacheRetention: !(isCloudflareWorkersAi || isCloudflareGateway),
  };
}

/** Reads a boolean override the way pi-ai's `??` does: absent (undefined/null) keeps the detected value. */
function overrideFlag(overrides: Record<string, unknown>, key: BooleanKey, detected: CompletionsCompat): boolean {
  const value = overrides[key];
  return value === undefined || value === null ? detected[key] : Boolean(value);
}

function pickThinkingFormat(value: unknown, detected: ThinkingFormat): ThinkingFormat {
  if (value === undefined || value === null) return detected;
  return THINKING_FORMATS.find((format) => format === value) ?? "openai";
}

/**
 * pi-ai's `getCompat`: the detected settings with the model's `compat` record laid over them.
 * Unknown enum values collapse to what pi-ai does with them (an unknown thinking format acts as "openai",
 * an unknown max-tokens field as `max_completion_tokens`, an unknown cache format as none).
 */
export function resolveCompletionsCompat(model: ModelInfo): CompletionsCompat {
  const detected = detectCompletionsCompat(model);
  const overrides = model.compat ?? {};
  const pick = (key: BooleanKey): boolean => overrideFlag(overrides, key, detected);
  const maxTokensField = overrides["maxTokensField"] ?? detected.maxTokensField;
  const cacheControlFormat = overrides["cacheControlFormat"] ?? detected.cacheControlFormat;
  return {
    supportsStore: pick("supportsStore"),
    supportsDeveloperRole: pick("supportsDeveloperRole"),
    supportsReasoningEffort: pick("supportsReasoningEffort"),
    supportsUsageInStreaming: pick("supportsUsageInStreaming"),
    maxTokensField: maxTokensField === "max_tokens" ? "max_tokens" : "max_completion_tokens",
    requiresToolResultName: pick("requiresToolResultName"),
    requiresAssistantAfterToolResult: pick("requiresAssistantAfterToolResult"),
    requiresThinkingAsText: pick("requiresThinkingAsText"),
    requiresReasoningContentOnAssistantMessages: pick("requiresReasoningContentOnAssistantMessages"),
    thinkingFormat: pickThinkingFormat(overrides["thinkingFormat"], detected.thinkingFormat),
    zaiToolStream: pick("zaiToolStream"),
    supportsStrictMode: pick("supportsStrictMode"),
    cacheControlFormat: cacheControlFormat === "anthropic" ? "anthropic" : undefined,
    supportsLongCacheRetention: pick("supportsLongCacheRetention"),
  };
}

type BooleanKey = {
  [K in keyof CompletionsCompat]: CompletionsCompat[K] extends boolean ? K : never;
}[keyof CompletionsCompat];
