/**
 * Builds a snapshot from a projection. The snapshot holds everything as it is — secrets and images included —
 * and is never exported as such: `prepareExport` (export.ts) is the one way out.
 */
import type { ModelInfo } from "../llm/types.ts";
import { projectLeaf, type EntryFate, type Projection } from "../project/project.ts";
import { PI_VERSION, projectionOptions, ruleById, type RuleSettings } from "../project/rules.ts";
import { settingsDiff } from "../project/presets.ts";
import { validateProjection } from "../project/validate.ts";
import { findModel, parseModelRef } from "../models/registry.ts";
import { freshDataUrls } from "../providers/common.ts";
import { err, ok, type Result } from "../result.ts";
import { CURRENT_VERSION } from "../session/migrate.ts";
import type { EntryTree } from "../session/tree.ts";
import { bytesToBase64 } from "./base64.ts";
import { CONTEXT_LENS_VERSION } from "./producer.ts";
import { snapshotTokens, type CountedTokens } from "./tokens.ts";
import {
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  snapshotRulesSchema,
  type Snapshot,
  type SnapshotFate,
  type SnapshotPathEntry,
  type SnapshotTokens,
} from "./schema.ts";

export interface SnapshotOptions {
  /** The version of Context Lens making the snapshot; this one's (package.json) when absent. */
  readonly contextLensVersion?: string;
  /** ISO time; now when absent. */
  readonly createdAt?: string;
  /** The preset the settings started from. */
  readonly preset?: string;
  /** Token figures, when counted (the count is optional and made elsewhere): as they are, or the count itself. */
  readonly tokens?: SnapshotTokens | CountedTokens;
}

/** How the snapshot names an entry: its id when unique on the path (and not empty), else `line:N`. */
function pathRefs(tree: EntryTree, path: readonly number[]): Map<number, string> {
  const seen = new Map<string, number>();
  for (const i of path) {
    const id = tree.entries[i]?.id;
    if (id) seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  return new Map(
    path.map((i) => {
      const entry = tree.entries[i]!;
      return [i, entry.id && seen.get(entry.id) === 1 ? entry.id : `line:${entry.line}`];
    }),
  );
}

/** One sentence saying what became of an entry. */
export function describeFate(fate: EntryFate, lineOf: (entry: number) => number | undefined): SnapshotFate {
  switch (fate.kind) {
    case "in-context":
      return fate.changedBy?.length
        ? {
            kind: fate.kind,
            reason: `in the payload, changed by rule ${fate.changedBy.map((r) => ruleById(r)?.label ?? r).join(", ")}`,
            changedBy: [...fate.changedBy],
          }
        : { kind: fate.kind, reason: "in the payload" };
    case "compaction-summary":
      return { kind: fate.kind, reason: "in the payload as the compaction's summary" };
    case "summarised":
      return { kind: fate.kind, reason: `summarised by the compaction on line ${lineOf(fate.compaction) ?? "?"}` };
    case "setting":
      return { kind: fate.kind, reason: `sets the ${fate.what}; not a message` };
    case "no-message":
      return { kind: fate.kind, reason: fate.reason };
    case "excluded":
      return {
        kind: fate.kind,
        reason: `excluded by rule ${ruleById(fate.rule)?.label ?? fate.rule}: ${fate.reason}`,
        rule: fate.rule,
      };
    case "dropped":
      return { kind: fate.kind, reason: `dropped: ${fate.reason}` };
  }
}

const entryType = (tree: EntryTree, i: number): string => {
  const entry = tree.entries[i]!;
  const role = (entry.raw["message"] as { role?: unknown } | undefined)?.role;
  return entry.type === "message" && typeof role === "string" ? `message/${role}` : entry.type;
};

/**
 * The body as JSON holds it: binary data (Bedrock's image bytes) as base64, as the AWS SDK sends it, and data URLs
 * written from fresh strings (see `freshDataUrls`).
 */
function jsonBody(body: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(body, (key, value: unknown) =>
      ArrayBuffer.isView(value)
        ? bytesToBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength))
        : freshDataUrls(key, value),
    ),
  ) as Record<string, unknown>;
}

/**
 * The file's format version as a snapshot holds it, an integer from 1: a header version pi never writes (0.5, -3,
 * 2.5, 1e400) is recorded as the version pi reads it as — below 2 is 1, below 3 is 2, above 3 a newer one.
 */
function formatVersion(version: number): number {
  if (Number.isSafeInteger(version) && version >= 1) return version;
  if (version < 2) return 1;
  if (version < 3) return 2;
  return Number.isSafeInteger(Math.ceil(version)) ? Math.ceil(version) : CURRENT_VERSION + 1;
}

function sessionOf(tree: EntryTree): Snapshot["session"] {
  const header = tree.file.header;
  return {
    ...(header?.id !== undefined ? { id: header.id } : {}),
    fileName: tree.file.name,
    ...(typeof header?.cwd === "string" ? { cwd: header.cwd } : {}),
    version: formatVersion(tree.file.version),
    ...(typeof header?.parentSession === "string" ? { parentSession: header.parentSession } : {}),
    ...(tree.name !== undefined ? { name: tree.name } : {}),
  };
}

