/**
 * Projection rules as data. A preset (presets.ts) is a complete set of rule settings; pi's defaults reproduce 0.73.1.
 * `projectionOptions` turns settings into the options the stage functions take, so every rule is applied by the
 * stage it belongs to (context, convert, transform, payload) and shows up in the fates of the entries it touches.
 */
import type { CacheRetention, SessionThinkingLevel, ToolDefinition } from "../llm/types.ts";
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

/** Two values of one setting are the same (settings are JSON values: lists and tools compare by content). */
export const sameSetting = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** True when the rule is set as pi sets it. */
export function isPiDefault(rule: Rule, settings: RuleSettings): boolean {
  if (rule.id === "bash" && settings.bash !== "head-tail") return settings.bash === "pi";
  return rule.keys.every((key) => sameSetting(settings[key], PI_DEFAULTS[key]));
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
