/**
 * Projection rules as data. A preset is a complete set of rule settings; the default preset reproduces pi 0.73.1.
 * `projectionOptions` turns settings into the options the stage functions take, so every rule is applied by the
 * stage it belongs to (context, convert, transform, payload) and shows up in the fates of the entries it touches.
 */
import { z } from "../zod.ts";
import type { CacheRetention, SessionThinkingLevel, ToolDefinition } from "../llm/types.ts";
import { parseJsonShallow } from "../nesting.ts";
import { err, ok, type Result } from "../result.ts";
import type { BashMode } from "./convert.ts";
import type { ProjectionOptions } from "./project.ts";

export const PI_VERSION = "0.73.1";

export type RuleStage = "context" | "convert" | "transform" | "payload";

/** Everything a preset decides. Missing fields in a preset file take the pi default. */
export interface RuleSettings {
  readonly applyCompaction: boolean;
  readonly branchSummaries: boolean;
  /** customTypes of extension messages (custom_message entries) left out. */
  readonly dropExtensionTypes: readonly string[];
  /** customTypes of custom-role messages (message entries with role "custom") left out. */
  readonly dropCustomRoleTypes: readonly string[];
  readonly bash: BashMode;
  readonly bashHead: number;
  readonly bashTail: number;
  readonly honourExcludeFromContext: boolean;
  readonly blockImages: boolean;
  readonly dropThinking: boolean;
  /** null = no limit (pi). */
  readonly truncateToolResults: number | null;
  readonly redactSecrets: boolean;
  readonly dropFailedTurns: boolean;
  readonly synthesizeMissingResults: boolean;
  readonly crossModelThinking: "text" | "drop";
  /** "session" = the path's own thinking level (pi). */
  readonly thinkingLevel: "session" | SessionThinkingLevel;
  /** "default" = pi-ai's default retention. */
  readonly cacheRetention: "default" | CacheRetention;
  /** The system prompt and tools are not in session files; empty as when pi exports a session. */
  readonly systemPrompt: string;
  readonly tools: readonly ToolDefinition[];
}

export const PI_DEFAULTS: RuleSettings = Object.freeze({
  applyCompaction: true,
  branchSummaries: true,
  dropExtensionTypes: [],
  dropCustomRoleTypes: [],
  bash: "pi",
  bashHead: 20,
  bashTail: 20,
  honourExcludeFromContext: true,
  blockImages: false,
  dropThinking: false,
  truncateToolResults: null,
  redactSecrets: false,
  dropFailedTurns: true,
  synthesizeMissingResults: true,
  crossModelThinking: "text",
  thinkingLevel: "session",
  cacheRetention: "default",
  systemPrompt: "",
  tools: [],
});

/** How a rule is edited in the rules panel. */
export type RuleControl =
  | { readonly kind: "toggle" }
  | { readonly kind: "choice"; readonly options: readonly { readonly value: string; readonly label: string }[] }
  | { readonly kind: "limit"; readonly unit: string; readonly suggested: number }
  | { readonly kind: "types"; readonly of: "extension" | "custom-role" }
  | { readonly kind: "text" }
  | { readonly kind: "tools" };

export interface Rule {
  /** Also the `rule` named in entry fates ("excluded by rule …", "changed by rule …"). */
  readonly id: string;
  readonly stage: RuleStage;
  readonly label: string;
  readonly description: string;
  /** The settings this rule owns. */
  readonly keys: readonly (keyof RuleSettings)[];
  readonly control: RuleControl;
}

