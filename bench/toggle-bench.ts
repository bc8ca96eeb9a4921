/**
 * Figure 4: one rule toggled on a long path — re-project and re-count, as the session worker does when the person
 * flips a rule — against a full recompute of the same projection with an empty token cache.
 * Tokenizers are loaded before timing (they load once per page, not per toggle).
 */
import type { Tokenizer, TokenizerName } from "../src/core/tokens/tokenizer.ts";
import { PI_DEFAULTS, type RuleSettings } from "../src/core/project/rules.ts";
import { loadSessionText } from "../src/core/session/load.ts";
import { indexTree } from "../src/core/session/tree.ts";
import { loadTokenizer } from "../src/tokens/load.ts";
import { projectFor, projectForView } from "../src/worker/projection.ts";
import { TokensEngine } from "../src/worker/tokens-engine.ts";
import { projectionOptions } from "../src/core/project/rules.ts";
import { compare, type Figure } from "./timing.ts";

export async function toggleFigure(
  name: string,
  text: string,
  reps: number,
  rule: Partial<RuleSettings>,
): Promise<Figure> {
  const tree = indexTree(loadSessionText("toggle.jsonl", text));
  const leaf = tree.defaultLeaf;
  if (leaf === undefined) throw new Error("the generated session has no leaf");
  const loaded = new Map<TokenizerName, Tokenizer>();
  for (const tokenizer of ["o200k", "claude"] as const) loaded.set(tokenizer, await loadTokenizer(tokenizer));
  const load = async (tokenizer: TokenizerName) => loaded.get(tokenizer)!;

  // The whole path, so that it is long (the generator compacts now and then).
  const base: RuleSettings = { ...PI_DEFAULTS, applyCompaction: false };
  const flipped: RuleSettings = { ...base, ...rule };
  const view = projectForView(tree, leaf, base, undefined);
  if (!view.ok) throw new Error(view.error);
  const messages = view.view.payload.origins.length;

  // What the session engine does for a "project" then a "tokens" request: one projection, its view, its count.
  const run = async (engine: TokensEngine, settings: RuleSettings) => {
    const projected = projectFor(tree, leaf, settings, undefined);
    const answer = projectForView(tree, leaf, settings, undefined, projected);
    engine.adopt("s", tree);
    const query = { key: "s", leaf, options: projectionOptions(settings), asPiSends: false };
    return [answer, await engine.count(query, projected)];
  };

  const warm = new TokensEngine(load);
  await run(warm, base);
  let state = false;
  const { ours, baseline } = await compare(
    () => {
      state = !state; // every run is a real toggle: the cache holds the other setting's counts
      return run(warm, state ? flipped : base);
    },
    () => run(new TokensEngine(load), flipped),
    reps,
    false,
  );
  return {
    name,
    ours,
    baseline,
    baselineName: "full recompute",
    // Target: the toggle costs at most 10% of a full recompute, i.e. ratio ≥ 10.
    target: 10,
    note: `${messages} payload items`,
  };
}
