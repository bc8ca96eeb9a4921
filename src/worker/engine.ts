/**
 * The session engine: loads files in slices, keeps the parsed sessions, answers the UI's questions.
 * Runs inside the worker, and in-process for tests (the same code either way).
 */
import { clipNesting } from "../core/nesting.ts";
import { fieldText } from "../core/session/describe.ts";
import { TypedSearch } from "../core/session/filter.ts";
import { Gestures, Slices } from "./slices.ts";
import { SessionLoader } from "../core/session/load.ts";
import { indexTree, type EntryTree } from "../core/session/tree.ts";
import type { EntryDetail, Request, Response } from "./protocol.ts";
import { pageItemsOf, payloadJson } from "./page-payload.ts";
import { HeldSnapshots } from "./page-snapshot.ts";
import { SnapshotNotHeldError } from "./answer-errors.ts";
import { changesOf, pageComparison } from "./page-compare.ts";
import type { Comparison } from "../core/diff/compare.ts";
import { summarizeSession } from "./summarize.ts";
import {
  contributions,
  projectFor,
  projectForInParts,
  projectForView,
  ruleAlternatives,
  ruleEffect,
  type RuleEffect,
} from "./projection.ts";
import type { Projection } from "../core/project/project.ts";
import type { Result } from "../core/result.ts";
import { countForPage, TokensEngine, type TokenizerLoader } from "./tokens-engine.ts";
import { changedRules, projectionOptions, type RuleSettings } from "../core/project/rules.ts";
import { createSnapshotFor } from "../core/snapshot/create.ts";
import { DEFAULT_CHOICES } from "../core/snapshot/export.ts";
import { shareOutput, startShare, type Share } from "../core/snapshot/share.ts";
import { cacheSeriesFor, compareSides, type CountSide } from "../core/diff/session.ts";
import type { CacheTurn } from "../core/diff/cache-series.ts";
import { err, ok } from "../core/result.ts";
import { readModelsJson } from "../core/models/models-json.ts";
import { builtInModels, useModels } from "../core/models/registry.ts";
import type { ModelInfo, PayloadResult } from "../core/llm/types.ts";

/** A cache series says how far it is (with the turns measured since) at most this often. */
const SERIES_PROGRESS_MS = 250;

/**
 * A cache series measured before, whole or as far as it went before it was stopped (the Compare tab was left, a
 * side was set to something else): asked for again, it goes on from there (a whole one is answered at once).
 */
interface KeptSeries {
  readonly key: string;
  readonly turns: readonly CacheTurn[];
}

/**
 * The series kept: the two sides shown and a few set before, and no more turns in all than this (a turn is a few
 * hundred bytes; a 100 MB session has 20,000 requests per series). The newest is always kept.
 */
const KEPT_SERIES = 6;
const KEPT_TURNS = 200_000;

/** Files are read in slices this big (Perfetto reads 32 MiB), so no file becomes one string or one buffer. */
export const SLICE_BYTES = 32 * 1024 * 1024;

/** How the engine paces its long work; the worker takes the defaults, tests take smaller steps. */
export interface EngineOptions {
  /** Bytes of a file read at a time. */
  readonly sliceBytes?: number;
  /** A cache series says how far it is at most this often. */
  readonly seriesProgressMs?: number;
}