export const RULES: readonly Rule[] = [
  {
    id: "apply-compaction",
    stage: "context",
    label: "Apply compaction",
    description:
      "Replace everything before the latest compaction's first kept entry with its summary; off sends the whole path.",
    keys: ["applyCompaction"],
    control: { kind: "toggle" },
  },
  {
    id: "branch-summaries",
    stage: "context",
    label: "Branch summaries",
    description: "Send the summary of a branch the conversation came back from as a user message.",
    keys: ["branchSummaries"],
    control: { kind: "toggle" },
  },
  {
    id: "extension-types",
    stage: "context",
    label: "Extension messages",
    description:
      "Extension messages (custom_message entries) are sent as user messages; left-out types are listed here.",
    keys: ["dropExtensionTypes"],
    control: { kind: "types", of: "extension" },
  },
  {
    id: "custom-role-types",
    stage: "context",
    label: "Custom-role messages",
    description:
      "Messages with role custom (e.g. ui_status) are sent as user messages; left-out types are listed here.",
    keys: ["dropCustomRoleTypes"],
    control: { kind: "types", of: "custom-role" },
  },
  {
    id: "bash",
    stage: "convert",
    label: "Bash executions",
    description:
      "Commands the user ran with ! become user messages: as pi, left out, or only their first and last lines.",
    keys: ["bash", "bashHead", "bashTail"],
    control: {
      kind: "choice",
      options: [
        { value: "pi", label: "as pi" },
        { value: "exclude", label: "exclude all" },
        { value: "head-tail", label: "head and tail lines" },
      ],
    },
  },
  {
    id: "exclude-from-context",
    stage: "convert",
    label: "Honour excludeFromContext",
    description: "Leave out bash commands run with !! (excludeFromContext), as pi does; off sends them too.",
    keys: ["honourExcludeFromContext"],
    control: { kind: "toggle" },
  },
  {
    id: "block-images",
    stage: "convert",
    label: "Block images",
    description: 'pi\'s images.blockImages setting: every image becomes "Image reading is disabled.".',
    keys: ["blockImages"],
    control: { kind: "toggle" },
  },
  {
    id: "drop-thinking",
    stage: "convert",
    label: "Drop thinking",
    description: "Leave out every thinking block of earlier assistant turns.",
    keys: ["dropThinking"],
    control: { kind: "toggle" },
  },
  {
    id: "truncate-tool-results",
    stage: "convert",
    label: "Truncate tool results",
    description: "Cut tool results longer than a number of characters, saying so at the end of the text.",
    keys: ["truncateToolResults"],
    control: { kind: "limit", unit: "characters", suggested: 20_000 },
  },
  {
    id: "redact-secrets",
    stage: "convert",
    label: "Redact secrets",
    description: "Replace API keys, tokens, private keys and secret assignments with a marker naming what was there.",
    keys: ["redactSecrets"],
    control: { kind: "toggle" },
  },
  {
    id: "drop-failed-turns",
    stage: "transform",
    label: "Drop errored and aborted turns",
    description: "pi-ai leaves out assistant turns that ended in an error or were aborted.",
    keys: ["dropFailedTurns"],
    control: { kind: "toggle" },
  },
  {
    id: "synthesize-missing-results",
    stage: "transform",
    label: "Results for orphaned tool calls",
    description: 'pi-ai answers tool calls that have no result with an error result "No result provided".',
    keys: ["synthesizeMissingResults"],
    control: { kind: "toggle" },
  },
  {
    id: "cross-model-thinking",
    stage: "transform",
    label: "Other models' thinking",
    description: "pi-ai sends thinking written by another model as plain text; it can be left out instead.",
    keys: ["crossModelThinking"],
    control: {
      kind: "choice",
      options: [
        { value: "text", label: "as text (pi-ai)" },
        { value: "drop", label: "leave out" },
      ],
    },
  },
  {
    id: "thinking-level",
    stage: "payload",
    label: "Thinking level",
    description: "The reasoning level sent to the model; pi uses the level in force at the leaf.",
    keys: ["thinkingLevel"],
    control: {
      kind: "choice",
      options: [
        { value: "session", label: "the session's" },
        ...(["off", "minimal", "low", "medium", "high", "xhigh"] as const).map((v) => ({ value: v, label: v })),
      ],
    },
  },
  {
    id: "cache-retention",
    stage: "payload",
    label: "Cache retention",
    description: "Prompt-cache retention pi-ai asks the provider for (none, short or long).",
    keys: ["cacheRetention"],
    control: {
      kind: "choice",
      options: [
        { value: "default", label: "pi-ai default" },
        { value: "none", label: "none" },
        { value: "short", label: "short" },
        { value: "long", label: "long" },
      ],
    },
  },
  {
    id: "system-prompt",
    stage: "payload",
    label: "System prompt",
    description: "Session files do not hold the system prompt; paste the one your agent uses.",
    keys: ["systemPrompt"],
    control: { kind: "text" },
  },
  {
    id: "tools",
    stage: "payload",
    label: "Tool definitions",
    description:
      "Session files do not hold the tool definitions; paste them as a JSON array of {name, description, parameters}.",
    keys: ["tools"],
    control: { kind: "tools" },
  },
];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.id === id);
}

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** True when the rule is set as pi sets it. */
export function isPiDefault(rule: Rule, settings: RuleSettings): boolean {
  if (rule.id === "bash" && settings.bash !== "head-tail") return settings.bash === "pi";
  return rule.keys.every((key) => sameValue(settings[key], PI_DEFAULTS[key]));
}

