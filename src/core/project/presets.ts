/**
 * Presets: named rule settings, exported and imported as JSON (a preset file names only what differs from pi), and
 * the presets that come with Context Lens.
 */
import { checkData, z } from "../zod.ts";
import { parseJsonShallow } from "../nesting.ts";
import { err, ok, type Result } from "../result.ts";
import { PI_DEFAULTS, PI_VERSION, sameSetting, type RuleSettings } from "./rules.ts";

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
    if (!sameSetting(settings[key], PI_DEFAULTS[key])) diff[key] = settings[key];
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
    const parsed = checkData(presetSchema, data);
    if (!parsed.success) return err(`${source} is not a valid preset: ${describeIssue(parsed.error.issues[0]!)}`);
    return ok([{ name: parsed.data.name, settings: withDefaults(parsed.data.settings) }]);
  }
  if (format === "context-lens/presets") {
    const parsed = checkData(presetListSchema, data);
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