export class SessionEngine {
  readonly #sessions = new Map<string, EntryTree>();
  readonly #cancelled = new Set<number>();
  readonly #post: (response: Response) => void;
  readonly #sliceBytes: number;
  readonly #seriesProgressMs: number;
  readonly #tokens: TokensEngine;
  /** The person's pans, zooms and scrolls, as the page reports them: paced work waits them out. */
  readonly #gestures = new Gestures();
  /** Rises with every search: one that sees a newer one came after it stops. */
  #searchGeneration = 0;
  /** Recent search answers, to read only the last hits when a query is typed on (kept: never transfer them). */
  readonly #typed = new TypedSearch();
  /** The last projection made: the view, its token count and its rule effects all start from it. */
  #last: { readonly signature: string; readonly result: Result<Projection> } | undefined;
  /** Rises with every rule-effects request: an older one still running sees it and stops. */
  #effectsGeneration = 0;
  /** The share review the dialog shows, to apply the person's choices to. */
  #share: { readonly id: number; readonly share: Share } | undefined;
  #shareId = 0;
  /** The last comparison made, whole: the page reads its changes in parts. */
  #comparison: { readonly signature: string; readonly comparison: Comparison } | undefined;
  /** Cache series measured, by session and side, the most recently used last. */
  readonly #series = new Map<string, KeptSeries>();
  /** The snapshots the page opened (the latest two): it asks for their items, JSON and file by id. */
  readonly #snapshots = new HeldSnapshots();

  /** `loadTokenizer` is called the first time a model family needs a vocabulary (each is its own lazy chunk). */
  constructor(post: (response: Response) => void, loadTokenizer: TokenizerLoader, options: EngineOptions = {}) {
    this.#post = post;
    this.#sliceBytes = options.sliceBytes ?? SLICE_BYTES;
    this.#seriesProgressMs = options.seriesProgressMs ?? SERIES_PROGRESS_MS;
    this.#tokens = new TokensEngine(loadTokenizer, undefined, this.#gestures);
  }

  /** The person is moving the view (see `Gesture`): paced work waits until they stop. */
  gesture(): void {
    this.#gestures.seen();
  }

