/**
 * A person's `models.json` (pi's `~/.pi/agent/models.json`): custom providers and models (Ollama, LM Studio, vLLM,
 * a company gateway, …) and overrides of built-in ones, read as pi-coding-agent 0.73.1's `ModelRegistry` reads it.
 * Sessions on a model pi-ai's registry does not know have no payload without it: its `api` says which builder,
 * its `baseUrl`, `compat`, `reasoning`, `input` and `maxTokens` what the body holds.
 *
 * What only decides how a request is sent (`apiKey`, `headers`, `authHeader`) is read past, never kept.
 * Left out: what pi's OAuth providers change in their models once someone is logged in (a base URL).
 */
import type { ModelInfo } from "../llm/types.ts";
import { err, ok, type Result } from "../result.ts";
import { checkData, z } from "../zod.ts";

const name = z.string().min(1);
const level = z.union([z.string(), z.null()]).optional();
const thinkingLevelMap = z.looseObject({
  off: level,
  minimal: level,
  low: level,
  medium: level,
  high: level,
  xhigh: level,
});
const input = z.array(z.enum(["text", "image"]));
const stringRecord = z.record(z.string(), z.string());
const percentiles = z.looseObject({
  p50: z.number().optional(),
  p75: z.number().optional(),
  p90: z.number().optional(),
  p99: z.number().optional(),
});
const price = z.union([z.number(), z.string()]).optional();
const strings = z.array(z.string()).optional();
const openRouterRouting = z.looseObject({
  allow_fallbacks: z.boolean().optional(),
  require_parameters: z.boolean().optional(),
  data_collection: z.enum(["deny", "allow"]).optional(),
  zdr: z.boolean().optional(),
  enforce_distillable_text: z.boolean().optional(),
  order: strings,
  only: strings,
  ignore: strings,
  quantizations: strings,
  sort: z
    .union([
      z.string(),
      z.looseObject({ by: z.string().optional(), partition: z.union([z.string(), z.null()]).optional() }),
    ])
    .optional(),
  max_price: z.looseObject({ prompt: price, completion: price, image: price, audio: price, request: price }).optional(),
  preferred_min_throughput: z.union([z.number(), percentiles]).optional(),
  preferred_max_latency: z.union([z.number(), percentiles]).optional(),
});
/** pi's three compat schemas, a union: an object passes when one of them accepts it (others' keys are let through). */
const compat = z.union([
  z.looseObject({
    supportsStore: z.boolean().optional(),
    supportsDeveloperRole: z.boolean().optional(),
    supportsReasoningEffort: z.boolean().optional(),
    supportsUsageInStreaming: z.boolean().optional(),
    maxTokensField: z.enum(["max_completion_tokens", "max_tokens"]).optional(),
    requiresToolResultName: z.boolean().optional(),
    requiresAssistantAfterToolResult: z.boolean().optional(),
    requiresThinkingAsText: z.boolean().optional(),
    requiresReasoningContentOnAssistantMessages: z.boolean().optional(),
    thinkingFormat: z.enum(["openai", "openrouter", "deepseek", "zai", "qwen", "qwen-chat-template"]).optional(),
    cacheControlFormat: z.literal("anthropic").optional(),
    openRouterRouting: openRouterRouting.optional(),
    vercelGatewayRouting: z.looseObject({ only: strings, order: strings }).optional(),
    supportsStrictMode: z.boolean().optional(),
    supportsLongCacheRetention: z.boolean().optional(),
  }),
  z.looseObject({
    sendSessionIdHeader: z.boolean().optional(),
    supportsLongCacheRetention: z.boolean().optional(),
  }),
  z.looseObject({
    supportsEagerToolInputStreaming: z.boolean().optional(),
    supportsLongCacheRetention: z.boolean().optional(),
  }),
]);
const modelDefinition = z.looseObject({
  id: name,
  name: name.optional(),
  api: name.optional(),
  baseUrl: name.optional(),
  reasoning: z.boolean().optional(),
  thinkingLevelMap: thinkingLevelMap.optional(),
  input: input.optional(),
  cost: z
    .looseObject({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number() })
    .optional(),
  contextWindow: z.number().optional(),
  maxTokens: z.number().optional(),
  headers: stringRecord.optional(),
  compat: compat.optional(),
});
const modelOverride = z.looseObject({
  name: name.optional(),
  reasoning: z.boolean().optional(),
  thinkingLevelMap: thinkingLevelMap.optional(),
  input: input.optional(),
  cost: z
    .looseObject({
      input: z.number().optional(),
      output: z.number().optional(),
      cacheRead: z.number().optional(),
      cacheWrite: z.number().optional(),
    })
    .optional(),
  contextWindow: z.number().optional(),
  maxTokens: z.number().optional(),
  headers: stringRecord.optional(),
  compat: compat.optional(),
});
const providerConfig = z.looseObject({
  name: name.optional(),
  baseUrl: name.optional(),
  apiKey: name.optional(),
  api: name.optional(),
  headers: stringRecord.optional(),
  compat: compat.optional(),
  authHeader: z.boolean().optional(),
  models: z.array(modelDefinition).optional(),
  modelOverrides: z.record(z.string(), modelOverride).optional(),
});
const modelsConfig = z.looseObject({ providers: z.record(z.string(), providerConfig) });

