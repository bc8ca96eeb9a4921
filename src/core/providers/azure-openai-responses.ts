/**
 * Stage 8 for `api: "azure-openai-responses"`: the body pi-ai 0.73.1's `streamSimple` hands to `onPayload`
 * (its `buildParams`), assuming none of the AZURE_OPENAI_* environment variables is set.
 */
import type { ModelInfo, PayloadRequest, PayloadResult } from "../llm/types.ts";
import { PayloadError } from "../llm/types.ts";
import { clampedReasoning, defaultMaxTokens } from "./common.ts";
import { reasoningFields } from "./openai-responses.ts";
import { toResponsesInput, toResponsesTools } from "./openai-responses-shared.ts";

/** Providers whose `call_id|item_id` tool-call ids survive a replay from another model. */
const PAIRED_ID_PROVIDERS: ReadonlySet<string> = new Set([
  "openai",
  "openai-codex",
  "opencode",
  "azure-openai-responses",
]);

/**
 * pi-ai builds its Azure client before the body and fails without a base URL: with no AZURE_OPENAI_BASE_URL
 * or AZURE_OPENAI_RESOURCE_NAME, that is the model's `baseUrl` (empty for the built-in Azure models).
 */
function assertBaseUrl(model: ModelInfo): void {
  if (!model.baseUrl) {
    throw new PayloadError(
      `pi-ai needs an Azure OpenAI base URL for ${model.id} and stops before sending: set AZURE_OPENAI_BASE_URL ` +
        "or AZURE_OPENAI_RESOURCE_NAME in pi's environment, or give the model a baseUrl.",
    );
  }
  if (!URL.canParse(model.baseUrl.trim().replace(/\/+$/, ""))) {
    throw new PayloadError(
      `The Azure OpenAI base URL "${model.baseUrl}" is not a valid URL, so pi-ai stops before sending.`,
    );
  }
}

/**
 * The Azure OpenAI Responses request body pi would send, with `origins` for each `input` item. `model` is the
 * deployment name, which is the model id without AZURE_OPENAI_DEPLOYMENT_NAME_MAP; there is no `store` field and
 * the session id is the cache key whatever the cache retention. Throws PayloadError where pi-ai fails first.
 */
export function buildAzureOpenAIResponsesPayload(model: ModelInfo, request: PayloadRequest): PayloadResult {
  assertBaseUrl(model);
  const input = toResponsesInput(model, request, { pairedIdProviders: PAIRED_ID_PROVIDERS, includeSystemPrompt: true });
  const maxOutputTokens = defaultMaxTokens(model);
  const body: Record<string, unknown> = {
    model: model.id,
    input: input.items,
    stream: true,
    prompt_cache_key: request.sessionId,
    ...(maxOutputTokens ? { max_output_tokens: maxOutputTokens } : {}),
    ...(request.tools && request.tools.length > 0 ? { tools: toResponsesTools(request.tools) } : {}),
    ...reasoningFields(model, clampedReasoning(model, request.reasoning), true),
  };
  return { body, listKey: "input", origins: input.origins };
}
