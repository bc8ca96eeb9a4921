/**
 * Stage 5: the path from root to leaf → the agent messages pi would hold, as pi's `buildSessionContext`:
 * the latest compaction on the path replaces everything before its first kept entry with a summary;
 * branch summaries and extension messages (`custom_message`) become messages of their own.
 * Also returns the thinking level and model the path ends with, and why each path entry is or is not there.
 */
import { err, ok, type Result } from "../result.ts";
import { fieldText } from "../session/describe.ts";
import type { SessionEntry } from "../session/types.ts";
import { PerObject } from "./memo.ts";

/** An agent message (pi's AgentMessage: LLM roles plus bashExecution, custom, summaries), kept as plain data. */
export type AgentMessage = Readonly<Record<string, unknown>> & { readonly role?: unknown };

export interface ContextOptions {
  /** pi applies the latest compaction on the path; off = the whole uncompacted path. */
  readonly applyCompaction?: boolean;
  /** pi turns branch_summary entries into messages. */
  readonly includeBranchSummaries?: boolean;
  /** custom_message entries (extension messages) whose customType is listed here are left out (pi: none). */
  readonly excludeCustomTypes?: readonly string[];
  /** message entries with role "custom" whose customType is listed here are left out (pi: none). */
  readonly excludeCustomRoleTypes?: readonly string[];
}

export type ContextFate =
  | { readonly kind: "message" }
  | { readonly kind: "summarised"; readonly compaction: number }
  | { readonly kind: "compaction-summary" }
  | { readonly kind: "setting"; readonly what: "model" | "thinking level" }
  | { readonly kind: "no-message"; readonly reason: string }
  | { readonly kind: "excluded"; readonly rule: string; readonly reason: string };

export interface AgentContext {
  readonly messages: readonly AgentMessage[];
  /** For each message, the index of the entry it came from. */
  readonly sources: readonly number[];
  readonly thinkingLevel: string;
  readonly model: { readonly provider: string; readonly modelId: string } | undefined;
  /** Index of the compaction that was applied, if any. */
  readonly compaction: number | undefined;
  /** Fate of every entry on the path, by path position (`fates[i]` is the fate of the path's entry i). */
  readonly fates: readonly ContextFate[];
}

const time = (timestamp: unknown): number => new Date(timestamp as string).getTime();

/**
 * The message an entry becomes when pi builds one for it (summaries, extension messages), made once per entry:
 * every projection through the entry then meets the same object, so later stages can remember their work per
 * object. Never mutated.
 */
const built = new PerObject<object, AgentMessage>();

const once = (raw: object, build: () => AgentMessage): AgentMessage => built.get(raw, undefined, build);

/* Fates most entries share: one object each, not one per entry and projection. */
const IS_MESSAGE: ContextFate = { kind: "message" };
const MODEL_SETTING: ContextFate = { kind: "setting", what: "model" };
const THINKING_SETTING: ContextFate = { kind: "setting", what: "thinking level" };
const COMPACTION_SUMMARY: ContextFate = { kind: "compaction-summary" };

/** The fate of the entries a compaction summarised: one object per compaction, whichever path it is met on. */
const summarisedFates = new PerObject<object, ContextFate>();

const summarisedBy = (compaction: SessionEntry): ContextFate =>
  summarisedFates.get(compaction.raw, undefined, () => ({ kind: "summarised", compaction: compaction.index }));