type ProviderConfig = z.infer<typeof providerConfig>;
type ModelOverride = z.infer<typeof modelOverride>;
type Compat = Record<string, unknown>;

/** What a models.json makes of pi-ai's registry. */
export interface ModelsJson {
  /** Every model: the built-in ones with the file's overrides applied, then its custom models (pi's order). */
  readonly models: readonly ModelInfo[];
  /** Custom models the file defines (a custom model replaces a built-in one of the same provider and id). */
  readonly custom: readonly ModelInfo[];
  /** Built-in models the file changes (a provider's baseUrl or compat, or a model override). */
  readonly overridden: number;
}

/** pi's `stripJsonComments`: `//` line comments and trailing commas out, string literals untouched. */
export function stripJsonComments(text: string): string {
  return text
    .replace(/"(?:\\.|[^"\\])*"|\/\/[^\n]*/g, (m) => (m[0] === '"' ? m : ""))
    .replace(/"(?:\\.|[^"\\])*"|,(\s*[}\]])/g, (m, tail: string | undefined) => tail ?? (m[0] === '"' ? m : ""));
}

/** pi's `mergeCompat`: the override's keys over the base's, with its two routing objects merged one level down. */
function mergeCompat(base: Compat | undefined, override: Compat | undefined): Compat | undefined {
  if (!override) return base;
  const merged: Compat = { ...base, ...override };
  for (const key of ["openRouterRouting", "vercelGatewayRouting"]) {
    if (base?.[key] || override[key]) merged[key] = { ...(base?.[key] as object), ...(override[key] as object) };
  }
  return merged;
}

/** pi's `applyModelOverride`. */
function applyModelOverride(model: ModelInfo, override: ModelOverride): ModelInfo {
  const result: { -readonly [K in keyof ModelInfo]: ModelInfo[K] } = { ...model };
  if (override.name !== undefined) result.name = override.name;
  if (override.reasoning !== undefined) result.reasoning = override.reasoning;
  if (override.thinkingLevelMap !== undefined)
    result.thinkingLevelMap = {
      ...model.thinkingLevelMap,
      ...override.thinkingLevelMap,
    } as ModelInfo["thinkingLevelMap"];
  if (override.input !== undefined) result.input = override.input;
  if (override.contextWindow !== undefined) result.contextWindow = override.contextWindow;
  if (override.maxTokens !== undefined) result.maxTokens = override.maxTokens;
  if (override.cost) {
    result.cost = {
      input: override.cost.input ?? model.cost.input,
      output: override.cost.output ?? model.cost.output,
      cacheRead: override.cost.cacheRead ?? model.cost.cacheRead,
      cacheWrite: override.cost.cacheWrite ?? model.cost.cacheWrite,
    };
  }
  (result as { compat?: Compat }).compat = mergeCompat(model.compat, override.compat as Compat | undefined);
  return result;
}

/** pi's `validateConfig`: the first rule a provider or model breaks, in pi's words. */
function configProblem(providers: Record<string, ProviderConfig>, builtIn: ReadonlySet<string>): string | undefined {
  for (const [provider, config] of Object.entries(providers)) {
    const models = config.models ?? [];
    const overrides = config.modelOverrides && Object.keys(config.modelOverrides).length > 0;
    if (models.length === 0) {
      if (!config.baseUrl && !config.headers && !config.compat && !overrides)
        return `Provider ${provider}: must specify "baseUrl", "headers", "compat", "modelOverrides", or "models".`;
    } else if (!builtIn.has(provider)) {
      if (!config.baseUrl) return `Provider ${provider}: "baseUrl" is required when defining custom models.`;
      if (!config.apiKey) return `Provider ${provider}: "apiKey" is required when defining custom models.`;
    }
    for (const model of models) {
      if (!config.api && !model.api && !builtIn.has(provider))
        return `Provider ${provider}, model ${model.id}: no "api" specified. Set at provider or model level.`;
      if (model.contextWindow !== undefined && model.contextWindow <= 0)
        return `Provider ${provider}, model ${model.id}: invalid contextWindow`;
      if (model.maxTokens !== undefined && model.maxTokens <= 0)
        return `Provider ${provider}, model ${model.id}: invalid maxTokens`;
    }
  }
  return undefined;
}