  async handle(request: Request): Promise<void> {
    try {
      switch (request.type) {
        case "load":
          return await this.#load(request);
        case "cancel":
          this.#cancelled.add(request.requestId);
          return;
        case "remove":
          this.#sessions.delete(request.key);
          this.#last = undefined;
          this.#comparison = undefined;
          this.#tokens.remove(request.key);
          for (const [signature, kept] of this.#series) if (kept.key === request.key) this.#series.delete(signature);
          return this.#post({ type: "done", requestId: request.requestId });
        case "entry":
          return this.#post({
            type: "entry",
            requestId: request.requestId,
            detail: this.#detail(request.key, request.index),
          });
        case "search":
          return await this.#search(request);
        case "project": {
          this.#effectsGeneration += 1; // a new view: rule effects still being measured for the old one stop
          const tree = this.#tree(request.key);
          const projected = this.#projected(request.key, request.leaf, request.settings, request.model);
          const answer = projectForView(tree, request.leaf, request.settings, request.model, projected);
          return this.#post({ type: "project", requestId: request.requestId, answer });
        }
        case "payloadJson": {
          const json = payloadJson(this.#payload(request), request.item);
          return this.#post({ type: "payloadJson", requestId: request.requestId, json });
        }
        case "payloadFile": {
          const file = new Blob([payloadJson(this.#payload(request), undefined)], { type: "application/json" });
          return this.#post({ type: "payloadFile", requestId: request.requestId, file });
        }
        case "payloadItems": {
          const items = pageItemsOf(this.#payload(request), request.start, request.end);
          return this.#post({ type: "payloadItems", requestId: request.requestId, items });
        }
        case "ruleEffects": {
          const effects = await this.#ruleEffects(request);
          return this.#post({ type: "ruleEffects", requestId: request.requestId, effects });
        }
        case "tokens": {
          const result = await this.#count(request.key, request.leaf, request.settings, request.model);
          return this.#post({ type: "tokens", requestId: request.requestId, result: countForPage(result) });
        }
        case "models": {
          const { requestId, text } = request;
          if (text === undefined) {
            this.#useModels(undefined);
            return this.#post({ type: "models", requestId, answer: ok({ custom: [], overridden: 0 }) });
          }
          const read = readModelsJson(text, builtInModels()); // refused: the models in use stay
          if (read.ok) this.#useModels(read.value.models);
          const answer = read.ok ? ok({ custom: read.value.custom, overridden: read.value.overridden }) : read;
          return this.#post({ type: "models", requestId, answer });
        }
        case "openSnapshot": {
          const answer = await this.#snapshots.open(request.source);
          return this.#post({ type: "openSnapshot", requestId: request.requestId, answer });
        }
        case "snapshotItems": {
          const items = this.#snapshots.items(request.id, request.start, request.end);
          return this.#post({ type: "snapshotItems", requestId: request.requestId, items });
        }
        case "snapshotJson": {
          const json = this.#snapshots.json(request.id, request.item);
          return this.#post({ type: "snapshotJson", requestId: request.requestId, json });
        }
        case "snapshotFile": {
          const file = this.#snapshots.file(request.id);
          return this.#post({ type: "snapshotFile", requestId: request.requestId, file });
        }
        case "closeSnapshot":
          this.#snapshots.close(request.id);
          return this.#post({ type: "done", requestId: request.requestId });
        case "accuracy": {
          this.#tree(request.key);
          const accuracy = await this.#tokens.accuracy(request.key);
          return this.#post({ type: "accuracy", requestId: request.requestId, accuracy });
        }
        case "snapshot": {
          const { key, leaf, settings, model, preset } = request;
          const counted = await this.#count(key, leaf, settings, model).catch(() => undefined);
          const snapshot = createSnapshotFor(this.#tree(key), leaf, settings, model, {
            ...(preset ? { preset } : {}),
            ...(counted ? { tokens: counted.tokens } : {}),
          });
          if (!snapshot.ok) return this.#post({ type: "snapshot", requestId: request.requestId, answer: snapshot });
          // One review is held, the share dialog's, until it closes ("shareEnd") or a new one replaces it.
          const share = startShare(snapshot.value);
          const shareId = ++this.#shareId;
          this.#share = { id: shareId, share };
          const output = await shareOutput(share, DEFAULT_CHOICES);
          const answer = ok({ shareId, findings: share.findings, output });
          return this.#post({ type: "snapshot", requestId: request.requestId, answer });
        }
        case "shareEnd":
          if (this.#share?.id === request.shareId) this.#share = undefined;
          return this.#post({ type: "done", requestId: request.requestId });
        case "shareOutput": {
          const held = this.#share;
          const answer =
            held?.id === request.shareId
              ? ok(await shareOutput(held.share, request.choices))
              : err(
                  "this snapshot is no longer held here (another was made, or the session worker restarted); share again",
                );
          return this.#post({ type: "shareOutput", requestId: request.requestId, answer });
        }
        case "compare": {
          const answer = await this.#compare(request);
          return this.#post({
            type: "compare",
            requestId: request.requestId,
            answer: answer.ok ? ok(pageComparison(answer.value)) : answer,
          });
        }
        case "compareChanges": {
          const answer = await this.#compare(request);
          if (!answer.ok) throw new Error(`There is no comparison here: ${answer.error}.`);
          const changes = changesOf(answer.value, request);
          return this.#post({ type: "compareChanges", requestId: request.requestId, changes });
        }
        case "cacheSeries":
          return await this.#cacheSeries(request);
      }
    } catch (error) {
      this.#post({
        type: "error",
        requestId: request.requestId,
        message: error instanceof Error ? error.message : String(error),
        ...(error instanceof SnapshotNotHeldError ? { notHeld: true } : {}),
      });
    }
  }