function modelOf(projection: Projection): Snapshot["model"] {
  const own = projection.context.model;
  // A model_change of a damaged file may name its model with anything; only strings make a "PROVIDER/ID".
  const named = typeof own?.provider === "string" && typeof own.modelId === "string";
  const sessionRef = named ? `${own.provider}/${own.modelId}` : undefined;
  const { provider, id, api, name } = projection.model;
  return {
    provider,
    id,
    api,
    name,
    // A thinking level of another type than pi's strings (a damaged file) is not one the snapshot can name.
    ...(typeof projection.reasoning === "string" ? { reasoning: projection.reasoning } : {}),
    ...(sessionRef !== undefined && sessionRef !== `${provider}/${id}` ? { sessionModel: sessionRef } : {}),
  };
}

function pathOf(tree: EntryTree, projection: Projection, refOf: (i: number) => string): SnapshotPathEntry[] {
  const lineOf = (i: number) => tree.entries[i]?.line;
  return projection.path.map((i) => {
    const entry = tree.entries[i]!;
    const fate = projection.fates.get(i) ?? { kind: "no-message", reason: "not read by pi" };
    return {
      ref: refOf(i),
      ...(entry.id !== undefined ? { id: entry.id } : {}),
      line: entry.line,
      type: entryType(tree, i),
      fate: describeFate(fate, lineOf),
    };
  });
}

/** The snapshot of a projection already made with these settings. */
export function snapshotFromProjection(
  tree: EntryTree,
  projection: Projection,
  settings: RuleSettings,
  options: SnapshotOptions = {},
): Snapshot {
  const refs = pathRefs(tree, projection.path);
  const refOf = (i: number): string => refs.get(i) ?? `line:${tree.entries[i]?.line ?? 0}`;
  const list = projection.payload.body[projection.payload.listKey];
  const tokens =
    options.tokens && "items" in options.tokens
      ? snapshotTokens(options.tokens, Array.isArray(list) ? list.length : 0)
      : options.tokens;
  const transform = projectionOptions(settings).transform;
  const findings = validateProjection(projection, {
    ...(transform ? { transform } : {}),
    ...(tokens ? { promptTokens: tokens.total } : {}),
  });
  const { systemPrompt, tools, ...rules } = settingsDiff(settings);
  const leaf = tree.entries[projection.leaf]!;
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    createdAt: options.createdAt ?? new Date().toISOString(),
    producer: { contextLens: options.contextLensVersion ?? CONTEXT_LENS_VERSION, pi: PI_VERSION },
    session: sessionOf(tree),
    leaf: { ref: refOf(projection.leaf), ...(leaf.id !== undefined ? { id: leaf.id } : {}), line: leaf.line },
    path: pathOf(tree, projection, refOf),
    rules: {
      ...(options.preset !== undefined ? { preset: options.preset } : {}),
      settings: snapshotRulesSchema.parse(rules),
    },
    model: modelOf(projection),
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(tools !== undefined ? { tools: tools.map((t) => ({ ...t })) } : {}),
    payload: {
      listKey: projection.payload.listKey,
      body: jsonBody(projection.payload.body),
      itemSources: projection.itemSources.map((sources) => sources.map(refOf)),
    },
    findings: findings.map((f) => ({ ...f, entries: f.entries.map(refOf) })),
    ...(tokens ? { tokens } : {}),
    redactions: projection.llm.redactions.map((r) => {
      const from = refOf(projection.llmSources[r.message]!);
      return {
        kind: r.kind,
        label: r.label,
        replacement: r.replacement,
        where: `the message from ${from}, at ${r.path || "its text"}`,
        by: "rule" as const,
        entries: [from],
      };
    }),
    images: [],
  };
}

/**
 * The snapshot of the path to `leaf` under `settings`, for `model` (undefined = the model the path ends with).
 * Fails where the projection fails (no model on the path, a payload pi-ai would refuse to build), and when the
 * payload cannot be written as JSON (a value of the session nested thousands deep overflows `JSON.stringify`).
 */
export function createSnapshot(
  tree: EntryTree,
  leaf: number,
  settings: RuleSettings,
  model: ModelInfo | undefined,
  options: SnapshotOptions = {},
): Result<Snapshot> {
  const base = projectionOptions(settings);
  const projection = projectLeaf(tree, leaf, model ? { ...base, model } : base);
  if (!projection.ok) return projection;
  try {
    return ok(snapshotFromProjection(tree, projection.value, settings, options));
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return err(`the payload cannot be written as JSON (${error.message}): the session holds a value nested too deep`);
  }
}

/** `createSnapshot` for a model named "PROVIDER/ID" (undefined = the path's own), as the app's worker is asked. */
export function createSnapshotFor(
  tree: EntryTree,
  leaf: number,
  settings: RuleSettings,
  modelRef: string | undefined,
  options: SnapshotOptions = {},
): Result<Snapshot> {
  if (tree.entries[leaf] === undefined) return err(`${tree.file.name} has no entry ${leaf}`);
  if (modelRef === undefined) return createSnapshot(tree, leaf, settings, undefined, options);
  const parsed = parseModelRef(modelRef);
  const model = parsed && findModel(parsed.provider, parsed.id);
  return model
    ? createSnapshot(tree, leaf, settings, model, options)
    : err(`${modelRef} is not a model in pi-ai's registry (nor in a models.json in use)`);
}