/** pi's `parseModels`: the custom models, with what they leave out taken from the provider, else pi's defaults. */
function customModels(providers: Record<string, ProviderConfig>, builtIns: readonly ModelInfo[]): ModelInfo[] {
  const models: ModelInfo[] = [];
  for (const [provider, config] of Object.entries(providers)) {
    // A built-in provider lends its first model's api and baseUrl.
    const first = builtIns.find((m) => m.provider === provider);
    for (const definition of config.models ?? []) {
      const api = definition.api ?? config.api ?? first?.api;
      const baseUrl = definition.baseUrl ?? config.baseUrl ?? first?.baseUrl;
      if (!api || !baseUrl) continue;
      models.push({
        id: definition.id,
        name: definition.name ?? definition.id,
        api,
        provider,
        baseUrl,
        reasoning: definition.reasoning ?? false,
        ...(definition.thinkingLevelMap
          ? { thinkingLevelMap: definition.thinkingLevelMap as ModelInfo["thinkingLevelMap"] }
          : {}),
        input: definition.input ?? ["text"],
        cost: definition.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: definition.contextWindow ?? 128_000,
        maxTokens: definition.maxTokens ?? 16_384,
        ...withCompat(mergeCompat(config.compat as Compat | undefined, definition.compat as Compat | undefined)),
      });
    }
  }
  return models;
}

const withCompat = (compat: Compat | undefined) => (compat ? { compat } : {});

/** "providers.ollama.models.0.id" for a schema issue, as pi's `formatValidationPath` names it. */
const issuePath = (path: readonly PropertyKey[]): string => (path.length === 0 ? "root" : path.map(String).join("."));

/**
 * Reads a models.json against pi-ai's built-in models (`builtIns`, in pi-ai's order), as pi does: JSON with `//`
 * comments and trailing commas, checked against pi's schema and rules. Where pi would report an error and keep
 * only the built-in models, this says what is wrong and where.
 */
export function readModelsJson(text: string, builtIns: readonly ModelInfo[]): Result<ModelsJson> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonComments(text));
  } catch (error) {
    return err(`it is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const checked = checkData(modelsConfig, parsed);
  if (!checked.success) {
    const problems = checked.error.issues.slice(0, 5).map((issue) => `${issuePath(issue.path)}: ${issue.message}`);
    const more = checked.error.issues.length - problems.length;
    return err(
      `it does not match pi's models.json schema: ${problems.join("; ")}${more > 0 ? ` (and ${more} more)` : ""}`,
    );
  }
  // The parsed value itself, as pi uses it (the schema lets keys it does not name through).
  const providers = (parsed as { providers: Record<string, ProviderConfig> }).providers;
  const builtIn = new Set(builtIns.map((m) => m.provider));
  const problem = configProblem(providers, builtIn);
  if (problem) return err(problem);

  let overridden = 0;
  const models = builtIns.map((model) => {
    const config = Object.hasOwn(providers, model.provider) ? providers[model.provider] : undefined;
    if (!config) return model;
    let result = model;
    if (config.baseUrl || config.compat) {
      result = {
        ...result,
        baseUrl: config.baseUrl ?? result.baseUrl,
        ...withCompat(mergeCompat(result.compat, config.compat as Compat | undefined)),
      };
    }
    const override =
      config.modelOverrides && Object.hasOwn(config.modelOverrides, model.id)
        ? config.modelOverrides[model.id]
        : undefined;
    if (override) result = applyModelOverride(result, override);
    if (result !== model) overridden += 1;
    return result;
  });
  const custom = customModels(providers, builtIns);
  for (const model of custom) {
    const at = models.findIndex((m) => m.provider === model.provider && m.id === model.id);
    if (at >= 0) models[at] = model;
    else models.push(model);
  }
  return ok({ models, custom, overridden });
}