/** What pi's `appendMessage` turns an entry into, if anything. */
function entryMessage(entry: SessionEntry, options: ContextOptions): AgentMessage | ContextFate {
  const raw = entry.raw;
  switch (entry.type) {
    case "message": {
      const message = raw["message"] as AgentMessage;
      if (message?.role === "custom" && options.excludeCustomRoleTypes?.includes(fieldText(message["customType"]))) {
        return {
          kind: "excluded",
          rule: "custom-role-types",
          reason: `custom-role message of type "${fieldText(message["customType"])}" left out by rule`,
        };
      }
      return message;
    }
    case "custom_message":
      if (options.excludeCustomTypes?.includes(fieldText(raw["customType"]))) {
        return {
          kind: "excluded",
          rule: "extension-types",
          reason: `extension message of type "${fieldText(raw["customType"])}" left out by rule`,
        };
      }
      return once(raw, () => ({
        role: "custom",
        customType: raw["customType"],
        content: raw["content"],
        display: raw["display"],
        details: raw["details"],
        timestamp: time(raw["timestamp"]),
      }));
    case "branch_summary":
      if (!raw["summary"]) return { kind: "no-message", reason: "branch summary with an empty summary (pi skips it)" };
      if (options.includeBranchSummaries === false)
        return { kind: "excluded", rule: "branch-summaries", reason: "branch summaries left out by rule" };
      return once(raw, () => ({
        role: "branchSummary",
        summary: raw["summary"],
        fromId: raw["fromId"],
        timestamp: time(raw["timestamp"]),
      }));
    case "model_change":
      return MODEL_SETTING;
    case "thinking_level_change":
      return THINKING_SETTING;
    case "compaction":
      return options.applyCompaction === false
        ? {
            kind: "excluded",
            rule: "apply-compaction",
            reason: "compaction not applied by rule: the whole path is sent",
          }
        : { kind: "no-message", reason: "an earlier compaction, superseded by a later one on this path" };
    default:
      return { kind: "no-message", reason: `${entry.type} entries do not reach the model` };
  }
}

function isFate(value: AgentMessage | ContextFate): value is ContextFate {
  return typeof (value as { kind?: unknown }).kind === "string" && !("role" in value);
}

/** What the path up to some entry has set: pi's thinking level and model, and its latest compaction. */
interface Settings {
  readonly thinkingLevel: string;
  readonly model: AgentContext["model"];
  /** Position of the latest compaction on the path. */
  readonly compaction: number | undefined;
  /** Why pi fails reading the path: its first message entry without a message. */
  readonly error: string | undefined;
}

const NO_SETTINGS: Settings = { thinkingLevel: "off", model: undefined, compaction: undefined, error: undefined };

/** The settings with this model: the same object when the model is the same (most assistant messages repeat it). */
function withModel(settings: Settings, provider: string, modelId: string): Settings {
  const model = settings.model;
  return model !== undefined && model.provider === provider && model.modelId === modelId
    ? settings
    : { ...settings, model: { provider, modelId } };
}

function settle(settings: Settings, entry: SessionEntry, position: number): Settings {
  const raw = entry.raw;
  switch (entry.type) {
    case "thinking_level_change":
      return { ...settings, thinkingLevel: raw["thinkingLevel"] as string };
    case "model_change":
      return withModel(settings, raw["provider"] as string, raw["modelId"] as string);
    case "compaction":
      return { ...settings, compaction: position };
    case "message": {
      const message = raw["message"];
      if (message === null || message === undefined)
        return settings.error !== undefined
          ? settings
          : { ...settings, error: `the message entry on line ${entry.line} has no message; pi fails reading it` };
      const m = message as Record<string, unknown>;
      return m["role"] === "assistant" ? withModel(settings, m["provider"] as string, m["model"] as string) : settings;
    }
    default:
      return settings;
  }
}

/**
 * The settings after an entry, kept every `SETTINGS_EVERY` positions and at each path's end: a path runs from the
 * root to its last entry, so the path up to an entry is always the same. Each request of a cache series walks a
 * path that extends the last one by a few entries; reading the settings walked it all again.
 */
const settingsAfter = new WeakMap<SessionEntry, Settings>();
const SETTINGS_EVERY = 64;

/** The path's thinking level and model, as pi reads them (the last change wins; assistant messages set the model). */
function readSettings({
  entries,
  indices,
}: EntryPath): Result<Pick<AgentContext, "thinkingLevel" | "model"> & { compaction: number | undefined }> {
  const entry = (position: number) => entries[indices[position] as number] as SessionEntry;
  // From the nearest kept settings: the path's own end, else the kept positions before it.
  let position = indices.length - 1;
  let settings = NO_SETTINGS;
  while (position >= 0) {
    const known = settingsAfter.get(entry(position));
    if (known !== undefined) {
      settings = known;
      break;
    }
    position = position % SETTINGS_EVERY === 0 ? position - SETTINGS_EVERY : position - (position % SETTINGS_EVERY);
  }
  for (position = Math.max(position, -1) + 1; position < indices.length; position += 1) {
    settings = settle(settings, entry(position), position);
    if (position % SETTINGS_EVERY === 0 || position === indices.length - 1)
      settingsAfter.set(entry(position), settings);
  }
  if (settings.error !== undefined) return err(settings.error);
  const { thinkingLevel, model, compaction } = settings;
  return ok({ thinkingLevel, model, compaction });
}

