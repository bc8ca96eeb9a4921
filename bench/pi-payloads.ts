/**
 * The reference side of figure 2: pi 0.73.1's own functions building the payload of every leaf, with the
 * session loaded and indexed once beforehand (as pi's SessionManager holds it), so only the per-leaf work is
 * timed: buildSessionContext → convertToLlm → streamSimple up to `onPayload`, which throws to stop the request.
 */
import { buildSessionContext, convertToLlm } from "@mariozechner/pi-coding-agent";
import { streamSimple, type Api, type Context, type Model, type ThinkingLevel } from "@mariozechner/pi-ai";
import { referenceLoad } from "../tests/reference/pi-session.ts";
import { FAKE_CODEX_JWT, referenceModel } from "../tests/reference/pi.ts";

type Entry = Record<string, unknown> & { id?: unknown; type?: unknown };

export interface PiSession {
  readonly entries: readonly Entry[];
  readonly byId: ReadonlyMap<unknown, Entry>;
  readonly headerId: string | undefined;
  /** 1-based file line → entry id, to address the same leaves as ours. */
  readonly idOnLine: ReadonlyMap<number, string>;
}

/** Reads, migrates and indexes the session the way pi does (untimed). */
export function loadPiSession(text: string): PiSession {
  const loaded = referenceLoad(text);
  const idOnLine = new Map<number, string>();
  loaded.entries.forEach((entry, i) => {
    if (entry.type !== "session" && typeof entry.id === "string") idOnLine.set(loaded.lines[i] as number, entry.id);
  });
  const entries = loaded.entries.filter((e) => e.type !== "session");
  const byId = new Map<unknown, Entry>();
  for (const entry of entries) byId.set(entry.id, entry);
  return { entries, byId, headerId: loaded.headerId, idOnLine };
}

const STOP = new Error("payload captured");

/** pi-ai's request body for `model`, or undefined when it refuses to build one. Nothing is copied or sent. */
async function capturePayload(
  model: Model<Api>,
  context: Context,
  reasoning: ThinkingLevel | undefined,
  sessionId: string | undefined,
): Promise<unknown> {
  let payload: unknown;
  const stream = streamSimple(model, context, {
    apiKey: model.provider === "openai-codex" ? FAKE_CODEX_JWT : "test-key",
    reasoning,
    sessionId,
    onPayload: (body: unknown) => {
      payload = body;
      throw STOP;
    },
  });
  await stream.result();
  return payload;
}

/** One leaf's payload as pi builds it; `model` undefined = the session's own model. */
export async function piLeafPayload(
  session: PiSession,
  leafId: string,
  model: Model<Api> | undefined,
): Promise<unknown> {
  const context = buildSessionContext(session.entries as never, leafId, session.byId as never);
  const messages = convertToLlm(context.messages);
  const target = model ?? (context.model ? referenceModel(context.model.provider, context.model.modelId) : undefined);
  if (!target) return undefined;
  const reasoning = context.thinkingLevel === "off" ? undefined : (context.thinkingLevel as ThinkingLevel);
  return capturePayload(target, { messages }, reasoning, session.headerId);
}

/**
 * Every (leaf, model) payload, one after the other; returns how many were built. Leaves are given by file line:
 * pi draws fresh ids for a v1 session each time it reads one.
 */
export async function piAllPayloads(
  session: PiSession,
  leafLines: readonly number[],
  models: readonly (Model<Api> | undefined)[],
): Promise<number> {
  let built = 0;
  for (const line of leafLines) {
    const leafId = session.idOnLine.get(line) as string;
    for (const model of models) if ((await piLeafPayload(session, leafId, model)) !== undefined) built += 1;
  }
  return built;
}
