/**
 * The reference session pipeline: what pi 0.73.1 itself does with a session file when it resumes it at a leaf
 * (SessionManager's reading, migration and index; buildSessionContext; convertToLlm; then streamSimple).
 * Used only by differential tests and benchmarks.
 */
import {
  buildSessionContext,
  convertToLlm,
  migrateSessionEntries,
  parseSessionEntries,
} from "@mariozechner/pi-coding-agent";
import type { Api, Model, ThinkingLevel } from "@mariozechner/pi-ai";
import { referenceModel, referencePayload } from "./pi.ts";

type Entry = Record<string, unknown> & { type?: unknown; id?: unknown };

export interface ReferenceSession {
  /** pi's file entries (header included), after migration. */
  readonly entries: readonly Entry[];
  /** For each entry, its 1-based line in the file. */
  readonly lines: readonly number[];
  readonly headerId: string | undefined;
}

/**
 * Reads a session as pi's SessionManager does (keeping each entry's line so tests can address leaves).
 * A version 1 file gets fresh 8-hex-digit ids from pi on every read, and pi 0.73.1's migration checks each new id
 * against a set it never adds to: in about one read in 8,000 of a 1,000-entry file two entries draw the same id,
 * which makes a cycle of the parent chain that `buildSessionContext` never leaves (the benchmark, reading such a
 * file hundreds of times, hung on it). Such a draw is read again; a file's own repeated ids are kept as they are.
 */
export function referenceLoad(text: string): ReferenceSession {
  for (let attempt = 1; attempt <= MAX_DRAWS; attempt += 1) {
    const { drewIds, ...session } = readOnce(text);
    if (!drewIds || !hasRepeatedId(session.entries)) return session;
  }
  throw new Error(`pi drew a repeated entry id in ${MAX_DRAWS} reads of this version 1 session in a row`);
}

const MAX_DRAWS = 10;

function hasRepeatedId(entries: readonly Entry[]): boolean {
  const seen = new Set<unknown>();
  for (const entry of entries) {
    if (entry.type === "session") continue;
    if (seen.has(entry.id)) return true;
    seen.add(entry.id);
  }
  return false;
}

function readOnce(text: string): ReferenceSession & { readonly drewIds: boolean } {
  const entries: Entry[] = [];
  const lines: number[] = [];
  const content = text.trim() === text ? text : text.replace(/^\s+/, (lead) => lead.replace(/[^\n]/g, ""));
  content.split("\n").forEach((line, i) => {
    for (const entry of parseSessionEntries(line)) {
      entries.push(entry as unknown as Entry);
      lines.push(i + 1);
    }
  });
  const header = entries[0];
  if (!header || header.type !== "session" || typeof header.id !== "string")
    return { entries: [], lines: [], headerId: undefined, drewIds: false };
  // pi's own test: `(header.version ?? 1) < 2` migrates to version 2, drawing every entry's id.
  const drewIds = ((header["version"] ?? 1) as number) < 2;
  migrateSessionEntries(entries as never);
  return { entries, lines, headerId: header.id as string, drewIds };
}

export interface ReferenceRequest {
  readonly leafLine?: number;
  /** "session" or PROVIDER/ID */
  readonly model: string;
  readonly systemPrompt?: string;
  /** Where models are looked up (a ModelRegistry that read a models.json); default: pi-ai's `getModel`. */
  readonly lookup?: (provider: string, id: string) => Model<Api> | undefined;
}

/** pi's payload for the leaf on `leafLine` (default: the last entry), or the error pi raises. */
export async function referenceSessionPayload(
  session: ReferenceSession,
  request: ReferenceRequest,
): Promise<{ payload: unknown } | { error: string }> {
  const entries = session.entries.filter((e) => e.type !== "session");
  const byId = new Map<unknown, Entry>();
  for (const entry of entries) byId.set(entry.id, entry);
  let leafId = entries.at(-1)?.id;
  if (request.leafLine !== undefined) {
    const position = session.entries.findIndex((_, i) => session.lines[i] === request.leafLine);
    leafId = session.entries[position]?.id;
  }
  const context = buildSessionContext(entries as never, leafId as string, byId as never);
  const messages = convertToLlm(context.messages);
  const lookup = request.lookup ?? referenceModel;
  let model: Model<Api> | undefined;
  if (request.model === "session") {
    if (!context.model) return { error: "no model" };
    model = lookup(context.model.provider, context.model.modelId);
  } else {
    const slash = request.model.indexOf("/");
    model = lookup(request.model.slice(0, slash), request.model.slice(slash + 1));
  }
  if (!model) return { error: "unknown model" };
  const reasoning = context.thinkingLevel === "off" ? undefined : (context.thinkingLevel as ThinkingLevel);
  return referencePayload(
    model,
    { systemPrompt: request.systemPrompt, messages, tools: undefined },
    { reasoning, sessionId: session.headerId },
  );
}
