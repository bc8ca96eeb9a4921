/**
 * A context snapshot: one versioned JSON document holding what a model was (or would be) sent at one leaf of one
 * session, with enough around it to read it without the session — where every payload item came from, the fate
 * of every entry on the path, the rules, the validator's findings, optional token figures, and what was redacted
 * or left out before it was shared (never the originals).
 *
 * Entries are named by `ref`: the entry's id when that id is unique on the path, else `line:N`, as everywhere
 * else in Context Lens.
 */
import { z } from "../zod.ts";
import { settingsSchema, toolsSchema } from "../project/presets.ts";

export const SNAPSHOT_FORMAT = "context-lens/snapshot";
export const SNAPSHOT_VERSION = 1;

const ref = z.string().min(1, "an entry reference cannot be empty");
const line = z.number().int().min(1);

export const FATE_KINDS = [
  "in-context",
  "compaction-summary",
  "summarised",
  "setting",
  "no-message",
  "excluded",
  "dropped",
] as const;

const fateSchema = z.object({
  kind: z.enum(FATE_KINDS),
  /** One sentence for people: "in the payload", "summarised by the compaction on line 30", … */
  reason: z.string(),
  /** The rule that excluded the entry. */
  rule: z.string().optional(),
  /** Rules that changed the entry's message. */
  changedBy: z.array(z.string()).optional(),
});

const pathEntrySchema = z.object({
  ref,
  id: z.string().optional(),
  line,
  /** The entry type, with the message role for message entries: "message/user", "compaction", … */
  type: z.string(),
  fate: fateSchema,
});

const findingSchema = z.object({
  severity: z.enum(["error", "warning", "info"]),
  code: z.string(),
  message: z.string(),
  entries: z.array(ref),
});

export const TOKEN_KINDS = ["exact", "calibrated", "estimated"] as const;

const tokensSchema = z.object({
  /** The whole prompt. */
  total: z.number().nonnegative(),
  /** Per item of the payload's main list; null where an item was not counted on its own. */
  perItem: z.array(z.number().nonnegative().nullable()),
  /** What kind of number `total` is. */
  kind: z.enum(TOKEN_KINDS),
  /** What counted them ("claude family: o200k + legacy Claude vocabulary, fitted coefficients"). */
  tokenizer: z.string(),
  /** How `total` was arrived at, in one sentence. */
  basis: z.string().optional(),
});

const redactionSchema = z.object({
  /** A secret kind id of the redactor ("openai-key", "private-key", …). */
  kind: z.string(),
  label: z.string(),
  /** The marker that stands where the secret was. */
  replacement: z.string(),
  /** Where in the snapshot document ("payload.body.input[3].content[0].text"). */
  where: z.string(),
  /** "rule": by the projection's redact-secrets rule; "export": by the review before sharing. */
  by: z.enum(["rule", "export"]),
  /** The path entries behind the payload item it was in, when known. */
  entries: z.array(ref).optional(),
});

const imageSchema = z.object({
  where: z.string(),
  mimeType: z.string(),
  bytes: z.number().int().nonnegative(),
});

/** The rule settings that differ from pi's (the system prompt and tools have fields of their own). */
export const snapshotRulesSchema = settingsSchema.omit({ systemPrompt: true, tools: true });

export const snapshotSchema = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(SNAPSHOT_VERSION),
  createdAt: z.iso.datetime({ offset: true }),
  producer: z.object({ contextLens: z.string(), pi: z.string() }),
  session: z.object({
    /** The header id (pi's session id). */
    id: z.string().optional(),
    fileName: z.string(),
    cwd: z.string().optional(),
    /** The file's own format version, before migration. */
    version: z.number().int().min(1),
    parentSession: z.string().optional(),
    /** session_info name. */
    name: z.string().optional(),
  }),
  leaf: z.object({ ref, id: z.string().optional(), line }),
  /** Root → leaf. */
  path: z.array(pathEntrySchema).min(1, "a snapshot's path holds at least its leaf"),
  rules: z.object({
    /** The preset the settings started from, if known. */
    preset: z.string().optional(),
    /** Only what differs from pi's settings: {} is pi exactly. */
    settings: snapshotRulesSchema,
  }),
  model: z.object({
    provider: z.string(),
    id: z.string(),
    api: z.string(),
    name: z.string().optional(),
    /** The thinking level sent; absent = off. */
    reasoning: z.string().optional(),
    /** "PROVIDER/ID" the path ends with, when another model was chosen. */
    sessionModel: z.string().optional(),
  }),
  systemPrompt: z.string().optional(),
  tools: toolsSchema.optional(),
  payload: z.object({
    listKey: z.enum(["messages", "input", "contents"]),
    body: z.record(z.string(), z.unknown()),
    /** For each item of `body[listKey]`, the path entries it came from. */
    itemSources: z.array(z.array(ref)),
  }),
  findings: z.array(findingSchema),
  tokens: tokensSchema.optional(),
  redactions: z.array(redactionSchema),
  /** Images left out before sharing. */
  images: z.array(imageSchema),
});

export type Snapshot = z.infer<typeof snapshotSchema>;
export type SnapshotPathEntry = Snapshot["path"][number];
export type SnapshotFate = SnapshotPathEntry["fate"];
export type SnapshotFinding = Snapshot["findings"][number];
export type SnapshotTokens = z.infer<typeof tokensSchema>;
export type SnapshotRedaction = Snapshot["redactions"][number];
export type SnapshotImage = Snapshot["images"][number];

/** Position on the path of every ref. */
export function pathPositions(snapshot: Pick<Snapshot, "path">): Map<string, number> {
  return new Map(snapshot.path.map((entry, i) => [entry.ref, i]));
}

/** The payload item sources as path positions (what the payload view takes for entry indices). */
export function itemPositions(snapshot: Pick<Snapshot, "path" | "payload">): number[][] {
  const positions = pathPositions(snapshot);
  return snapshot.payload.itemSources.map((refs) =>
    refs.map((r) => positions.get(r)).filter((p): p is number => p !== undefined),
  );
}
