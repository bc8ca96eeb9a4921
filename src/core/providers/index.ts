/** Stage 8: one entry point over the provider payload builders, chosen by the model's API. */
import { err, ok, type Result } from "../result.ts";
import { PayloadError, type ModelInfo, type PayloadRequest, type PayloadResult } from "../llm/types.ts";
import { buildBedrockPayload } from "./amazon-bedrock.ts";
import { buildAnthropicPayload } from "./anthropic.ts";
import { buildAzureOpenAIResponsesPayload } from "./azure-openai-responses.ts";
import { buildGooglePayload } from "./google.ts";
import { buildMistralPayload } from "./mistral.ts";
import { buildOpenAICodexResponsesPayload } from "./openai-codex-responses.ts";
import { buildOpenAICompletionsPayload } from "./openai-completions.ts";
import { buildOpenAIResponsesPayload } from "./openai-responses.ts";

/**
 * pi-ai fills `{VAR}` placeholders in some base URLs (Cloudflare) from environment variables and refuses to
 * build the request when one is unset. The body never depends on them, but like pi without that setup we refuse.
 */
function unresolvedBaseUrlVariable(model: ModelInfo): string | undefined {
  return /\{([A-Z_][A-Z0-9_]*)\}/.exec(model.baseUrl)?.[1];
}

type Builder = (model: ModelInfo, request: PayloadRequest) => PayloadResult;

const BUILDERS: Readonly<Record<string, Builder>> = {
  "anthropic-messages": buildAnthropicPayload,
  "openai-responses": buildOpenAIResponsesPayload,
  "openai-codex-responses": buildOpenAICodexResponsesPayload,
  "azure-openai-responses": buildAzureOpenAIResponsesPayload,
  "openai-completions": buildOpenAICompletionsPayload,
  "google-generative-ai": buildGooglePayload,
  "bedrock-converse-stream": buildBedrockPayload,
  "mistral-conversations": buildMistralPayload,
  "google-vertex": buildGooglePayload,
};

export const SUPPORTED_APIS: readonly string[] = Object.keys(BUILDERS);

export function isSupportedApi(api: string): boolean {
  return Object.hasOwn(BUILDERS, api);
}

/**
 * The request body pi-ai would send, or why it cannot be built: pi-ai itself refuses (PayloadError), the API
 * has no builder here yet, or the session data is too malformed for pi to turn into a request.
 */
export function buildPayload(model: ModelInfo, request: PayloadRequest): Result<PayloadResult> {
  const builder = BUILDERS[model.api];
  if (!builder) {
    return err(
      `Context Lens cannot build ${model.api} requests yet (model ${model.provider}/${model.id}); supported APIs: ${SUPPORTED_APIS.join(", ")}`,
    );
  }
  const variable = unresolvedBaseUrlVariable(model);
  if (variable) {
    return err(
      `pi-ai would not build this request: ${variable} is required for provider ${model.provider} (its base URL needs it) but is not set`,
    );
  }
  try {
    return ok(builder(model, request));
  } catch (error) {
    if (error instanceof PayloadError) return err(`pi-ai would not build this request: ${error.message}`);
    const reason = error instanceof Error ? error.message : String(error);
    return err(`pi could not build this request from the session data (${reason})`);
  }
}
