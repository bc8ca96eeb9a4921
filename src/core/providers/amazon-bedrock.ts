/**
 * Stage 8 for API "bedrock-converse-stream": the `ConverseStreamCommand` input pi-ai 0.73.1 hands to `onPayload`
 * when pi calls `streamSimple(model, context, { apiKey, reasoning, sessionId, cacheRetention })`.
 * Same fields (including the ones pi-ai leaves `undefined`), same defaults, no AWS SDK.
 *
 * pi-ai also reads the process environment here; we assume the machine pi ran on had none of it set:
 * `PI_CACHE_RETENTION` (would turn the default retention "long"), `AWS_BEDROCK_FORCE_CACHE` (cache points for
 * non-Claude models), `AWS_REGION` / `AWS_DEFAULT_REGION` (a `us-gov-*` region drops the thinking `display`).
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
import { toBedrockMessages, type BedrockCachePoint } from "./amazon-bedrock-messages.ts";
import { adaptiveThinkingEffort, adjustMaxTokensForThinking, defaultMaxTokens, sanitizeSurrogates } from "./common.ts";

const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";

/** Claude thinking for one request and the `inferenceConfig.maxTokens` that goes with it. */
type ThinkingPlan =
  | { readonly kind: "none"; readonly maxTokens: number | undefined }
  | { readonly kind: "adaptive"; readonly maxTokens: number | undefined; readonly level: ThinkingLevel }
  | { readonly kind: "budget"; readonly maxTokens: number; readonly budgetTokens: number };

/** pi-ai's Bedrock `normalizeToolCallId`: `[A-Za-z0-9_-]` only (others become `_`), at most 64 characters. */
export function normalizeBedrockToolCallId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

/**
 * Lower-cased id and name, each also with runs of whitespace, `_`, `.` and `:` turned into `-`, so that
 * "Claude Opus 4.6" and "anthropic.claude-opus-4-6-v1" both contain "opus-4-6".
 */
function matchCandidates(model: ModelInfo): string[] {
  const values = model.name ? [model.id, model.name] : [model.id];
  return values.flatMap((value) => {
    const lower = value.toLowerCase();
    return [lower, lower.replace(/[\s_.:]+/g, "-")];
  });
}

const anyCandidate = (model: ModelInfo, test: (candidate: string) => boolean): boolean =>
  matchCandidates(model).some(test);

/** An Anthropic Claude model on Bedrock, judged by id or (for application inference profiles) name. */
export function isBedrockClaudeModel(model: ModelInfo): boolean {
  const id = model.id.toLowerCase();
  const name = model.name?.toLowerCase() ?? "";
  return ["anthropic.claude", "anthropic/claude"].some((s) => id.includes(s)) || name.includes("claude");
}

/** Opus 4.6/4.7 and Sonnet 4.6 get adaptive thinking with an effort instead of a token budget. */
function isAdaptiveThinkingModel(model: ModelInfo): boolean {
  return anyCandidate(model, (s) => ["opus-4-6", "opus-4-7", "sonnet-4-6"].some((f) => s.includes(f)));
}

/** Prompt caching: Claude 4.x, Claude 3.7 Sonnet and Claude 3.5 Haiku. */
function supportsPromptCaching(model: ModelInfo): boolean {
  if (!anyCandidate(model, (s) => s.includes("claude"))) return false;
  return anyCandidate(model, (s) => ["-4-", "claude-3-7-sonnet", "claude-3-5-haiku"].some((f) => s.includes(f)));
}

/** GovCloud rejects the thinking `display` field; with no region configured only the model id can say so. */
function isGovCloudModel(model: ModelInfo): boolean {
  const id = model.id.toLowerCase();
  return id.startsWith("us-gov.") || id.startsWith("arn:aws-us-gov:");
}

/** The cache point for system prompt and last user message; undefined when off or unsupported. */
function cachePointFor(model: ModelInfo, retention: CacheRetention | undefined): BedrockCachePoint | undefined {
  const resolved = retention ?? "short";
  if (resolved === "none" || !supportsPromptCaching(model)) return undefined;
  return resolved === "long" ? { type: "default", ttl: "1h" } : { type: "default" };
}

