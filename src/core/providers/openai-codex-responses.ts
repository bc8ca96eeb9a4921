/**
 * Stage 8 for `api: "openai-codex-responses"` (ChatGPT subscription models): the body pi-ai 0.73.1's
 * `streamSimple` hands to `onPayload` (its `buildRequestBody`). The transport (WebSocket or SSE) and the
 * account id from the JWT only shape headers, so they do not appear here.
 */
import type { ModelInfo, PayloadRequest, PayloadResult, ThinkingLevel } from "../llm/types.ts";
import { clampedReasoning, mappedEffort } from "./common.ts";
import { toResponsesInput, toResponsesTools } from "./openai-responses-shared.ts";

/** Providers whose `call_id|item_id` tool-call ids survive a replay from another model. */
const PAIRED_ID_PROVIDERS: ReadonlySet<string> = new Set(["openai", "openai-codex", "opencode"]);

/** What pi-ai sends as `instructions` when the session has no system prompt. */
const DEFAULT_INSTRUCTIONS = "You are a helpful assistant.";

/** `reasoning` only when thinking is on: the (mapped) effort with an "auto" summary. */
function reasoningField(model: ModelInfo, effort: ThinkingLevel | undefined): Record<string, unknown> {
  return effort ? { reasoning: { effort: mappedEffort(model, effort), summary: "auto" } } : {};
}

/**
 * The Codex Responses request body pi would send, with `origins` for each `input` item. The system prompt
 * goes to `instructions` (verbatim, not in `input`); cache retention plays no part. Throws PayloadError for a
 * thinking signature that is not JSON.
 */
export function buildOpenAICodexResponsesPayload(model: ModelInfo, request: PayloadRequest): PayloadResult {
  const input = toResponsesInput(model, request, {
    pairedIdProviders: PAIRED_ID_PROVIDERS,
    includeSystemPrompt: false,
  });
  const body: Record<string, unknown> = {
    model: model.id,
    store: false,
    stream: true,
    instructions: request.systemPrompt || DEFAULT_INSTRUCTIONS,
    input: input.items,
    text: { verbosity: "low" },
    include: ["reasoning.encrypted_content"],
    prompt_cache_key: request.sessionId,
    tool_choice: "auto",
    parallel_tool_calls: true,
    ...(request.tools && request.tools.length > 0 ? { tools: toResponsesTools(request.tools, null) } : {}),
    ...reasoningField(model, clampedReasoning(model, request.reasoning)),
  };
  return { body, listKey: "input", origins: input.origins };
}
