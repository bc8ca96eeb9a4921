/**
 * Stage 8: the `generateContentStream` params pi-ai hands to `onPayload` for the `google-generative-ai` and
 * `google-vertex` APIs (`streamSimpleGoogle` / `streamSimpleGoogleVertex` → `buildParams`). Both APIs share the
 * message mapping (`google-shared.ts`); they differ only in a few thinking rules, kept here as data.
 */
import type { ModelInfo, PayloadRequest, PayloadResult, ThinkingLevel } from "../llm/types.ts";
import { PayloadError } from "../llm/types.ts";
import { clampThinkingLevel, defaultMaxTokens, sanitizeSurrogates } from "./common.ts";
import { toGeminiContents, toGeminiTools } from "./google-shared.ts";
import type { GeminiContent, GeminiFunctionDeclaration } from "./google-shared.ts";

type GoogleApi = "google-generative-ai" | "google-vertex";
type GeminiThinkingLevel = "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";

export interface GeminiThinkingConfig {
  readonly includeThoughts?: true;
  readonly thinkingLevel?: GeminiThinkingLevel;
  readonly thinkingBudget?: number;
}

export type GeminiConfig = {
  readonly maxOutputTokens?: number;
  readonly systemInstruction?: string;
  readonly tools?: readonly { readonly functionDeclarations: readonly GeminiFunctionDeclaration[] }[];
  /** pi-ai always sets the key, to undefined when no tool choice is given (pi never gives one). */
  readonly toolConfig: undefined;
  readonly thinkingConfig?: GeminiThinkingConfig;
};

export type GeminiRequestBody = {
  readonly model: string;
  readonly contents: readonly GeminiContent[];
  readonly config: GeminiConfig;
};

/** How a model is told how hard to think: a named level (Gemini 3, Gemma 4) or a token budget (the rest). */
type ThinkingFamily = "gemini-3-pro" | "gemini-3-flash" | "gemma-4" | "budget";
type LevelFamily = Exclude<ThinkingFamily, "budget">;
type BudgetEffort = Exclude<ThinkingLevel, "xhigh">;

/** Level per effort; pi-ai has no level for "xhigh", so it sends `includeThoughts` alone. */
const THINKING_LEVELS: Record<LevelFamily, Record<ThinkingLevel, GeminiThinkingLevel | undefined>> = {
  "gemini-3-pro": { minimal: "LOW", low: "LOW", medium: "HIGH", high: "HIGH", xhigh: undefined },
  "gemini-3-flash": { minimal: "MINIMAL", low: "LOW", medium: "MEDIUM", high: "HIGH", xhigh: undefined },
  "gemma-4": { minimal: "MINIMAL", low: "MINIMAL", medium: "HIGH", high: "HIGH", xhigh: undefined },
};

/** With reasoning off: Gemini 3 and Gemma 4 cannot stop thinking, so they get their lowest level, hidden. */
const THINKING_OFF: Record<ThinkingFamily, GeminiThinkingConfig> = {
  "gemini-3-pro": { thinkingLevel: "LOW" },
  "gemini-3-flash": { thinkingLevel: "MINIMAL" },
  "gemma-4": { thinkingLevel: "MINIMAL" },
  budget: { thinkingBudget: 0 },
};

const PRO_BUDGETS: Record<BudgetEffort, number> = { minimal: 128, low: 2048, medium: 8192, high: 32768 };
const FLASH_BUDGETS: Record<BudgetEffort, number> = { minimal: 128, low: 2048, medium: 8192, high: 24576 };
const FLASH_LITE_BUDGETS: Record<BudgetEffort, number> = { ...FLASH_BUDGETS, minimal: 512 };