/**
 * `streamSimpleBedrock`'s choice. It looks only at the level and whether the model is Claude, not at
 * `model.reasoning`: a non-reasoning Claude still gets the raised output cap, just no thinking fields.
 * A budget of 0 (tiny output cap) is sent as 0, unlike the Anthropic API path.
 */
function planThinking(model: ModelInfo, level: ThinkingLevel | undefined): ThinkingPlan {
  const base = defaultMaxTokens(model);
  if (!level || !isBedrockClaudeModel(model)) return { kind: "none", maxTokens: base };
  if (isAdaptiveThinkingModel(model)) return { kind: "adaptive", maxTokens: base, level };
  const { maxTokens, thinkingBudget } = adjustMaxTokensForThinking(base || 0, model.maxTokens, level);
  return { kind: "budget", maxTokens, budgetTokens: thinkingBudget };
}

/** pi-ai's Bedrock `mapThinkingLevelToEffort`: native "xhigh" on Opus 4.7, else the Anthropic mapping. */
function effortFor(model: ModelInfo, level: ThinkingLevel): string {
  if (level === "xhigh" && anyCandidate(model, (s) => s.includes("opus-4-7"))) return "xhigh";
  return adaptiveThinkingEffort(model, level);
}

/** `additionalModelRequestFields`: Claude thinking settings, only for reasoning models with a level. */
function additionalFields(model: ModelInfo, plan: ThinkingPlan): Record<string, unknown> | undefined {
  if (!model.reasoning) return undefined;
  const display = isGovCloudModel(model) ? {} : { display: "summarized" };
  switch (plan.kind) {
    case "none":
      return undefined;
    case "adaptive":
      return { thinking: { type: "adaptive", ...display }, output_config: { effort: effortFor(model, plan.level) } };
    case "budget":
      return {
        thinking: { type: "enabled", budget_tokens: plan.budgetTokens, ...display },
        anthropic_beta: [INTERLEAVED_THINKING_BETA],
      };
    default:
      return assertNever(plan, "thinking plan");
  }
}

/** The `system` field: the prompt as one text block plus a cache point, or undefined without a prompt. */
function systemBlocks(
  systemPrompt: string | undefined,
  cachePoint: BedrockCachePoint | undefined,
): unknown[] | undefined {
  if (!systemPrompt) return undefined;
  const text = { text: sanitizeSurrogates(systemPrompt) };
  return cachePoint ? [text, { cachePoint: { ...cachePoint } }] : [text];
}

/** The `toolConfig` field: tool specs with their JSON schemas as given; pi sets no tool choice. */
function toolConfig(tools: readonly ToolDefinition[] | undefined): Record<string, unknown> | undefined {
  if (!tools || tools.length === 0) return undefined;
  const specs = tools.map((tool) => ({
    toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.parameters } },
  }));
  return { tools: specs, toolChoice: undefined };
}

/**
 * The body pi-ai sends to Bedrock's ConverseStream for this model and request (`listKey` "messages").
 * Runs `transformForModel` with Bedrock's tool-call id rule exactly where pi-ai runs `transformMessages`.
 * Throws PayloadError where pi-ai fails before `onPayload`: an image of another type than JPEG/PNG/GIF/WebP,
 * or image data that is not base64.
 */
export function buildBedrockPayload(model: ModelInfo, request: PayloadRequest): PayloadResult {
  const cachePoint = cachePointFor(model, request.cacheRetention);
  const transformed = transformForModel(request.messages, model, normalizeBedrockToolCallId, request.transform);
  const { messages, origins } = toBedrockMessages(transformed, {
    cachePoint,
    signedReasoning: isBedrockClaudeModel(model),
  });
  const plan = planThinking(model, request.reasoning);
  const body = {
    modelId: model.id,
    messages,
    system: systemBlocks(request.systemPrompt, cachePoint),
    inferenceConfig: plan.maxTokens === undefined ? {} : { maxTokens: plan.maxTokens },
    toolConfig: toolConfig(request.tools),
    additionalModelRequestFields: additionalFields(model, plan),
  };
  return { body, listKey: "messages", origins };
}
