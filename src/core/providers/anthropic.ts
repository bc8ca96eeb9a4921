/**
 * Stage 8 for API "anthropic-messages": the request body pi-ai 0.73.1 hands to `onPayload` when pi calls
 * `streamSimple(model, context, { apiKey, reasoning, sessionId, cacheRetention })` with a plain API key.
 * Same fields, same defaults, no SDK: only the body is built, never a client or a request.
 */
import type {
  CacheRetention,
  ModelInfo,
  PayloadRequest,
  PayloadResult,
  ThinkingLevel,
  ToolDefinition,
} from "../llm/types.ts";
import { transformForModel } from "../project/transform.ts";
import { assertNever } from "../result.ts";
import { toAnthropicMessages } from "./anthropic-messages.ts";
import {
  adaptiveThinkingEffort,
  adjustMaxTokensForThinking,
  defaultMaxTokens,
  sanitizeSurrogates,
  type CacheControl,
} from "./common.ts";

/** `budget_tokens` pi-ai sends when the computed budget is 0. */
const FALLBACK_BUDGET_TOKENS = 1024;
/** Model id fragments of models with adaptive thinking (Opus 4.6+, Sonnet 4.6). */
const ADAPTIVE_THINKING_IDS = ["opus-4-6", "opus-4.6", "opus-4-7", "opus-4.7", "sonnet-4-6", "sonnet-4.6"];

/** How pi-ai configures thinking for one request, and the `max_tokens` that goes with it. */
type ThinkingPlan =
  | { readonly kind: "off"; readonly maxTokens: number | undefined }
  | { readonly kind: "adaptive"; readonly maxTokens: number | undefined; readonly effort: string }
  | { readonly kind: "budget"; readonly maxTokens: number; readonly budgetTokens: number };

/** pi-ai's `normalizeToolCallId` for Anthropic: ids must match `^[a-zA-Z0-9_-]+$` and be at most 64 long. */
export function normalizeAnthropicToolCallId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

/** True for models that get `thinking: {type: "adaptive"}` plus an effort instead of a token budget. */
export function isAdaptiveThinkingModel(modelId: string): boolean {
  return ADAPTIVE_THINKING_IDS.some((fragment) => modelId.includes(fragment));
}

/** A boolean `model.compat` flag; pi-ai treats a missing one as true. */
function compatFlag(model: ModelInfo, name: "supportsEagerToolInputStreaming" | "supportsLongCacheRetention"): boolean {
  return Boolean(model.compat?.[name] ?? true);
}

/** Cache marker for system, last tool and last user message; undefined when caching is off ("none"). */
function cacheControlFor(model: ModelInfo, retention: CacheRetention | undefined): CacheControl | undefined {
  const resolved = retention ?? "short";
  if (resolved === "none") return undefined;
  const longTtl = resolved === "long" && compatFlag(model, "supportsLongCacheRetention");
  return longTtl ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

/**
 * `streamSimpleAnthropic`'s choice. Note it depends on the model id and the level only, not on
 * `model.reasoning`: a non-reasoning model still gets the raised `max_tokens`, just no `thinking` field.
 */
function planThinking(model: ModelInfo, level: ThinkingLevel | undefined): ThinkingPlan {
  const baseMaxTokens = defaultMaxTokens(model);
  if (!level) return { kind: "off", maxTokens: baseMaxTokens };
  if (isAdaptiveThinkingModel(model.id)) {
    return { kind: "adaptive", maxTokens: baseMaxTokens, effort: adaptiveThinkingEffort(model, level) };
  }
  const { maxTokens, thinkingBudget } = adjustMaxTokensForThinking(baseMaxTokens || 0, model.maxTokens, level);
  return { kind: "budget", maxTokens, budgetTokens: thinkingBudget };
}

/** The `thinking` / `output_config` fields; only reasoning models get any (an explicit "disabled" when off). */
function thinkingFields(model: ModelInfo, plan: ThinkingPlan): Record<string, unknown> {
  if (!model.reasoning) return {};
  switch (plan.kind) {
    case "off":
      return { thinking: { type: "disabled" } };
    case "adaptive":
      return {
        thinking: { type: "adaptive", display: "summarized" },
        ...(plan.effort ? { output_config: { effort: plan.effort } } : {}),
      };
    case "budget":
      return {
        thinking: {
          type: "enabled",
          budget_tokens: plan.budgetTokens || FALLBACK_BUDGET_TOKENS,
          display: "summarized",
        },
      };
    default:
      return assertNever(plan, "thinking plan");
  }
}

/** The `system` field: one cached text block, or nothing without a system prompt. */
function systemField(
  systemPrompt: string | undefined,
  cacheControl: CacheControl | undefined,
): Record<string, unknown> {
  if (!systemPrompt) return {};
  const block = {
    type: "text",
    text: sanitizeSurrogates(systemPrompt),
    ...(cacheControl && { cache_control: cacheControl }),
  };
  return { system: [block] };
}

/** The `tools` field: JSON schemas reduced to properties/required, the last tool carrying the cache marker. */
function toolsField(
  model: ModelInfo,
  tools: readonly ToolDefinition[] | undefined,
  cacheControl: CacheControl | undefined,
): Record<string, unknown> {
  if (!tools || tools.length === 0) return {};
  const eager = compatFlag(model, "supportsEagerToolInputStreaming");
  const converted = tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    ...(eager && { eager_input_streaming: true }),
    input_schema: {
      type: "object",
      properties: tool.parameters.properties ?? {},
      required: tool.parameters.required ?? [],
    },
    ...(cacheControl && index === tools.length - 1 && { cache_control: cacheControl }),
  }));
  return { tools: converted };
}

/**
 * The body pi-ai sends to the Anthropic Messages API for this model and request (`listKey` "messages").
 * Runs `transformForModel` with Anthropic's tool-call id rule exactly where pi-ai runs `transformMessages`.
 * Never throws: for these options pi-ai fails before `onPayload` only when a cloudflare-ai-gateway base URL
 * has placeholders its process environment does not fill — a fact about the machine pi ran on, not the session.
 */
export function buildAnthropicPayload(model: ModelInfo, request: PayloadRequest): PayloadResult {
  const cacheControl = cacheControlFor(model, request.cacheRetention);
  const transformed = transformForModel(request.messages, model, normalizeAnthropicToolCallId, request.transform);
  const { messages, origins } = toAnthropicMessages(transformed, cacheControl);
  const plan = planThinking(model, request.reasoning);
  const body = {
    model: model.id,
    messages,
    max_tokens: plan.maxTokens || Math.trunc(model.maxTokens / 3),
    stream: true,
    ...systemField(request.systemPrompt, cacheControl),
    ...toolsField(model, request.tools, cacheControl),
    ...thinkingFields(model, plan),
  };
  return { body, listKey: "messages", origins };
}