/** The rules whose settings differ from pi's. */
export function changedRules(settings: RuleSettings): Rule[] {
  return RULES.filter((rule) => !isPiDefault(rule, settings));
}

/** The stage options for these settings (the model is chosen separately). */
export function projectionOptions(settings: RuleSettings): ProjectionOptions {
  return {
    applyCompaction: settings.applyCompaction,
    includeBranchSummaries: settings.branchSummaries,
    excludeCustomTypes: settings.dropExtensionTypes,
    excludeCustomRoleTypes: settings.dropCustomRoleTypes,
    honourExcludeFromContext: settings.honourExcludeFromContext,
    blockImages: settings.blockImages,
    ...(settings.bash === "pi"
      ? {}
      : { bash: { mode: settings.bash, head: settings.bashHead, tail: settings.bashTail } }),
    dropThinking: settings.dropThinking,
    ...(settings.truncateToolResults === null ? {} : { truncateToolResults: settings.truncateToolResults }),
    redactSecrets: settings.redactSecrets,
    transform: {
      dropFailedTurns: settings.dropFailedTurns,
      synthesizeMissingResults: settings.synthesizeMissingResults,
      crossModelThinking: settings.crossModelThinking,
    },
    ...(settings.thinkingLevel === "session" ? {} : { thinkingLevel: settings.thinkingLevel }),
    ...(settings.cacheRetention === "default" ? {} : { cacheRetention: settings.cacheRetention }),
    ...(settings.systemPrompt === "" ? {} : { systemPrompt: settings.systemPrompt }),
    ...(settings.tools.length === 0 ? {} : { tools: settings.tools }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Presets: named settings, exported and imported as JSON.

export const PRESET_FORMAT = "context-lens/preset";
export const PRESET_VERSION = 1;

export interface Preset {
  readonly name: string;
  readonly settings: RuleSettings;
}

const levels = ["off", "minimal", "low", "medium", "high", "xhigh"] as const;

export const toolDefinitionSchema = z.object({
  name: z.string().min(1, "a tool needs a name"),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
});

export const toolsSchema = z.array(toolDefinitionSchema);

/** Every setting optional: a preset file names what it changes, the rest is pi's. Unknown fields are refused. */
export const settingsSchema = z
  .object({
    applyCompaction: z.boolean(),
    branchSummaries: z.boolean(),
    dropExtensionTypes: z.array(z.string()),
    dropCustomRoleTypes: z.array(z.string()),
    bash: z.enum(["pi", "exclude", "head-tail"]),
    bashHead: z.number().int().min(0).max(100_000),
    bashTail: z.number().int().min(0).max(100_000),
    honourExcludeFromContext: z.boolean(),
    blockImages: z.boolean(),
    dropThinking: z.boolean(),
    truncateToolResults: z.number().int().min(1).nullable(),
    redactSecrets: z.boolean(),
    dropFailedTurns: z.boolean(),
    synthesizeMissingResults: z.boolean(),
    crossModelThinking: z.enum(["text", "drop"]),
    thinkingLevel: z.enum(["session", ...levels]),
    cacheRetention: z.enum(["default", "none", "short", "long"]),
    systemPrompt: z.string(),
    tools: toolsSchema,
  })
  .partial()
  .strict();

const presetSchema = z.object({
  format: z.literal(PRESET_FORMAT),
  version: z.literal(PRESET_VERSION),
  name: z.string().trim().min(1, "a preset needs a name").max(200),
  settings: settingsSchema,
});

const presetListSchema = z.object({
  format: z.literal("context-lens/presets"),
  version: z.literal(PRESET_VERSION),
  presets: z.array(presetSchema.omit({ format: true, version: true })),
});

export function withDefaults(partial: z.infer<typeof settingsSchema>): RuleSettings {
  return { ...PI_DEFAULTS, ...partial } as RuleSettings;
}

/** Only the settings that differ from pi's, so an exported preset reads as what it changes. */
export function settingsDiff(settings: RuleSettings): Partial<RuleSettings> {
  const diff: Record<string, unknown> = {};
  for (const key of Object.keys(PI_DEFAULTS) as (keyof RuleSettings)[]) {
    if (!sameValue(settings[key], PI_DEFAULTS[key])) diff[key] = settings[key];
  }
  return diff as Partial<RuleSettings>;
}

export function presetToJson(preset: Preset): string {
  return JSON.stringify(
    { format: PRESET_FORMAT, version: PRESET_VERSION, name: preset.name, settings: settingsDiff(preset.settings) },
    null,
    2,
  );
}

export function presetsToJson(presets: readonly Preset[]): string {
  return JSON.stringify(
    {
      format: "context-lens/presets",
      version: PRESET_VERSION,
      presets: presets.map((p) => ({ name: p.name, settings: settingsDiff(p.settings) })),
    },
    null,
    2,
  );
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.map(String).join(".") : "the top level";
  if (issue.code === "unrecognized_keys")
    return `at ${where}: unknown setting ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  return `at ${where}: ${issue.message}`;
}

/** Reads a preset file (one preset or a list of them); says what is wrong and where when it is not one. */
export function parsePresets(text: string, source = "the preset file"): Result<Preset[]> {
  let data: unknown;
  try {
    data = parseJsonShallow(text);
  } catch (error) {
    return err(
      `${source} ${error instanceof RangeError ? "cannot be used" : "is not JSON"} (${(error as Error).message})`,
    );
  }
  const format = (data as { format?: unknown } | null)?.format;
  if (format === PRESET_FORMAT) {
    const parsed = presetSchema.safeParse(data);
    if (!parsed.success) return err(`${source} is not a valid preset: ${describeIssue(parsed.error.issues[0]!)}`);
    return ok([{ name: parsed.data.name, settings: withDefaults(parsed.data.settings) }]);
  }
  if (format === "context-lens/presets") {
    const parsed = presetListSchema.safeParse(data);
    if (!parsed.success) return err(`${source} is not a valid preset list: ${describeIssue(parsed.error.issues[0]!)}`);
    return ok(parsed.data.presets.map((p) => ({ name: p.name, settings: withDefaults(p.settings) })));
  }
  if (format === "context-lens/snapshot") return err(`${source} is a Context Lens snapshot, not a preset`);
  return err(
    `${source} is not a Context Lens preset (expected "format": "${PRESET_FORMAT}" or "context-lens/presets"${format === undefined ? "" : `, found ${JSON.stringify(format)}`})`,
  );
}

/** Presets that come with Context Lens. The first is pi itself. */
export const BUILT_IN_PRESETS: readonly Preset[] = [
  { name: `pi ${PI_VERSION}`, settings: PI_DEFAULTS },
  { name: "Whole path (no compaction)", settings: { ...PI_DEFAULTS, applyCompaction: false } },
  {
    name: "Lean",
    settings: {
      ...PI_DEFAULTS,
      bash: "head-tail",
      dropThinking: true,
      truncateToolResults: 20_000,
      redactSecrets: true,
    },
  },
];

/** A built-in preset by name (case- and space-insensitive: "pi", "lean", "whole-path"). */
export function builtInPreset(name: string): Preset | undefined {
  const key = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (key === "pi" || key === `pi${PI_VERSION.replace(/\./g, "")}` || key === "default") return BUILT_IN_PRESETS[0];
  return BUILT_IN_PRESETS.find((p) => {
    const own = p.name.toLowerCase().replace(/[^a-z0-9]/g, "");
    return own === key || own.startsWith(key);
  });
}