/**
 * The model the path ends with, as pi reads it, without making its messages (which can fail on data pi does not
 * write, where the model is still known); undefined when there is none or pi could not read the path's settings.
 */
export function pathModel(path: EntryPath): AgentContext["model"] {
  const settings = readSettings(path);
  return settings.ok ? settings.value.model : undefined;
}

/**
 * Where on the path the entries a compaction kept begin (its position when it kept none), per compaction: every
 * path through it shares the entries before it, and finding the first kept one walked them all for each request.
 */
const keptFrom = new PerObject<object, number>();

/**
 * Walks the path as pi's `buildSessionContext` does: every message it holds, in order, with the entry it came
 * from, and (when `fates` is given) why each path entry is or is not there.
 */
function walk(
  { entries, indices }: EntryPath,
  options: ContextOptions,
  at: number | undefined,
  onMessage: (message: AgentMessage, entry: number) => void,
  fates?: ContextFate[],
): void {
  const append = (entry: SessionEntry, position: number): void => {
    const result = entryMessage(entry, options);
    if (isFate(result)) {
      if (fates) fates[position] = result;
      return;
    }
    onMessage(result, entry.index);
    if (fates) fates[position] = IS_MESSAGE;
  };
  const entry = (position: number) => entries[indices[position] as number] as SessionEntry;
  const compaction = at === undefined ? undefined : entry(at);
  if (compaction === undefined || at === undefined) {
    for (let position = 0; position < indices.length; position += 1) append(entry(position), position);
    return;
  }
  const raw = compaction.raw;
  onMessage(
    once(raw, () => ({
      role: "compactionSummary",
      summary: raw["summary"],
      tokensBefore: raw["tokensBefore"],
      timestamp: time(raw["timestamp"]),
    })),
    compaction.index,
  );
  if (fates) fates[at] = COMPACTION_SUMMARY;
  const kept = keptFrom.get(raw, undefined, () => {
    const firstKept = raw["firstKeptEntryId"];
    for (let position = 0; position < at; position += 1) if (entry(position).raw["id"] === firstKept) return position;
    return at;
  });
  if (fates) fates.fill(summarisedBy(compaction), 0, kept);
  for (let position = kept; position < at; position += 1) append(entry(position), position);
  for (let position = at + 1; position < indices.length; position += 1) append(entry(position), position);
}

/** What a walk was given: walking it again gives the same messages. */
interface Walked {
  readonly path: EntryPath;
  readonly options: ContextOptions;
  readonly at: number | undefined;
}

/** An agent context whose entry fates are worked out when first read: counting a request never reads them. */
class WalkedContext implements AgentContext {
  readonly #walked: Walked;
  #fates: readonly ContextFate[] | undefined;

  constructor(
    readonly messages: readonly AgentMessage[],
    readonly sources: readonly number[],
    readonly thinkingLevel: string,
    readonly model: AgentContext["model"],
    readonly compaction: number | undefined,
    walked: Walked,
  ) {
    this.#walked = walked;
  }

  get fates(): readonly ContextFate[] {
    if (this.#fates === undefined) {
      const { path, options, at } = this.#walked;
      const fates = new Array<ContextFate>(path.indices.length);
      walk(path, options, at, () => undefined, fates);
      this.#fates = fates;
    }
    return this.#fates;
  }
}

/** A path: the indices of its entries, root first, read in the session's entries (not copied out of them). */
export interface EntryPath {
  readonly entries: readonly SessionEntry[];
  readonly indices: readonly number[];
}

/** pi's `buildSessionContext` over an already-walked path (root first), with provenance. */
export function toAgentMessages(path: EntryPath, options: ContextOptions = {}): Result<AgentContext> {
  const settings = readSettings(path);
  if (!settings.ok) return settings;
  const messages: AgentMessage[] = [];
  const sources: number[] = [];
  const at = options.applyCompaction === false ? undefined : settings.value.compaction;
  walk(path, options, at, (message, entry) => {
    messages.push(message);
    sources.push(entry);
  });
  const { thinkingLevel, model } = settings.value;
  const compaction = at === undefined ? undefined : path.indices[at];
  return ok(new WalkedContext(messages, sources, thinkingLevel, model, compaction, { path, options, at }));
}
