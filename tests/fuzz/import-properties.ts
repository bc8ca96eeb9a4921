/**
 * What a person imports beside sessions, damaged: a models.json (custom providers and overrides), a preset file or
 * list, a tool list. Reading never throws and says what is wrong; what it accepts is used as the app uses it (a
 * session projected for each custom or overridden model, under each preset, with the tools), and that projection
 * is a JSON payload or a stated error.
 */
import fc from "fast-check";
import { readModelsJson } from "../../src/core/models/models-json.ts";
import { builtInModels } from "../../src/core/models/registry.ts";
import type { ModelInfo } from "../../src/core/llm/types.ts";
import { projectLeaf, type ProjectionOptions } from "../../src/core/project/project.ts";
import {
  BUILT_IN_PRESETS,
  parsePresets,
  presetsToJson,
  presetToJson,
  toolsSchema,
} from "../../src/core/project/presets.ts";
import { PI_DEFAULTS, projectionOptions } from "../../src/core/project/rules.ts";
import { loadSessionText } from "../../src/core/session/load.ts";
import { indexTree } from "../../src/core/session/tree.ts";
import { checkData } from "../../src/core/zod.ts";
import { assistant, header, image, session, thinking, toolCall, toolResult, user } from "../support/build.ts";
import { expectNoPollution, expectStatedError, expectThat, noThrow, tally } from "./check.ts";
import { unserialisable } from "./json.ts";
import { mutateValue, valueMutation, type ValueMutation } from "./mutate.ts";
import { cut } from "./inputs.ts";

/** A session with a bit of everything a builder reads: thinking, a tool call and its result, an image. */
const SESSION = indexTree(
  loadSessionText(
    "imports.jsonl",
    session(
      header(),
      user("u1", null, "look at this"),
      assistant("a1", "u1", [thinking("hmm", "sig"), toolCall("call_1", "read", { path: "a.png" })]),
      toolResult("r1", "a1", "call_1", [{ type: "text", text: "here" }, image()]),
      user("u2", "r1", "and?"),
    ),
  ),
);
const LEAF = SESSION.entries.length - 1;

const MODELS_JSON = {
  providers: {
    ollama: {
      baseUrl: "http://localhost:11434/v1",
      api: "openai-completions",
      apiKey: "ollama",
      compat: { supportsDeveloperRole: false, maxTokensField: "max_tokens", thinkingFormat: "qwen" },
      models: [
        { id: "qwen3:32b", name: "Qwen 3", reasoning: true, input: ["text", "image"], contextWindow: 32_768 },
        {
          id: "gpt-oss",
          api: "openai-responses",
          thinkingLevelMap: { off: null, high: "high" },
          cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
          maxTokens: 4096,
          headers: { "x-a": "b" },
        },
      ],
    },
    gateway: {
      baseUrl: "https://gw.example/v1",
      api: "anthropic-messages",
      apiKey: "k",
      models: [{ id: "claude-x", reasoning: true, compat: { supportsEagerToolInputStreaming: true } }],
    },
    openrouter: {
      compat: { openRouterRouting: { order: ["a"], sort: { by: "price" } } },
      modelOverrides: { "anthropic/claude-sonnet-4.5": { name: "S", reasoning: false, cost: { input: 9 } } },
    },
    google: { models: [{ id: "gemini-custom", input: ["text"] }] },
  },
};

const TOOLS = [
  {
    name: "read",
    description: "Read a file",
    parameters: { type: "object", properties: { path: { type: "string" } } },
  },
  { name: "bash", description: "", parameters: {} },
];

const PRESET = {
  ...BUILT_IN_PRESETS[2]!,
  settings: { ...BUILT_IN_PRESETS[2]!.settings, tools: TOOLS, systemPrompt: "S" },
};

export type ImportKind = "models.json" | "preset" | "preset list" | "tools";

export interface ImportInput {
  readonly kind: ImportKind;
  readonly mutations: readonly (readonly [number, ValueMutation])[];
  /** Cut the text at this many characters (0 = whole). */
  readonly cutAt: number;
}

export const importInput: fc.Arbitrary<ImportInput> = fc.record({
  kind: fc.constantFrom<ImportKind>("models.json", "preset", "preset list", "tools"),
  mutations: fc.array(fc.tuple(fc.nat(), valueMutation), { minLength: 1, maxLength: 3 }),
  cutAt: fc.oneof({ weight: 9, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat() }),
});

function baseText(kind: ImportKind): string {
  switch (kind) {
    case "models.json":
      return JSON.stringify(MODELS_JSON);
    case "preset":
      return presetToJson(PRESET);
    case "preset list":
      return presetsToJson([...BUILT_IN_PRESETS, PRESET]);
    case "tools":
      return JSON.stringify(TOOLS);
  }
}

/** The base document with the mutations applied to its parsed value, written again (and cut, when asked). */
export function damagedText({ kind, mutations, cutAt }: ImportInput): string {
  const value = JSON.parse(baseText(kind)) as Record<string, unknown>;
  for (const [pick, m] of mutations) mutateValue(value, pick, m);
  const text = JSON.stringify(value) ?? "";
  return cutAt === 0 ? text : cut(text, cutAt);
}

function checkProjected(what: string, options: ProjectionOptions): void {
  const result = noThrow(`projectLeaf (${what})`, () => projectLeaf(SESSION, LEAF, options));
  if (!result.ok) {
    expectStatedError(`projectLeaf (${what})`, result.error);
    tally("projection refused");
    return;
  }
  tally("projected");
  const problem = unserialisable(result.value.payload.body);
  expectThat(problem === undefined, `${what}: the payload is not JSON: ${problem}`);
}

export function checkImport(input: ImportInput): void {
  const text = damagedText(input);
  switch (input.kind) {
    case "models.json": {
      const read = noThrow("readModelsJson", () => readModelsJson(text, builtInModels()));
      if (!read.ok) {
        expectStatedError("readModelsJson", read.error);
        tally("models.json refused");
        break;
      }
      tally("models.json read");
      const overridden = read.value.models.filter((m) => m.provider === "openrouter").slice(0, 1);
      for (const model of [...read.value.custom, ...overridden] as ModelInfo[])
        checkProjected(`${model.provider}/${model.id}`, { ...projectionOptions(PI_DEFAULTS), model });
      break;
    }
    case "preset":
    case "preset list": {
      const read = noThrow("parsePresets", () => parsePresets(text));
      if (!read.ok) {
        expectStatedError("parsePresets", read.error);
        tally("preset refused");
        break;
      }
      tally("preset read");
      const sonnet = builtInModels().find((m) => m.provider === "anthropic")!;
      for (const preset of read.value)
        checkProjected(`preset ${preset.name}`, { ...projectionOptions(preset.settings), model: sonnet });
      break;
    }
    case "tools": {
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        tally("tools not JSON"); // the rules panel says so before it checks anything
        break;
      }
      const read = noThrow("checkData(toolsSchema)", () => checkData(toolsSchema, data));
      tally(read.success ? "tools read" : "tools refused");
      if (read.success) checkProjected("tools", { ...projectionOptions({ ...PI_DEFAULTS, tools: read.data }) });
      break;
    }
  }
  expectNoPollution();
}
