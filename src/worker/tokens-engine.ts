/**
 * The tokens engine: loads tokenizers the first time a family needs them, counts projections with one content
 * cache (so a changed rule re-tokenises only what changed), and measures the estimators on the session's recorded
 * turns. The session engine hosts it in the session worker, on the trees it already holds (no second parse).
 */
import { findModel, parseModelRef } from "../core/models/registry.ts";
import { projectLeaf, type Projection } from "../core/project/project.ts";
import type { Result } from "../core/result.ts";
import type { ProjectionOptions } from "../core/project/project.ts";
import type { EntryTree } from "../core/session/tree.ts";
import { measuredReport, measuredTurns, summarize, turnErrors, type AccuracyReport } from "../core/tokens/accuracy.ts";
import { TokenCountCache } from "../core/tokens/cache.ts";
import { TokenCounter, type PieceCounts } from "../core/tokens/count.ts";
import {
  anchorPositions,
  estimateFromFeatures,
  featuresOf,
  turnVocabularies,
  type TurnFeatures,
} from "../core/tokens/estimate.ts";
import { familyOf, tokenizersFor } from "../core/tokens/family.ts";
import { projectionTokens, type ProjectionTokens } from "../core/tokens/projection.ts";
import { sessionTurns } from "../core/tokens/anchors.ts";
import { turnRequest } from "../core/tokens/turns.ts";
import { Gestures, Slices } from "./slices.ts";
import type { CacheStats } from "../core/tokens/cache.ts";
import type { TurnEstimate } from "../core/tokens/estimate.ts";
import type { Tokenizer, TokenizerName } from "../core/tokens/tokenizer.ts";

/** What to count: a leaf of a loaded session, projected with these options for this model. */
export interface CountQuery {
  readonly key: string;
  readonly leaf: number;
  /** Projection options (the rules); `model` in them is ignored in favour of `modelRef`. */
  readonly options: ProjectionOptions;
  /** "PROVIDER/ID"; undefined = the model the path ends with. */
  readonly modelRef?: string;
  /** The options are pi's own (default rules, no system prompt or tools): a recorded request may answer exactly. */
  readonly asPiSends: boolean;
}

export interface TokenCountResult {
  readonly tokens: ProjectionTokens;
  /** The content cache after this count (hits grow, misses do not, when little changed). */
  readonly cache: CacheStats;
}

/** A count as the page gets it: the figures of the whole prompt, and one number per payload item. */
export interface PageTokenCount {
  readonly tokens: PageTokens;
  readonly cache: CacheStats;
}

export type PageTokens = Omit<ProjectionTokens, "items"> & {
  /** Each main-list item's estimated tokens, by its position in the list; NaN where no item was counted. */
  readonly itemTokens: Float64Array;
};

/**
 * What the page shows of a count. Structured clone rebuilds every object it carries on the page's thread: the
 * items of a long uncompacted path as objects (41,336 of them, each with its sources and vocabularies) take V8
 * 127 ms to deserialise, one Float64Array of their numbers about 1 ms.
 */
export function countForPage(result: TokenCountResult): PageTokenCount {
  const { items, ...whole } = result.tokens;
  let length = 0;
  for (const item of items) length = Math.max(length, item.index + 1);
  const itemTokens = new Float64Array(length).fill(Number.NaN);
  for (const item of items) itemTokens[item.index] = item.tokens;
  return { tokens: { ...whole, itemTokens }, cache: result.cache };
}

/** The session's recorded turns with both estimates, and how close they came. */
export interface SessionTokenAccuracy {
  readonly turns: readonly TurnEstimate[];
  readonly report: AccuracyReport;
}

export type TokenizerLoader = (name: TokenizerName) => Promise<Tokenizer>;

export class TokensEngine {
  readonly #sessions = new Map<string, EntryTree>();
  readonly #accuracy = new Map<string, SessionTokenAccuracy>();
  readonly #load: TokenizerLoader;
  readonly #counter: TokenCounter;
  /** The page's gestures, which paced counting waits out. */
  readonly #gestures: Gestures | undefined;

  constructor(load: TokenizerLoader, cache = new TokenCountCache(), gestures?: Gestures) {
    this.#load = load;
    this.#counter = new TokenCounter({}, cache);
    this.#gestures = gestures;
  }

  remove(key: string): void {
    this.#sessions.delete(key);
    this.#accuracy.delete(key);
  }

  /** A models.json came into use or went: accuracy measured with the models before is measured again. */
  modelsChanged(): void {
    this.#accuracy.clear();
  }

  /** Counts on a tree the host holds (the session worker's own copy: never parsed twice). */
  adopt(key: string, tree: EntryTree): void {
    this.#sessions.set(key, tree);
    this.#accuracy.delete(key);
  }