/** First model-id fragment that matches wins; no match means -1 (dynamic). Vertex has no flash-lite row. */
const BUDGET_TABLES: Record<GoogleApi, readonly (readonly [string, Record<BudgetEffort, number>])[]> = {
  "google-generative-ai": [
    ["2.5-pro", PRO_BUDGETS],
    ["2.5-flash-lite", FLASH_LITE_BUDGETS],
    ["2.5-flash", FLASH_BUDGETS],
  ],
  "google-vertex": [
    ["2.5-pro", PRO_BUDGETS],
    ["2.5-flash", FLASH_BUDGETS],
  ],
};

function toGoogleApi(api: string): GoogleApi {
  if (api === "google-generative-ai" || api === "google-vertex") return api;
  throw new PayloadError(`buildGooglePayload builds google-generative-ai and google-vertex requests, not "${api}".`);
}

/** Gemma 4 levels exist only in the google-generative-ai provider; Vertex treats Gemma 4 as a budget model. */
function thinkingFamily(modelId: string, api: GoogleApi): ThinkingFamily {
  const id = modelId.toLowerCase();
  if (/gemini-3(?:\.\d+)?-pro/.test(id)) return "gemini-3-pro";
  if (api === "google-generative-ai" && /gemma-?4/.test(id)) return "gemma-4";
  if (/gemini-3(?:\.\d+)?-flash/.test(id)) return "gemini-3-flash";
  return "budget";
}

function thinkingBudget(modelId: string, effort: ThinkingLevel, api: GoogleApi): number | undefined {
  const row = BUDGET_TABLES[api].find(([fragment]) => modelId.includes(fragment));
  if (!row) return -1;
  return effort === "xhigh" ? undefined : row[1][effort];
}

/** The `thinkingConfig` pi-ai sends, or undefined for models without reasoning. */
export function geminiThinkingConfig(
  model: ModelInfo,
  reasoning: ThinkingLevel | undefined,
  api: GoogleApi,
): GeminiThinkingConfig | undefined {
  if (!model.reasoning) return undefined;
  const family = thinkingFamily(model.id, api);
  if (reasoning === undefined) return THINKING_OFF[family];
  const clamped = clampThinkingLevel(model, reasoning);
  const effort = clamped === "off" ? "high" : clamped;
  if (family === "budget") {
    const budget = thinkingBudget(model.id, effort, api);
    return { includeThoughts: true, ...(budget !== undefined && { thinkingBudget: budget }) };
  }
  const level = THINKING_LEVELS[family][effort];
  return { includeThoughts: true, ...(level !== undefined && { thinkingLevel: level }) };
}

/** The `config`: pi-ai's default output cap (pi sets no temperature), system prompt, tools and thinking. */
function buildConfig(model: ModelInfo, request: PayloadRequest, api: GoogleApi): GeminiConfig {
  const maxTokens = defaultMaxTokens(model);
  const thinkingConfig = geminiThinkingConfig(model, request.reasoning, api);
  const tools = request.tools ?? [];
  return {
    ...(maxTokens !== undefined && { maxOutputTokens: maxTokens }),
    ...(request.systemPrompt && { systemInstruction: sanitizeSurrogates(request.systemPrompt) }),
    ...(tools.length > 0 && { tools: toGeminiTools(tools) }),
    toolConfig: undefined,
    ...(thinkingConfig && { thinkingConfig }),
  };
}

/**
 * The request body pi-ai 0.73.1 builds for a `google-generative-ai` or `google-vertex` model, with the origin of
 * every `contents` entry. `sessionId` and `cacheRetention` do not reach Google bodies; pi-ai ignores them here.
 * Throws `PayloadError` only for a model of another API: for Google, pi-ai has no refusal before `onPayload`.
 */
export function buildGooglePayload(model: ModelInfo, request: PayloadRequest): PayloadResult {
  const api = toGoogleApi(model.api);
  const { contents, origins } = toGeminiContents(request.messages, model, request.transform);
  const body: GeminiRequestBody = { model: model.id, contents, config: buildConfig(model, request, api) };
  return { body, listKey: "contents", origins };
}
