/**
 * The reference: pi's own packages, used only by tests and benchmarks to prove our core identical.
 * Captures the provider request body through `onPayload` and throws there, so nothing reaches the network.
 */
import { getModel, getModels, getProviders, streamSimple } from "@mariozechner/pi-ai";
import type { Api, Context, Model, ThinkingLevel } from "@mariozechner/pi-ai";

const CAPTURED = Symbol("captured");

/** An API key shaped like a ChatGPT token, as openai-codex models require (a JWT with an account id claim). */
export const FAKE_CODEX_JWT = [
  "e30",
  btoaUrl(JSON.stringify({ "https://api.openai.com/auth": { chatgpt_account_id: "acct_test" } })),
  "sig",
].join(".");

function btoaUrl(s: string): string {
  return Buffer.from(s).toString("base64url");
}

export interface ReferenceOptions {
  readonly reasoning?: ThinkingLevel;
  readonly sessionId?: string;
  readonly cacheRetention?: "none" | "short" | "long";
}

/** The body pi-ai would send for this model and context, or the error it raises before sending. */
export async function referencePayload(
  model: Model<Api>,
  context: Context,
  options: ReferenceOptions = {},
): Promise<{ payload: unknown } | { error: string }> {
  let payload: unknown;
  let captured = false;
  const stream = streamSimple(model, context, {
    apiKey: model.provider === "openai-codex" ? FAKE_CODEX_JWT : "test-key",
    reasoning: options.reasoning,
    sessionId: options.sessionId,
    ...(options.cacheRetention ? { cacheRetention: options.cacheRetention } : {}),
    onPayload: (body: unknown) => {
      payload = structuredClone(body);
      captured = true;
      throw Object.assign(new Error("captured"), { [CAPTURED]: true });
    },
  });
  const result = await stream.result();
  if (captured) return { payload };
  return { error: result.errorMessage ?? "pi-ai produced no payload" };
}

export function referenceModel(provider: string, id: string): Model<Api> | undefined {
  return getModel(provider as never, id as never) as Model<Api> | undefined;
}

export function allReferenceModels(): Model<Api>[] {
  return getProviders().flatMap((p) => getModels(p) as Model<Api>[]);
}
