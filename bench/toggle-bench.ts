/**
 * Figure 4: one rule toggled on a long path — re-project and re-count, as the session worker does when the person
 * flips a rule — against a full recompute of the same projection (a freshly read session, an empty token cache).
 * Two rows per rule:
 * - first toggle: the session has been projected and counted with pi's rules only; the rule is flipped for the
 *   first time, so every message it changes is new (its text is cut, its items built and counted anew);
 * - toggle back and forth: the rule is flipped again and again, as a person comparing both states does.
 * Tokenizers are loaded before timing (they load once per page, not per toggle).
 */
import { performance } from "node:perf_hooks";
import type { Tokenizer, TokenizerName } from "../src/core/tokens/tokenizer.ts";
import { PI_DEFAULTS, projectionOptions, type RuleSettings } from "../src/core/project/rules.ts";
import { loadSessionText } from "../src/core/session/load.ts";
import { indexTree, type EntryTree } from "../src/core/session/tree.ts";
import { loadTokenizer } from "../src/tokens/load.ts";
import { listCount } from "../src/worker/packed-lists.ts";
import { projectFor, projectForView } from "../src/worker/projection.ts";
import { TokensEngine } from "../src/worker/tokens-engine.ts";
import { compare, median, WARM_UPS, type Figure } from "./timing.ts";

type Loader = (tokenizer: TokenizerName) => Promise<Tokenizer>;

async function loader(): Promise<Loader> {
  const loaded = new Map<TokenizerName, Tokenizer>();
  for (const tokenizer of ["o200k", "claude"] as const) loaded.set(tokenizer, await loadTokenizer(tokenizer));
  return async (tokenizer) => loaded.get(tokenizer)!;
}

/** What the session engine does for a "project" then a "tokens" request: one projection, its view, its count. */
async function projectAndCount(engine: TokensEngine, tree: EntryTree, settings: RuleSettings): Promise<unknown> {
  const leaf = tree.defaultLeaf as number;
  const projected = projectFor(tree, leaf, settings, undefined);
  const answer = projectForView(tree, leaf, settings, undefined, projected);
  engine.adopt("s", tree);
  const query = { key: "s", leaf, options: projectionOptions(settings), asPiSends: false };
  return [answer, await engine.count(query, projected)];
}

/** The whole path, so that it is long (the generator compacts now and then). */
const BASE: RuleSettings = { ...PI_DEFAULTS, applyCompaction: false };

function readTree(text: string): EntryTree {
  const tree = indexTree(loadSessionText("toggle.jsonl", text));
  if (tree.defaultLeaf === undefined) throw new Error("the generated session has no leaf");
  return tree;
}

/** The figures of one rule: its first toggle, and toggling it back and forth, each against a full recompute. */
export async function toggleFigures(
  name: string,
  text: string,
  reps: number,
  rule: Partial<RuleSettings>,
): Promise<Figure[]> {
  const load = await loader();
  const flipped: RuleSettings = { ...BASE, ...rule };
  const sample = readTree(text);
  const view = projectForView(sample, sample.defaultLeaf as number, BASE, undefined);
  if (!view.ok) throw new Error(view.error);
  const note = `${listCount(view.view.itemSources)} payload items`;
  // A full recompute: a session read afresh (nothing remembered for its objects) and an empty token cache.
  const full = async () => {
    const tree = readTree(text);
    const start = performance.now();
    await projectAndCount(new TokensEngine(load), tree, flipped);
    return performance.now() - start;
  };

  const first = { ours: [] as number[], baseline: [] as number[] };
  for (let i = 0; i < WARM_UPS + reps; i += 1) {
    const tree = readTree(text);
    const engine = new TokensEngine(load);
    await projectAndCount(engine, tree, BASE);
    const start = performance.now();
    await projectAndCount(engine, tree, flipped);
    const ours = performance.now() - start;
    const baseline = await full();
    if (i < WARM_UPS) continue;
    first.ours.push(ours);
    first.baseline.push(baseline);
  }

  const tree = readTree(text);
  const warm = new TokensEngine(load);
  await projectAndCount(warm, tree, BASE);
  let state = false;
  const again = await compare(
    () => {
      state = !state; // every run is a real toggle: the other state was projected just before
      return projectAndCount(warm, tree, state ? flipped : BASE);
    },
    () => {
      const fresh = readTree(text);
      return projectAndCount(new TokensEngine(load), fresh, flipped);
    },
    reps,
    false,
  );
  // Target: a toggle costs at most 10% of a full recompute, i.e. ratio ≥ 10.
  return [
    {
      name: `${name}, first`,
      ours: median(first.ours),
      baseline: median(first.baseline),
      baselineName: "full recompute",
      target: 10,
      note,
    },
    { name: `${name}, again`, ...again, baselineName: "full recompute", target: 10, note },
  ];
}
