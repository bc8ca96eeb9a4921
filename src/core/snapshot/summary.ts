/** What a snapshot holds, in the few facts a person reads first (the review, the snapshot view, `snapshot --open`). */
import { changedRules, PI_VERSION, type RuleSettings } from "../project/rules.ts";
import { withDefaults } from "../project/presets.ts";
import type { Snapshot, SnapshotFate } from "./schema.ts";

export interface SnapshotSummary {
  /** "sample.jsonl (019c…)" */
  readonly session: string;
  /** The session's name and working directory, when it has them. */
  readonly sessionName: string | undefined;
  readonly cwd: string | undefined;
  /** The preset the rules started from, when recorded. */
  readonly preset: string | undefined;
  /** "line 57 (a5)" */
  readonly leaf: string;
  readonly pathLength: number;
  /** How many path entries met each fate. */
  readonly fates: Readonly<Partial<Record<SnapshotFate["kind"], number>>>;
  /** "openai/gpt-5.1-codex (openai-responses), thinking high" */
  readonly model: string;
  /** "pi 0.73.1 exactly", or the labels of the rules that differ from pi. */
  readonly rules: string;
  readonly changedRules: readonly string[];
  readonly systemPrompt: string;
  readonly tools: string;
  readonly items: number;
  /** What the items are called: "messages", "input", "contents". */
  readonly listKey: string;
  /** Bytes of the payload body as compact JSON. */
  readonly payloadBytes: number;
  /** "≈12,345 tokens (calibrated; …)" or undefined when not counted. */
  readonly tokens: string | undefined;
}

const count = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The full settings the snapshot was made with. */
export function snapshotSettings(snapshot: Snapshot): RuleSettings {
  return withDefaults({
    ...snapshot.rules.settings,
    ...(snapshot.systemPrompt !== undefined ? { systemPrompt: snapshot.systemPrompt } : {}),
    ...(snapshot.tools !== undefined ? { tools: snapshot.tools } : {}),
  });
}

const TOKEN_MARK = { exact: "", calibrated: "≈", estimated: "~" } as const;

export function summarizeSnapshot(snapshot: Snapshot): SnapshotSummary {
  const fates: Partial<Record<SnapshotFate["kind"], number>> = {};
  for (const entry of snapshot.path) fates[entry.fate.kind] = (fates[entry.fate.kind] ?? 0) + 1;
  const changed = changedRules(snapshotSettings(snapshot)).map((r) => r.label);
  const { model, tokens } = snapshot;
  const list = snapshot.payload.body[snapshot.payload.listKey];
  return {
    session: `${snapshot.session.fileName}${snapshot.session.id ? ` (${snapshot.session.id})` : ""}`,
    sessionName: snapshot.session.name || undefined,
    cwd: snapshot.session.cwd || undefined,
    preset: snapshot.rules.preset || undefined,
    leaf: `line ${snapshot.leaf.line}${snapshot.leaf.id ? ` (${snapshot.leaf.id})` : ""}`,
    pathLength: snapshot.path.length,
    fates,
    model: `${model.provider}/${model.id} (${model.api}), thinking ${model.reasoning ?? "off"}${model.sessionModel ? `; the session used ${model.sessionModel}` : ""}`,
    rules: changed.length === 0 ? `pi ${PI_VERSION} exactly` : `differs from pi ${PI_VERSION}: ${changed.join(", ")}`,
    changedRules: changed,
    systemPrompt: snapshot.systemPrompt === undefined ? "none given" : count(snapshot.systemPrompt.length, "character"),
    tools:
      snapshot.tools === undefined || snapshot.tools.length === 0
        ? "none given"
        : `${count(snapshot.tools.length, "tool")}: ${snapshot.tools.map((t) => t.name).join(", ")}`,
    items: Array.isArray(list) ? list.length : 0,
    listKey: snapshot.payload.listKey,
    payloadBytes: new TextEncoder().encode(JSON.stringify(snapshot.payload.body)).length,
    tokens: tokens
      ? `${TOKEN_MARK[tokens.kind]}${tokens.total.toLocaleString("en-US")} tokens, ${tokens.kind} (${tokens.tokenizer}${tokens.basis ? `; ${tokens.basis}` : ""})`
      : undefined,
  };
}

/** "25 in the payload, 10 summarised, 3 not messages" */
export function describeFates(fates: SnapshotSummary["fates"]): string {
  const words: Record<SnapshotFate["kind"], string> = {
    "in-context": "in the payload",
    "compaction-summary": "compaction summary",
    summarised: "summarised",
    setting: "settings",
    "no-message": "not messages",
    excluded: "excluded by rules",
    dropped: "dropped",
  };
  return Object.entries(fates)
    .map(([kind, n]) => `${n} ${words[kind as SnapshotFate["kind"]]}`)
    .join(", ");
}
