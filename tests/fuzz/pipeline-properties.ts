/**
 * The projection pipeline on damaged sessions: for every leaf, every built-in preset and a model of every API, the
 * payload is built or refused with a stated error — nothing escapes as an exception — and what is built is a JSON
 * document whose items, fates, findings and token figures all point at entries of the path.
 */
import fc from "fast-check";
import type { ModelInfo } from "../../src/core/llm/types.ts";
import { findModel, parseModelRef } from "../../src/core/models/registry.ts";
import { projectLeaf, type Projection, type ProjectionOptions } from "../../src/core/project/project.ts";
import { projectionOptions } from "../../src/core/project/rules.ts";
import { BUILT_IN_PRESETS, type Preset } from "../../src/core/project/presets.ts";
import { validateProjection } from "../../src/core/project/validate.ts";
import { loadSessionText } from "../../src/core/session/load.ts";
import { indexTree, leavesOf, type EntryTree } from "../../src/core/session/tree.ts";
import { TokenCounter } from "../../src/core/tokens/count.ts";
import { projectionTokens } from "../../src/core/tokens/projection.ts";
import type { Tokenizer, TokenizerName } from "../../src/core/tokens/tokenizer.ts";
import { payloadForPage, payloadJson } from "../../src/worker/page-payload.ts";
import { expectNoPollution, expectStatedError, expectThat, noThrow, tally, unlessKnown } from "./check.ts";
import { unserialisable } from "./json.ts";

/** "session" (the path's own model) and one model of every API pi-ai has, plus a few with quirks of their own. */
export const FUZZ_MODELS = [
  "session",
  "anthropic/claude-sonnet-4-5",
  "anthropic/claude-3-5-haiku-latest",
  "openai/gpt-5.1-codex",
  "openai-codex/gpt-5.1",
  "azure-openai-responses/gpt-4",
  "xai/grok-4",
  "cerebras/gpt-oss-120b",
  "google/gemini-2.5-pro",
  "google-vertex/gemini-1.5-flash",
  "amazon-bedrock/amazon.nova-lite-v1:0",
  "mistral/devstral-2512",
  "cloudflare-ai-gateway/gpt-4",
] as const;

const MODELS = new Map(
  FUZZ_MODELS.filter((ref) => ref !== "session").map((ref) => {
    const parsed = parseModelRef(ref);
    const model = parsed && findModel(parsed.provider, parsed.id);
    if (!model) throw new Error(`the fuzz model ${ref} is not in pi-ai's registry any more; pick another`);
    return [ref, model] as const;
  }),
);

/** A stand-in tokenizer: a token per 4 characters (the real BPE ones are slow and tested elsewhere). */
const quarter = (name: TokenizerName): Tokenizer => ({ name, count: (text) => Math.ceil(text.length / 4) });
const counter = new TokenCounter({ o200k: quarter("o200k"), claude: quarter("claude") });

export interface PipelineInput {
  readonly text: string;
  readonly model: (typeof FUZZ_MODELS)[number];
  /** One more leaf besides the tips of the branches (any entry can be a leaf). */
  readonly extraLeaf: number;
}

export const pipelineModel = fc.constantFrom(...FUZZ_MODELS);

/** Leaves to project at: the tips of the branches (at most 8), the default leaf and one more entry. */
function leavesToTry(tree: EntryTree, extra: number): number[] {
  const leaves = new Set(leavesOf(tree).slice(0, 8));
  if (tree.defaultLeaf !== undefined) leaves.add(tree.defaultLeaf);
  if (tree.entries.length > 0) leaves.add(extra % tree.entries.length);
  return [...leaves];
}

