/**
 * Reading a snapshot back: from the text of a file (or of a decoded link) to a checked `Snapshot`, or a message
 * that says what the text is instead — not JSON, another kind of file, a snapshot of another version, or a
 * snapshot with a damaged field (named by its path).
 */
import { checkData, type z } from "../zod.ts";
import { MAX_NESTING, tooDeepAt } from "../nesting.ts";
import { err, ok, type Result } from "../result.ts";
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, snapshotSchema, type Snapshot } from "./schema.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** What a JSON value that is not a snapshot looks like, for the message. */
function lookalike(data: unknown): string {
  if (Array.isArray(data)) return "a JSON array";
  if (!isObject(data)) return `a JSON ${data === null ? "null" : typeof data}`;
  const format = data["format"];
  if (format === "context-lens/preset" || format === "context-lens/presets")
    return "a Context Lens rule preset (import it under Rules)";
  if (data["type"] === "session") return "the header of a pi session file (open it as a session)";
  if (typeof data["type"] === "string" && "id" in data && "parentId" in data)
    return "a single pi session entry, not a snapshot";
  if ("model" in data && ("messages" in data || "input" in data || "contents" in data))
    return "a provider request body (a downloaded payload), not a snapshot";
  if (typeof format === "string") return `a document of another format ("${format}")`;
  return 'a JSON object without a "format" field';
}

/** The first line of JSON Lines text, when it parses: sessions are JSONL and fail JSON.parse as a whole. */
function firstLineLooks(text: string): string | undefined {
  const first = text.trimStart().split(/\r?\n/, 1)[0] ?? "";
  try {
    const line: unknown = JSON.parse(first);
    if (!isObject(line)) return undefined;
    if (line["type"] === "session") return "a pi session file (JSON Lines); open it as a session";
    return "a JSON Lines file, not a snapshot";
  } catch {
    return undefined;
  }
}

const pathText = (path: readonly PropertyKey[]): string =>
  path.length === 0
    ? "the top level"
    : path.reduce<string>(
        (out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
        "",
      );

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 3).map((issue) => `at ${pathText(issue.path)}: ${issue.message}`);
  const more = issues.length > 3 ? `; and ${issues.length - 3} more` : "";
  return shown.join("; ") + more;
}

/** Checks that go beyond the shape: every ref points at the path, one source list per payload item. */
function consistency(snapshot: Snapshot): string | undefined {
  const refs = new Set<string>();
  for (const [i, entry] of snapshot.path.entries()) {
    if (refs.has(entry.ref)) return `at path[${i}].ref: "${entry.ref}" names two entries of the path`;
    refs.add(entry.ref);
  }
  const last = snapshot.path.at(-1)!;
  if (last.ref !== snapshot.leaf.ref) return `at leaf.ref: "${snapshot.leaf.ref}" is not the last entry of the path`;
  const list = snapshot.payload.body[snapshot.payload.listKey];
  if (!Array.isArray(list)) return `at payload.body.${snapshot.payload.listKey}: the payload's message list is missing`;
  if (list.length !== snapshot.payload.itemSources.length)
    return `at payload.itemSources: ${snapshot.payload.itemSources.length} source lists for ${list.length} payload items`;
  for (const [i, sources] of snapshot.payload.itemSources.entries()) {
    const unknown = sources.find((r) => !refs.has(r));
    if (unknown !== undefined) return `at payload.itemSources[${i}]: "${unknown}" is not an entry of the path`;
  }
  for (const [i, f] of snapshot.findings.entries()) {
    const unknown = f.entries.find((r) => !refs.has(r));
    if (unknown !== undefined) return `at findings[${i}].entries: "${unknown}" is not an entry of the path`;
  }
  if (snapshot.tokens && snapshot.tokens.perItem.length !== list.length)
    return `at tokens.perItem: ${snapshot.tokens.perItem.length} counts for ${list.length} payload items`;
  return undefined;
}

/** Checks a parsed JSON value; `source` names it in messages ("snap.json", "the link"). */
export function checkSnapshot(data: unknown, source = "the snapshot"): Result<Snapshot> {
  if (!isObject(data) || data["format"] !== SNAPSHOT_FORMAT)
    return err(`${source} is not a Context Lens snapshot: it is ${lookalike(data)}.`);
  // JSON.parse reads values nested deeper than any walk (the checks below, a view, an export) can follow.
  const deep = tooDeepAt(data);
  if (deep !== undefined)
    return err(
      `${source} nests arrays or objects more than ${MAX_NESTING.toLocaleString("en")} levels deep (at ${deep}); ` +
        "it is not one Context Lens wrote.",
    );
  const version = data["version"];
  if (typeof version === "number" && Number.isInteger(version) && version > SNAPSHOT_VERSION)
    return err(
      `${source} was made by a newer Context Lens (snapshot version ${version}; this one reads version ${SNAPSHOT_VERSION}). Open it with a newer Context Lens.`,
    );
  if (version !== SNAPSHOT_VERSION)
    return err(
      `${source} has snapshot version ${JSON.stringify(version) ?? "(none)"}, which no Context Lens wrote; this one reads version ${SNAPSHOT_VERSION}.`,
    );
  const parsed = checkData(snapshotSchema, data);
  if (!parsed.success) return err(`${source} is damaged: ${describeIssues(parsed.error.issues)}.`);
  const problem = consistency(parsed.data);
  return problem ? err(`${source} is damaged: ${problem}.`) : ok(parsed.data);
}

/** Reads the text of a snapshot file; says what the text is when it is not a snapshot this version can read. */
export function parseSnapshot(text: string, source = "the snapshot"): Result<Snapshot> {
  if (text.trim() === "") return err(`${source} is empty.`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const jsonl = firstLineLooks(text);
    if (jsonl) return err(`${source} is not a Context Lens snapshot: it is ${jsonl}.`);
    const cut = text.includes(`"${SNAPSHOT_FORMAT}"`) ? " It looks like a snapshot that was cut off or edited." : "";
    return err(`${source} is not JSON (${(error as Error).message}).${cut}`);
  }
  return checkSnapshot(data, source);
}

/** Whether the beginning of a file names the snapshot format: worth opening as a snapshot, not a session. */
export function looksLikeSnapshot(head: string): boolean {
  return /^\s*\{/.test(head) && /"format"\s*:\s*"context-lens\/snapshot"/.test(head);
}
