/**
 * What a recorded assistant message says about the request that produced it (TOKENS.md, "Prompt tokens").
 * pi-ai normalises usage to input (uncached prompt), cacheRead, cacheWrite, output and totalTokens; how to get
 * the prompt size out of those depends on the pi-ai version that wrote the file.
 */

/** The fields of pi-ai's `Usage` this module reads; anything else in the object is ignored. */
export interface RecordedUsage {
  readonly input?: unknown;
  readonly output?: unknown;
  readonly cacheRead?: unknown;
  readonly cacheWrite?: unknown;
  readonly totalTokens?: unknown;
}

const num = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** pi-ai 0.12.7 (2025-12-03) started recording totalTokens for OpenAI; before it `input` held cached tokens too. */
export const OPENAI_TOTAL_TOKENS_SINCE = Date.parse("2025-12-03T00:00:00Z");
/** pi-ai 0.63.0 (end of March 2026) started subtracting cached tokens from Google's `input`. */
export const GOOGLE_UNCACHED_INPUT_SINCE = Date.parse("2026-03-30T00:00:00Z");

/**
 * Prompt tokens of the request that produced an assistant message, robust across pi versions:
 * totalTokens − output when totalTokens > 0; otherwise input + cacheRead + cacheWrite, except for OpenAI APIs
 * before pi-ai 0.12.7 and Google APIs before pi-ai 0.63.0, whose `input` already includes cached tokens.
 * `timestamp` is the message's time in ms (undefined = recent).
 */
export function promptTokens(usage: RecordedUsage, api: string, timestamp: number | undefined): number {
  const total = num(usage.totalTokens);
  if (total > 0) return total - num(usage.output);
  const input = num(usage.input);
  const time = timestamp ?? Number.POSITIVE_INFINITY;
  if (api.startsWith("openai") || api.startsWith("azure-openai")) {
    if (time < OPENAI_TOTAL_TOKENS_SINCE) return input;
  } else if (api.startsWith("google")) {
    if (time < GOOGLE_UNCACHED_INPUT_SINCE) return input;
  }
  return input + num(usage.cacheRead) + num(usage.cacheWrite);
}

/** Providers that run on the user's machine and silently cut prompts to their context size. */
const TRUNCATING_PROVIDERS = /^(ollama|lmstudio|lm-studio|llama-?cpp|llamafile)$/i;

/** A recorded request usable as a measurement, or why it is not one. */
export type RecordedRequest =
  | { readonly ok: true; readonly prompt: number; readonly output: number }
  | { readonly ok: false; readonly reason: string };

/** The fields of an assistant message this module reads. */
export interface RecordedAssistant {
  readonly role?: unknown;
  readonly api?: unknown;
  readonly provider?: unknown;
  readonly usage?: unknown;
  readonly stopReason?: unknown;
  readonly timestamp?: unknown;
}

function timeOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string") {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

/**
 * The prompt and output size an assistant message records, when they measure a real request: errored and
 * aborted turns, usage of zero, and local servers that truncate prompts (ollama, …) are not measurements.
 * `fallbackTime` (the entry's timestamp) is used when the message has none.
 */
export function recordedRequest(message: RecordedAssistant, fallbackTime?: unknown): RecordedRequest {
  if (message.role !== "assistant") return { ok: false, reason: "not an assistant message" };
  const usage = message.usage;
  if (typeof usage !== "object" || usage === null) return { ok: false, reason: "no usage recorded" };
  if (message.stopReason === "error" || message.stopReason === "aborted")
    return { ok: false, reason: `the turn ${message.stopReason === "error" ? "failed" : "was aborted"}` };
  if (typeof message.provider === "string" && TRUNCATING_PROVIDERS.test(message.provider))
    return { ok: false, reason: `${message.provider} runs locally and may cut the prompt to its context size` };
  const api = typeof message.api === "string" ? message.api : "";
  const prompt = promptTokens(usage as RecordedUsage, api, timeOf(message.timestamp) ?? timeOf(fallbackTime));
  if (prompt <= 0) return { ok: false, reason: "the usage records no prompt tokens" };
  return { ok: true, prompt, output: num((usage as RecordedUsage).output) };
}