function checkProjection(tree: EntryTree, p: Projection, options: ProjectionOptions, preset: Preset): void {
  const where = `leaf line ${tree.entries[p.leaf]?.line}, preset ${preset.name}, model ${p.model.provider}/${p.model.id}`;
  const onPath = new Set(p.path);
  expectThat(p.path.at(-1) === p.leaf, `${where}: the path does not end at the leaf`);
  const problem = unserialisable(p.payload.body);
  expectThat(problem === undefined, `${where}: the payload is not JSON: ${problem}`);
  const list = p.payload.body[p.payload.listKey];
  expectThat(Array.isArray(list), `${where}: the payload has no ${p.payload.listKey} list`);
  expectThat(p.itemSources.length === list.length, `${where}: ${p.itemSources.length} sources, ${list.length} items`);
  expectThat(
    p.itemSources.flat().every((e) => onPath.has(e)),
    `${where}: an item comes from off the path`,
  );
  expectThat(p.llmSources.length === p.llm.messages.length, `${where}: LLM messages and sources differ in number`);
  expectThat(
    p.llmSources.every((e) => onPath.has(e)),
    `${where}: an LLM message comes from off the path`,
  );
  expectThat(
    [...p.fates.keys()].every((e) => onPath.has(e)),
    `${where}: a fate for an entry off the path`,
  );
  // What the worker posts to the page for the payload view, and the JSON it writes for a copy or a download.
  const page = noThrow("payloadForPage", () => payloadForPage(p.payload));
  expectThat(
    page.listLength === list.length,
    `${where}: the page is told of ${page.listLength} items, not ${list.length}`,
  );
  noThrow("payloadJson", () => payloadJson(p.payload, undefined));
  const findings = noThrow("validateProjection", () => validateProjection(p, { transform: options.transform ?? {} }));
  for (const f of findings) {
    expectStatedError(`finding ${f.code}`, f.message);
    expectThat(
      f.entries.every((e) => onPath.has(e)),
      `${where}: finding ${f.code} names an entry off the path`,
    );
  }
  const asPiSends = preset === BUILT_IN_PRESETS[0];
  const tokens = noThrow("projectionTokens", () => projectionTokens(tree, p, counter, { options, asPiSends }));
  expectThat(Number.isFinite(tokens.total.value), `${where}: the token total is ${tokens.total.value}`);
  expectThat(
    tokens.items.length === list.length,
    `${where}: ${tokens.items.length} token counts, ${list.length} items`,
  );
}

/** An error's kind, for the tally: its first clause, numbers as N; a caught exception's message too. */
function refusal(error: string): string {
  const caught = /^pi could not build this request from the session data \((.*)\)$/s.exec(error);
  const refused = /^pi-ai would not build this request: (.*)$/s.exec(error);
  const kind = caught
    ? `pi could not build … (${caught[1]!.slice(0, 60)})`
    : refused
      ? `pi-ai would not: ${refused[1]!.replace(/[;,(].*$/s, "")}`
      : error.replace(/[:;,(].*$/s, "");
  return kind.replace(/\d+/g, "N").slice(0, 100).trim();
}

/**
 * Every leaf × every built-in preset × the model: `projectLeaf` returns a projection that checks out, or an error
 * that says why; the error's first words are tallied, so a run shows which refusals it met.
 */
export function checkPipeline({ text, model, extraLeaf }: PipelineInput): void {
  const tree = indexTree(loadSessionText("fuzz.jsonl", text));
  const target = model === "session" ? undefined : MODELS.get(model);
  for (const leaf of leavesToTry(tree, extraLeaf)) {
    for (const preset of BUILT_IN_PRESETS) unlessKnown(() => checkLeaf(tree, leaf, preset, target));
  }
  expectNoPollution();
}

function checkLeaf(tree: EntryTree, leaf: number, preset: Preset, model: ModelInfo | undefined): void {
  const options: ProjectionOptions = { ...projectionOptions(preset.settings), ...(model ? { model } : {}) };
  const result = noThrow("projectLeaf", () => projectLeaf(tree, leaf, options));
  if (result.ok) {
    tally("projected");
    checkProjection(tree, result.value, options, preset);
  } else {
    expectStatedError("projectLeaf", result.error);
    tally(`refused: ${refusal(result.error)}`);
  }
}
