/**
 * Stage 8 for `api: "openai-responses"` (OpenAI, OpenCode, GitHub Copilot, Cloudflare AI Gateway):
 * the body pi-ai 0.73.1's `streamSimple` hands to `onPayload` (its `buildParams`). Also the `reasoning` fields
 * the Azure builder shares with it.
 */
import type { CacheRetention, ModelInfo, PayloadRequest, PayloadResult, ThinkingLevel } from "../llm/types.ts";
import { PayloadError } from "../llm/types.ts";
import { clampedReasoning, defaultMaxTokens, mappedEffort } from "./common.ts";
import { toResponsesInput, toResponsesTools } from "./openai-responses-shared.ts";

/** Providers whose `call_id|item_id` tool-call ids survive a replay from another model. */
const PAIRED_ID_PROVIDERS: ReadonlySet<string> = new Set(["openai", "openai-codex", "opencode"]);

const CLOUDFLARE_PROVIDERS: ReadonlySet<string> = new Set(["cloudflare-workers-ai", "cloudflare-ai-gateway"]);

/**
 * `reasoning` (and `include`) for reasoning models: the requested effort with an "auto" summary and encrypted
 * content; with thinking off, the model's "off" effort (default "none") unless it maps off to null or
 * `sendOffEffort` is false (pi-ai skips it for GitHub Copilot).
 */
export function reasoningFields(
  model: ModelInfo,
  effort: ThinkingLevel | undefined,
  sendOffEffort: boolean,
): Record<string, unknown> {
  if (!model.reasoning) return {};
  if (effort) {
    return {
      reasoning: { effort: mappedEffort(model, effort), summary: "auto" },
      include: ["reasoning.encrypted_content"],
    };
  }
  const off = model.thinkingLevelMap?.off;
  return !sendOffEffort || off === null ? {} : { reasoning: { effort: off ?? "none" } };
}

/**
 * pi-ai fills `{NAME}` placeholders of a Cloudflare base URL from environment variables before it builds the
 * body, and fails when one is unset. We assume none is set, so any placeholder means pi-ai would fail.
 */
function assertBaseUrlResolvable(model: ModelInfo): void {
  if (!CLOUDFLARE_PROVIDERS.has(model.provider)) return;
  const placeholder = /\{([A-Z_][A-Z0-9_]*)\}/.exec(model.baseUrl);
  if (placeholder) {
    throw new PayloadError(
      `pi-ai needs ${placeholder[1]} for provider ${model.provider} (its base URL has a {${placeholder[1]}} ` +
        "placeholder) and stops before sending. Set it in pi's environment or give the model a full baseUrl.",
    );
  }
}

/** `prompt_cache_retention`: "24h" only for long retention on models that support it. */
function promptCacheRetention(model: ModelInfo, retention: CacheRetention): "24h" | undefined {
  const supportsLong = model.compat?.["supportsLongCacheRetention"] ?? true;
  return retention === "long" && supportsLong ? "24h" : undefined;
}

/**
 * The OpenAI Responses request body pi would send, with `origins` for each `input` item. Cache retention
 * defaults to "short" (PI_CACHE_RETENTION assumed unset). Throws PayloadError where pi-ai fails before
 * sending (unresolvable Cloudflare base URL, a thinking signature that is not JSON).
 */
export function buildOpenAIResponsesPayload(model: ModelInfo, request: PayloadRequest): PayloadResult {
  assertBaseUrlResolvable(model);
  const input = toResponsesInput(model, request, { pairedIdProviders: PAIRED_ID_PROVIDERS, includeSystemPrompt: true });
  const retention = request.cacheRetention ?? "short";
  const maxOutputTokens = defaultMaxTokens(model);
  const body: Record<string, unknown> = {
    model: model.id,
    input: input.items,
    stream: true,
    prompt_cache_key: retention === "none" ? undefined : request.sessionId,
    prompt_cache_retention: promptCacheRetention(model, retention),
    store: false,
    ...(maxOutputTokens ? { max_output_tokens: maxOutputTokens } : {}),
    ...(request.tools && request.tools.length > 0 ? { tools: toResponsesTools(request.tools) } : {}),
    ...reasoningFields(model, clampedReasoning(model, request.reasoning), model.provider !== "github-copilot"),
  };
  return { body, listKey: "input", origins: input.origins };
}