  /** Every later lookup sees these models (undefined: pi-ai's own); what was made with the ones before goes. */
  #useModels(models: readonly ModelInfo[] | undefined): void {
    useModels(models);
    this.#last = undefined;
    this.#comparison = undefined;
    this.#series.clear();
    this.#tokens.modelsChanged();
  }

  /**
   * The cache series of one side, request by request. It says how far it is, with the turns measured since, at the
   * start and a few times a second (a long session has thousands of requests, and the chart is drawn as they are
   * measured); it lets other questions through now and then, and stops when superseded or left.
   */
  async #cacheSeries(request: Extract<Request, { type: "cacheSeries" }>): Promise<void> {
    const { key, side, requestId } = request;
    const tree = this.#tree(key);
    const signature = JSON.stringify([key, side.leaf, side.model ?? null, side.settings]);
    // Kept turns up to the first whose count failed (a tokenizer that did not load may load now); a projection's
    // failure is the session's, and stays.
    let kept = this.#series.get(signature)?.turns;
    const failed = kept?.findIndex((turn) => turn.error !== undefined && turn.model !== undefined) ?? -1;
    if (failed >= 0) kept = kept?.slice(0, failed);
    const slices = new Slices(this.#gestures);
    let told = -Infinity;
    let sent = 0;
    const between = async (done: number, total: number, turns: readonly CacheTurn[]) => {
      // The series' own array, growing: what it holds is this series as far as it went, whenever it stops.
      if (this.#sessions.get(key) === tree) this.#keepSeries(signature, { key, turns });
      if (performance.now() - told >= this.#seriesProgressMs) {
        this.#post({ type: "seriesProgress", requestId, done, total, turns: turns.slice(sent) });
        sent = turns.length;
        told = performance.now();
      }
      if (!slices.due()) return;
      await slices.pause();
      if (this.#cancelled.delete(requestId)) throw new Error("The cache series was stopped.");
    };
    const answer = await cacheSeriesFor(tree, side, this.#countSide(key), between, kept);
    if (answer.ok && this.#sessions.get(key) === tree) this.#keepSeries(signature, { key, turns: answer.value.turns });
    this.#post({ type: "cacheSeries", requestId, answer });
  }

  /** Keeps a series as its latest run measured it, the most recently used last. */
  #keepSeries(signature: string, series: KeptSeries): void {
    this.#series.delete(signature);
    this.#series.set(signature, series);
    let turns = 0;
    for (const kept of this.#series.values()) turns += kept.turns.length;
    for (const [oldest, kept] of this.#series) {
      if (this.#series.size <= 1 || (this.#series.size <= KEPT_SERIES && turns <= KEPT_TURNS)) break;
      this.#series.delete(oldest);
      turns -= kept.turns.length;
    }
  }

  /**
   * The entries a query finds. Typing sends a search per key, and on a large session each reads hundreds of
   * megabytes of text: a search first lets in the messages already waiting, and stops (saying so) when a newer
   * search is among them, rather than make the newest wait behind every older one.
   */
  async #search(request: Extract<Request, { type: "search" }>): Promise<void> {
    const generation = ++this.#searchGeneration;
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (generation !== this.#searchGeneration) {
      return this.#post({ type: "search", requestId: request.requestId, matches: new Int32Array(0), superseded: true });
    }
    const matches = this.#typed.search(this.#tree(request.key), request.query, request.filter, request.leaf);
    this.#post({ type: "search", requestId: request.requestId, matches });
  }

  async #load(request: Extract<Request, { type: "load" }>): Promise<void> {
    const { requestId, file, name, key } = request;
    const loader = new SessionLoader(name);
    for (let offset = 0; offset < file.size; offset += this.#sliceBytes) {
      const slice = new Uint8Array(await file.slice(offset, offset + this.#sliceBytes).arrayBuffer());
      if (this.#cancelled.delete(requestId)) {
        return this.#post({ type: "error", requestId, message: `Loading ${name} was cancelled.` });
      }
      loader.push(slice);
      const bytesRead = Math.min(offset + this.#sliceBytes, file.size);
      this.#post({
        type: "progress",
        requestId,
        progress: { file: name, bytesRead, bytesTotal: file.size, entries: loader.valueCount },
      });
    }
    const tree = indexTree(loader.finish());
    this.#sessions.set(key, tree);
    this.#tokens.adopt(key, tree);
    this.#post({ type: "loaded", requestId, summary: summarizeSession(tree, key) });
  }

  /** The projection for these arguments, made once for the view, its tokens and its rule effects. */
  /** The payload of the projection a payload request names; throws (an error answer) when there is none. */
  #payload(named: { key: string; leaf: number; settings: RuleSettings; model: string | undefined }): PayloadResult {
    const projected = this.#projected(named.key, named.leaf, named.settings, named.model);
    if (!projected.ok) throw new Error(`There is no payload here: ${projected.error}.`);
    return projected.value.payload;
  }

  #projected(key: string, leaf: number, settings: RuleSettings, model: string | undefined): Result<Projection> {
    const signature = JSON.stringify([key, leaf, model ?? null, settings]);
    if (this.#last?.signature === signature) return this.#last.result;
    const result = projectFor(this.#tree(key), leaf, settings, model);
    this.#last = { signature, result };
    return result;
  }

  /** Counts the projection of `leaf` under `settings` (`projected`: made already, else the view's is used or made). */
  #count(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
    projected: Result<Projection> = this.#projected(key, leaf, settings, model),
  ) {
    return this.#tokens.count(
      {
        key,
        leaf,
        options: projectionOptions(settings),
        ...(model !== undefined ? { modelRef: model } : {}),
        // pi's own rules (an empty system prompt and no tools among them): a recorded request may answer exactly.
        asPiSends: changedRules(settings).length === 0,
      },
      projected,
    );
  }

  /** Counts one side of a comparison (or one request of a cache series) with the shared content cache. */
  /** The comparison asked for: the last one made when it is the same, else made now (and kept). */
  async #compare(request: Extract<Request, { type: "compare" | "compareChanges" }>): Promise<Result<Comparison>> {
    const { key, a, b, json } = request;
    const signature = JSON.stringify([key, a, b, json]);
    if (this.#comparison?.signature === signature) return ok(this.#comparison.comparison);
    const answer = await compareSides(this.#tree(key), a, b, this.#countSide(key), { json });
    if (answer.ok) this.#comparison = { signature, comparison: answer.value };
    return answer;
  }

  #countSide(key: string): CountSide {
    return async (side, projection) =>
      (
        await this.#tokens.count(
          {
            key,
            leaf: side.leaf,
            options: projectionOptions(side.settings),
            ...(side.model !== undefined ? { modelRef: side.model } : {}),
            asPiSends: changedRules(side.settings).length === 0,
          },
          ok(projection),
        )
      ).tokens;
  }

  /**
   * What flipping each rule changes on the path: entries, and tokens (counts are cached, so only what the rule
   * changes is tokenised). One rule at a time with a turn of the event loop between, so a newer request (the
   * person chose another leaf or rule) is answered first and this one stops.
   */
  async #ruleEffects(request: {
    readonly key: string;
    readonly leaf: number;
    readonly settings: RuleSettings;
    readonly model: string | undefined;
  }): Promise<RuleEffect[]> {
    const { key, leaf, settings, model } = request;
    const generation = ++this.#effectsGeneration;
    const stale = () => generation !== this.#effectsGeneration;
    const tree = this.#tree(key);
    const projected = this.#projected(key, leaf, settings, model);
    if (!projected.ok) return [];
    const current = contributions(projected.value);
    const total = await this.#count(key, leaf, settings, model).catch(() => undefined);
    const effects: RuleEffect[] = [];
    // Paced as counting is, but pausing at every step: each may be long.
    const slices = new Slices(this.#gestures);
    for (const { rule, against } of ruleAlternatives(tree, leaf, settings)) {
      await slices.pause();
      if (stale()) return effects;
      // Made once, for the entries it changes and for its count: on a long path each is a pass over all of it.
      // Compaction off reads what the view does not (a long session's whole path, built for the first time): made
      // in parts, with a pause between, so what the person asks meanwhile does not wait for all of it.
      let projection: Result<Projection>;
      if (against.applyCompaction === false && settings.applyCompaction !== false) {
        const parts = projectForInParts(tree, leaf, against, model);
        for (let step = parts.next(); ; step = parts.next()) {
          // After each part, and after the projection (what the rule changes is another pass over the path).
          await slices.pause();
          if (stale()) return effects;
          if (step.done) {
            projection = step.value;
            break;
          }
        }
      } else projection = projectFor(tree, leaf, against, model);
      const effect = ruleEffect(tree, leaf, rule, against, model, current, projection);
      if (!effect) continue;
      const other = total && (await this.#count(key, leaf, against, model, projection).catch(() => undefined));
      effects.push(other ? { ...effect, tokenDelta: other.tokens.total.value - total.tokens.total.value } : effect);
    }
    return effects;
  }

  #tree(key: string): EntryTree {
    const tree = this.#sessions.get(key);
    if (!tree) throw new Error(`Session ${key} is not loaded.`);
    return tree;
  }

  #detail(key: string, index: number): EntryDetail {
    const tree = this.#tree(key);
    const entry = tree.entries[index];
    if (!entry) throw new Error(`Session ${key} has no entry ${index}.`);
    const { toolCalls, callEntry } = pairToolCalls(tree, index);
    return {
      index,
      line: entry.line,
      id: entry.id,
      parentId: entry.parentId,
      type: entry.type,
      // A value nested too deep cannot be passed to the page (structured clone overflows too): cut well above it.
      raw: tree.tooDeep.has(index) ? (clipNesting(entry.raw, SHOWN_NESTING) as EntryDetail["raw"]) : entry.raw,
      label: entry.id !== undefined ? tree.labels.get(entry.id)?.label : undefined,
      toolCalls,
      callEntry,
      diagnostics: [...tree.file.diagnostics, ...tree.diagnostics].filter((d) => d.line === entry.line),
    };
  }
}

