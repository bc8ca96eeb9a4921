/**
 * `--rules PRESET|FILE[#NAME]`, `--system FILE`, `--tools FILE`, `--block-images`: the projection settings of a
 * command, shared by payload, tokens, diff and snapshot.
 */
import { readFile } from "node:fs/promises";
import type { ToolDefinition } from "../core/llm/types.ts";
import { err, ok, type Result } from "../core/result.ts";
import { checkData } from "../core/zod.ts";
import { PI_DEFAULTS, type RuleSettings } from "../core/project/rules.ts";
import { BUILT_IN_PRESETS, builtInPreset, parsePresets, toolsSchema, type Preset } from "../core/project/presets.ts";
import type { Options } from "./args.ts";

export const RULE_OPTIONS: Options = {
  rules: { type: "string" },
  "block-images": { type: "boolean" },
  system: { type: "string" },
  tools: { type: "string" },
};

export const RULES_USAGE = "[--rules PRESET|FILE[#NAME]] [--block-images] [--system FILE] [--tools FILE]";

const builtInNames = (): string => BUILT_IN_PRESETS.map((p) => `"${p.name}"`).join(", ");

/** A built-in preset by name, or a preset file (one preset, or a list with `#NAME` choosing one). */
export async function readPreset(ref: string): Promise<Result<Preset>> {
  const builtIn = builtInPreset(ref);
  if (builtIn) return ok(builtIn);
  const hash = ref.lastIndexOf("#");
  const path = hash > 0 ? ref.slice(0, hash) : ref;
  const wanted = hash > 0 ? ref.slice(hash + 1) : undefined;
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return err(
      code === "ENOENT"
        ? `--rules ${ref}: neither a built-in preset (${builtInNames()}) nor a file`
        : `${path}: cannot read the preset file (${code ?? String(error)})`,
    );
  }
  const presets = parsePresets(text, path);
  if (!presets.ok) return presets;
  if (wanted !== undefined) {
    const found = presets.value.find((p) => p.name === wanted);
    return found
      ? ok(found)
      : err(`${path}: no preset named "${wanted}" (it has ${presets.value.map((p) => `"${p.name}"`).join(", ")})`);
  }
  if (presets.value.length === 1) return ok(presets.value[0] as Preset);
  return err(
    `${path} holds ${presets.value.length} presets; choose one with ${path}#NAME (${presets.value.map((p) => `"${p.name}"`).join(", ")})`,
  );
}

async function readTools(path: string): Promise<Result<ToolDefinition[]>> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    return err(`${path}: cannot read the tool definitions (${(error as Error).message})`);
  }
  const parsed = checkData(toolsSchema, data);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  return err(
    `${path}: tool definitions must be a JSON array of {name, description, parameters}; at ${issue?.path.join(".") || "(top)"}: ${issue?.message}`,
  );
}

/** The settings named by a command's options: the preset (default pi's), then the explicit overrides. */
export async function readRuleSettings(
  values: Record<string, unknown>,
  rulesRef: string | undefined = typeof values["rules"] === "string" ? values["rules"] : undefined,
): Promise<Result<RuleSettings>> {
  let settings: RuleSettings = PI_DEFAULTS;
  if (rulesRef !== undefined) {
    const preset = await readPreset(rulesRef);
    if (!preset.ok) return preset;
    settings = preset.value.settings;
  }
  if (values["block-images"]) settings = { ...settings, blockImages: true };
  if (typeof values["system"] === "string") {
    try {
      settings = { ...settings, systemPrompt: await readFile(values["system"], "utf8") };
    } catch (error) {
      return err(
        `${values["system"]}: cannot read the system prompt (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
  }
  if (typeof values["tools"] === "string") {
    const tools = await readTools(values["tools"]);
    if (!tools.ok) return tools;
    settings = { ...settings, tools: tools.value };
  }
  return ok(settings);
}