  /** Counts the query's projection; `projected` is that projection when the host already made it. */
  async count(query: CountQuery, projected?: Result<Projection>): Promise<TokenCountResult> {
    const tree = this.#tree(query.key);
    const { model: _ignored, ...options } = query.options;
    let projection = projected;
    if (!projection) {
      let model;
      if (query.modelRef !== undefined) {
        const ref = parseModelRef(query.modelRef);
        model = ref && findModel(ref.provider, ref.id);
        if (!model)
          throw new Error(`${query.modelRef} is not a model in pi-ai's registry (nor in a models.json in use).`);
      }
      projection = projectLeaf(tree, query.leaf, model ? { ...options, model } : options);
    }
    if (!projection.ok) throw new Error(`Cannot count: ${projection.error}.`);
    const family = familyOf(projection.value.model.id, projection.value.model.provider);
    const names = tokenizersFor(family);
    await this.#ensure(names);
    await this.#countItemsInSlices(projection.value, names);
    const tokens = projectionTokens(tree, projection.value, this.#counter, {
      options,
      asPiSends: query.asPiSends,
      accuracy: this.#accuracy.get(query.key)?.report.anchored,
    });
    return { tokens, cache: this.#counter.cache.stats };
  }

  /**
   * Both estimators on the session's recorded turns that `measuredTurns` picks (each turn re-projects its own
   * path, so all of them on a long session would take the worker for minutes), as `sessionAccuracy` measures
   * them. Turn by turn, in slices shared with the counting of each turn's new text, so the person's requests go
   * first: a turn of a long session takes up to 150 ms.
   */
  async accuracy(key: string): Promise<SessionTokenAccuracy> {
    const known = this.#accuracy.get(key);
    if (known) return known;
    const tree = this.#tree(key);
    await this.#ensure(["o200k", "claude"]);
    const recorded = sessionTurns(tree);
    const picked = measuredTurns(recorded.length);
    // By position: the picked turns', then their anchors' (which the picked turns' estimates read).
    const measured = new Map<number, TurnFeatures>();
    const slices = new Slices(this.#gestures);
    const measure = async (position: number): Promise<void> => {
      const turn = recorded[position];
      if (turn === undefined || measured.has(position)) return;
      // A turn's request is mostly text not counted yet: counted in slices first, its features then find it all.
      const request = turnRequest(tree, turn);
      if (request?.ok) await this.#countItemsInSlices(request.value, turnVocabularies(turn), slices);
      if (!this.#sessions.has(key)) throw new Error(`Session ${key} is not loaded.`);
      measured.set(position, featuresOf(tree, this.#counter, turn, request));
      if (slices.due()) await slices.pause();
    };
    for (const position of picked) await measure(position);
    const features = picked.flatMap((position) => measured.get(position) ?? []);
    for (const position of anchorPositions(features)) await measure(position);
    if (!this.#sessions.has(key)) throw new Error(`Session ${key} is not loaded.`);
    const turns = estimateFromFeatures(features, undefined, measured);
    const report: AccuracyReport = measuredReport(
      summarize(turnErrors([{ name: key, group: key, turns: features, replies: [], anchors: measured }])),
      recorded.length,
    );
    const result = { turns, report };
    this.#accuracy.set(key, result);
    return result;
  }

  /**
   * Counts the payload's items a slice at a time, with a turn of the event loop between slices, so the person's
   * requests go first: the first count of a long uncompacted path tokenises tens of millions of characters. The
   * counter keeps each item's counts, and the list's (so the count that follows reads them without a lookup per
   * item). A caller counting several payloads in a row passes its own `slices`, so they share one clock.
   */
  async #countItemsInSlices(
    projection: Projection,
    names: readonly TokenizerName[],
    slices = new Slices(this.#gestures),
  ): Promise<void> {
    const list = projection.payload.body[projection.payload.listKey];
    if (!Array.isArray(list)) return;
    const key = names.join(" ");
    const counter = this.#counter;
    const counts: PieceCounts[] = new Array<PieceCounts>(list.length);
    let misses = counter.misses;
    for (let i = 0; i < list.length; i += 1) {
      counts[i] = counter.countItem(list[i], names, key);
      // An item counted before is a lookup: only new text takes time worth pausing for.
      if (counter.misses !== misses) {
        misses = counter.misses;
        if (slices.due()) await slices.pause();
      }
    }
    counter.rememberList(list, key, counts);
  }

  async #ensure(names: readonly TokenizerName[]): Promise<void> {
    const missing = names.filter((name) => !this.#counter.names.includes(name));
    for (const tokenizer of await Promise.all(missing.map((name) => this.#load(name)))) this.#counter.add(tokenizer);
  }

  #tree(key: string): EntryTree {
    const tree = this.#sessions.get(key);
    if (!tree) throw new Error(`Session ${key} is not loaded.`);
    return tree;
  }
}