type Raw = Record<string, unknown>;
/** How deep the inspector is shown an entry that nests a value too deep to pass on. */
const SHOWN_NESTING = 64;

const messageOf = (tree: EntryTree, i: number): Raw | undefined => {
  const e = tree.entries[i];
  const m = e?.raw["message"];
  return e?.type === "message" && typeof m === "object" && m !== null ? (m as Raw) : undefined;
};

/**
 * Tool calls of an assistant entry with the entry holding each result (searched among its descendants on
 * single-child runs and the first branch), and for a tool result the entry that made the call (its ancestors).
 */
function pairToolCalls(tree: EntryTree, index: number): Pick<EntryDetail, "toolCalls" | "callEntry"> {
  const message = messageOf(tree, index);
  if (message?.["role"] === "assistant" && Array.isArray(message["content"])) {
    const calls = (message["content"] as Raw[]).filter((b) => b?.["type"] === "toolCall");
    return {
      toolCalls: calls.map((c) => ({
        callId: fieldText(c["id"]),
        name: fieldText(c["name"]),
        result: typeof c["id"] === "string" ? findResult(tree, index, c["id"]) : undefined,
      })),
      callEntry: undefined,
    };
  }
  const callId = message?.["role"] === "toolResult" ? message["toolCallId"] : undefined;
  return { toolCalls: [], callEntry: typeof callId === "string" ? findCall(tree, index, callId) : undefined };
}

function findResult(tree: EntryTree, from: number, callId: string): number | undefined {
  const queue = [...(tree.children[from] ?? [])];
  for (let steps = 0; queue.length > 0 && steps < 10_000; steps += 1) {
    const i = queue.shift()!;
    const m = messageOf(tree, i);
    if (m?.["role"] === "toolResult" && m["toolCallId"] === callId) return i;
    if (m?.["role"] === "user" || m?.["role"] === "assistant") continue;
    for (const child of tree.children[i] ?? []) queue.push(child);
  }
  return undefined;
}

function findCall(tree: EntryTree, from: number, callId: string): number | undefined {
  let i = tree.parentOf[from];
  for (let steps = 0; i !== undefined && steps < 10_000; steps += 1) {
    const m = messageOf(tree, i);
    if (
      m?.["role"] === "assistant" &&
      Array.isArray(m["content"]) &&
      (m["content"] as Raw[]).some((b) => b?.["type"] === "toolCall" && b["id"] === callId)
    )
      return i;
    i = tree.parentOf[i];
  }
  return undefined;
}
