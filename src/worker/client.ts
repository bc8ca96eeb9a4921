/**
 * The UI's only way to the sessions: a `SessionClient` over the worker, with an in-process twin for tests.
 * For questions that are asked again and again (entry details, searches) the latest request wins.
 */
import { SnapshotNotHeldError, WorkerAnswerError } from "./answer-errors.ts";
import type {
  EntryDetail,
  LoadProgress,
  ModelsInUse,
  Request,
  Response,
  SeriesProgress,
  SessionSummary,
  TreeFilter,
} from "./protocol.ts";
import type { RuleSettings } from "../core/project/rules.ts";
import type { ProjectionAnswer, RuleEffect } from "./projection.ts";
import type { PageTokenCount, SessionTokenAccuracy } from "./tokens-engine.ts";
import type { Result } from "../core/result.ts";
import type { ExportChoices } from "../core/snapshot/export.ts";
import type { ShareOutput, ShareStart } from "../core/snapshot/share.ts";
import type { SnapshotSource } from "../core/snapshot/read.ts";
import type { PageSnapshot } from "./page-snapshot.ts";
import type { CompareSide } from "../core/diff/sides.ts";
import type { ChangeRange, IndexedChange, PageComparison } from "./page-compare.ts";
import type { CacheSeries } from "../core/diff/cache-series.ts";

export interface LoadHandle {
  readonly done: Promise<SessionSummary>;
  cancel(): void;
}

/**
 * Entry, search, project, tokens and rule-effects questions also resolve undefined when the worker stopped before
 * answering them: the app asks again once a restarted worker has re-read the sessions.
 */
export interface SessionClient {
  load(key: string, file: Blob, name: string, onProgress: (p: LoadProgress) => void): LoadHandle;
  remove(key: string): Promise<void>;
  /** Resolves undefined when a newer entry request replaced this one. */
  entry(key: string, index: number): Promise<EntryDetail | undefined>;
  /** Resolves undefined when a newer search replaced this one. */
  search(key: string, query: string, filter: TreeFilter, leaf: number | undefined): Promise<Int32Array | undefined>;
  /** Resolves undefined when a newer projection request replaced this one. */
  project(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
  ): Promise<ProjectionAnswer | undefined>;
  /** Token counts of the projection; resolves undefined when a newer count replaced this one. */
  tokens(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
  ): Promise<PageTokenCount | undefined>;
  /** The projection's request body as pretty JSON, or one item of its main list: what the payload view copies. */
  payloadJson(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
    item: number | undefined,
  ): Promise<string>;
  /** The whole request body as a JSON file (`payloadJson` of the body, made into a Blob in the worker). */
  payloadFile(key: string, leaf: number, settings: RuleSettings, model: string | undefined): Promise<Blob>;
  /** Items `[start, end)` of the projection's main list as the page holds them (a long list's answer has the first). */
  payloadItems(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
    start: number,
    end: number,
  ): Promise<readonly unknown[]>;
  /** Both estimators measured on the session's recorded turns (slow on long sessions: ask once). */
  accuracy(key: string): Promise<SessionTokenAccuracy>;
  /**
   * Reads models from the person's models.json from now on (undefined: pi-ai's own only); an error says what is
   * wrong with the file, and the models in use stay as they were.
   */
  models(text: string | undefined): Promise<Result<ModelsInUse>>;
  /**
   * A snapshot, read, checked and held off the page's thread, as the page shows it (see worker/page-snapshot.ts);
   * an error says what the file or link holds instead.
   */
  openSnapshot(source: SnapshotSource): Promise<Result<PageSnapshot>>;
  /** Items `[start, end)` of the held snapshot's payload list, as the page holds them. */
  snapshotItems(id: number, start: number, end: number): Promise<readonly unknown[]>;
  /** The held snapshot's request body as pretty JSON, or one item of its main list. */
  snapshotJson(id: number, item: number | undefined): Promise<string>;
  /** The held snapshot's request body as a pretty JSON file. */
  snapshotFile(id: number): Promise<Blob>;
  /** The snapshot is no longer shown: it need not be held any longer. */
  closeSnapshot(id: number): Promise<void>;
  /** Resolves undefined when a newer request replaced this one. */
  ruleEffects(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
  ): Promise<readonly RuleEffect[] | undefined>;
  /**
   * A snapshot of this leaf under these rules, reviewed for sharing: what it would give away, and its file and
   * link with all of that hidden (every request is answered).
   */
  snapshot(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
    preset: string | undefined,
  ): Promise<Result<ShareStart>>;
  /** The file and link of the latest share review under these choices. */
  shareOutput(shareId: number, choices: ExportChoices): Promise<Result<ShareOutput>>;
  /** The share review is closed: its snapshot need not be held any longer. */
  shareEnd(shareId: number): Promise<void>;
  /** Two projections compared by provenance, with token and cost deltas; undefined when a newer one replaced it. */
  compare(key: string, a: CompareSide, b: CompareSide, json: boolean): Promise<Result<PageComparison> | undefined>;
  /** More changes of that comparison (see the "compareChanges" request). */
  compareChanges(
    key: string,
    a: CompareSide,
    b: CompareSide,
    json: boolean,
    range: ChangeRange,
  ): Promise<readonly IndexedChange[]>;
  /**
   * Prompt size and cache-reusable prefix of every request on the side's path. `slot` ("A", "B") lets two series
   * run side by side; a newer request in the same slot stops the older one, which resolves undefined.
   */
  cacheSeries(
    key: string,
    side: CompareSide,
    slot: string,
    onProgress?: (progress: SeriesProgress) => void,
  ): Promise<Result<CacheSeries> | undefined>;
  /** Stops the series being measured in `slot` (nobody looks at it any more); it resolves undefined. */
  stopSeries(slot: string): void;
  /**
   * The person is panning, zooming or scrolling: long work waits until they stop (see the `Gesture` message). Cheap
   * to call on every event of a gesture.
   */
  gesture(): void;
}

interface Pending {
  readonly request: Request;
  readonly resolve: (response: Response) => void;
  readonly reject: (error: Error) => void;
  readonly onProgress?: (p: LoadProgress) => void;
  readonly onSeriesProgress?: (progress: SeriesProgress) => void;
}

/**
 * The worker stopped before it answered. Loads that were in flight were not opened; a question about the view
 * that was in flight resolves undefined instead (as if replaced: the app asks again once a new worker is up).
 */
export class WorkerStoppedError extends Error {
  /** Why it stopped, for people: "Uncaught RangeError: …", "it did not answer for 30 s". */
  readonly reason: string;

  constructor(reason: string, message: string) {
    super(message);
    this.name = "WorkerStoppedError";
    this.reason = reason;
  }
}

/** What the app asks again for the selected session once a restarted worker has re-read it. */
const REASKED: ReadonlySet<string> = new Set(["entry", "search", "project", "tokens", "ruleEffects"]);

/** Speaks the protocol over any `postMessage` channel. */
export class ProtocolClient implements SessionClient {
  readonly #send: (request: Request) => void;
  readonly #pending = new Map<number, Pending>();
  readonly #latest = new Map<string, number>();
  #nextId = 1;

  constructor(send: (request: Request) => void) {
    this.#send = send;
  }

  /** Feed every response from the other side here. */
  receive(response: Response): void {
    const pending = this.#pending.get(response.requestId);
    if (!pending) return;
    if (response.type === "progress") return pending.onProgress?.(response.progress);
    if (response.type === "seriesProgress") {
      const { done, total, turns } = response;
      return pending.onSeriesProgress?.({ done, total, turns });
    }
    this.#pending.delete(response.requestId);
    pending.resolve(response);
  }

  /** True while some request waits for its answer. */
  get busy(): boolean {
    return this.#pending.size > 0;
  }

  /**
   * The other side stopped: every open request fails with a `WorkerStoppedError` (what was already loaded stays in
   * the UI). Returns the requests that were open, so the caller can say which files were being read.
   */
  stop(reason: string): Request[] {
    const open = [...this.#pending.values()];
    this.#pending.clear();
    for (const { request, reject } of open) {
      const what = request.type === "load" ? `while reading ${request.name}` : "before it answered";
      reject(new WorkerStoppedError(reason, `The session worker stopped ${what} (${reason}).`));
    }
    return open.map((p) => p.request);
  }

  /** The worker's answer of `type` to one request; its error, or any other answer, is thrown (`what` was asked). */
  async #ask<T extends Response["type"]>(
    type: T,
    make: (requestId: number) => Request,
    what: string,
  ): Promise<Extract<Response, { type: T }>> {
    const r = await this.#request(make).response;
    if (r.type === type) return r as Extract<Response, { type: T }>;
    if (r.type === "error") throw r.notHeld ? new SnapshotNotHeldError(r.message) : new WorkerAnswerError(r.message);
    throw new Error(`Unexpected answer ${r.type} to ${what}.`);
  }

  #request(
    make: (requestId: number) => Request,
    onProgress?: (p: LoadProgress) => void,
    handlers?: Pick<Pending, "onSeriesProgress">,
  ): { requestId: number; response: Promise<Response> } {
    const requestId = this.#nextId++;
    const request = make(requestId);
    const response = new Promise<Response>((resolve, reject) =>
      this.#pending.set(requestId, { request, resolve, reject, ...(onProgress ? { onProgress } : {}), ...handlers }),
    );
    this.#send(request);
    return { requestId, response };
  }

  load(key: string, file: Blob, name: string, onProgress: (p: LoadProgress) => void): LoadHandle {
    const { requestId, response } = this.#request(
      (id) => ({ type: "load", requestId: id, key, file, name }),
      onProgress,
    );
    const done = response.then((r) => {
      if (r.type === "loaded") return r.summary;
      throw new Error(r.type === "error" ? r.message : `Unexpected answer ${r.type} while loading ${name}.`);
    });
    return { done, cancel: () => this.#send({ type: "cancel", requestId }) };
  }

  async remove(key: string): Promise<void> {
    await this.#request((id) => ({ type: "remove", requestId: id, key })).response;
  }

  async entry(key: string, index: number): Promise<EntryDetail | undefined> {
    const r = await this.#latestWins("entry", (id) => ({ type: "entry", requestId: id, key, index }));
    return r?.type === "entry" ? r.detail : undefined;
  }

  async search(
    key: string,
    query: string,
    filter: TreeFilter,
    leaf: number | undefined,
  ): Promise<Int32Array | undefined> {
    const r = await this.#latestWins("search", (id) => ({ type: "search", requestId: id, key, query, filter, leaf }));
    return r?.type === "search" && !r.superseded ? r.matches : undefined;
  }

  async project(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
  ): Promise<ProjectionAnswer | undefined> {
    const r = await this.#latestWins("project", (id) => ({
      type: "project",
      requestId: id,
      key,
      leaf,
      settings,
      model,
    }));
    return r?.type === "project" ? r.answer : undefined;
  }

  async tokens(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
  ): Promise<PageTokenCount | undefined> {
    const r = await this.#latestWins("tokens", (id) => ({ type: "tokens", requestId: id, key, leaf, settings, model }));
    return r?.type === "tokens" ? r.result : undefined;
  }

  /** The request body as pretty JSON, or one item of its main list (see the "payloadJson" request). */
  async payloadJson(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
    item: number | undefined,
  ): Promise<string> {
    const make = (id: number) => ({ type: "payloadJson", requestId: id, key, leaf, settings, model, item }) as const;
    return (await this.#ask("payloadJson", make, "a payload JSON request")).json;
  }

  async payloadFile(key: string, leaf: number, settings: RuleSettings, model: string | undefined): Promise<Blob> {
    const make = (id: number) => ({ type: "payloadFile", requestId: id, key, leaf, settings, model }) as const;
    return (await this.#ask("payloadFile", make, "a payload file request")).file;
  }

  /** Items of the projection's main list as the page holds them (see the "payloadItems" request). */
  async payloadItems(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
    start: number,
    end: number,
  ): Promise<readonly unknown[]> {
    const make = (id: number) =>
      ({ type: "payloadItems", requestId: id, key, leaf, settings, model, start, end }) as const;
    return (await this.#ask("payloadItems", make, "a payload items request")).items;
  }

  async accuracy(key: string): Promise<SessionTokenAccuracy> {
    return (await this.#ask("accuracy", (id) => ({ type: "accuracy", requestId: id, key }), "an accuracy request"))
      .accuracy;
  }

  async models(text: string | undefined): Promise<Result<ModelsInUse>> {
    return (await this.#ask("models", (id) => ({ type: "models", requestId: id, text }), "a models request")).answer;
  }

  async openSnapshot(source: SnapshotSource): Promise<Result<PageSnapshot>> {
    const make = (requestId: number) => ({ type: "openSnapshot", requestId, source }) as const;
    return (await this.#ask("openSnapshot", make, "a snapshot")).answer;
  }

  async snapshotItems(id: number, start: number, end: number): Promise<readonly unknown[]> {
    const make = (requestId: number) => ({ type: "snapshotItems", requestId, id, start, end }) as const;
    return (await this.#ask("snapshotItems", make, "a snapshot items request")).items;
  }

  async snapshotJson(id: number, item: number | undefined): Promise<string> {
    const make = (requestId: number) => ({ type: "snapshotJson", requestId, id, item }) as const;
    return (await this.#ask("snapshotJson", make, "a snapshot JSON request")).json;
  }

  async snapshotFile(id: number): Promise<Blob> {
    const make = (requestId: number) => ({ type: "snapshotFile", requestId, id }) as const;
    return (await this.#ask("snapshotFile", make, "a snapshot file request")).file;
  }

  async closeSnapshot(id: number): Promise<void> {
    await this.#request((requestId) => ({ type: "closeSnapshot", requestId, id })).response;
  }

  async ruleEffects(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
  ): Promise<readonly RuleEffect[] | undefined> {
    const r = await this.#latestWins("ruleEffects", (id) => ({
      type: "ruleEffects",
      requestId: id,
      key,
      leaf,
      settings,
      model,
    }));
    return r?.type === "ruleEffects" ? r.effects : undefined;
  }

  async snapshot(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
    preset: string | undefined,
  ): Promise<Result<ShareStart>> {
    const make = (id: number) => ({ type: "snapshot", requestId: id, key, leaf, settings, model, preset }) as const;
    return (await this.#ask("snapshot", make, "a snapshot request")).answer;
  }

  async shareEnd(shareId: number): Promise<void> {
    await this.#request((id) => ({ type: "shareEnd", requestId: id, shareId })).response;
  }

  async shareOutput(shareId: number, choices: ExportChoices): Promise<Result<ShareOutput>> {
    const make = (id: number) => ({ type: "shareOutput", requestId: id, shareId, choices }) as const;
    return (await this.#ask("shareOutput", make, "a share request")).answer;
  }

  async compare(
    key: string,
    a: CompareSide,
    b: CompareSide,
    json: boolean,
  ): Promise<Result<PageComparison> | undefined> {
    const r = await this.#latestWins("compare", (id) => ({ type: "compare", requestId: id, key, a, b, json }));
    return r?.type === "compare" ? r.answer : undefined;
  }

  async compareChanges(
    key: string,
    a: CompareSide,
    b: CompareSide,
    json: boolean,
    range: ChangeRange,
  ): Promise<readonly IndexedChange[]> {
    const make = (id: number) => ({ type: "compareChanges", requestId: id, key, a, b, json, ...range }) as const;
    return (await this.#ask("compareChanges", make, "a comparison changes request")).changes;
  }

  async cacheSeries(
    key: string,
    side: CompareSide,
    slot: string,
    onProgress?: (progress: SeriesProgress) => void,
  ): Promise<Result<CacheSeries> | undefined> {
    const kind = `cacheSeries ${slot}`;
    this.stopSeries(slot);
    const r = await this.#latestWins(
      kind,
      (id) => ({ type: "cacheSeries", requestId: id, key, side }),
      onProgress && { onSeriesProgress: onProgress },
    );
    return r?.type === "cacheSeries" ? r.answer : undefined;
  }

  // Only a worker needs telling (`WorkerSessionClient` does): the in-process twin, used in tests, runs its engine in
  // the caller's thread, where the engine's work and a frame never run at the same time.
  gesture(): void {}

  stopSeries(slot: string): void {
    const kind = `cacheSeries ${slot}`;
    const older = this.#latest.get(kind);
    if (older === undefined) return;
    this.#latest.delete(kind); // what it answers now (its error, most likely) is for nobody
    if (this.#pending.has(older)) this.#send({ type: "cancel", requestId: older });
  }

  /**
   * The latest request of this kind wins. Questions the app asks again when it re-selects the session after a
   * restart (`REASKED`) resolve undefined when the worker stops; the others fail with the reason.
   */
  async #latestWins(
    kind: string,
    make: (requestId: number) => Request,
    handlers?: Pick<Pending, "onSeriesProgress">,
  ): Promise<Response | undefined> {
    const { requestId, response } = this.#request(make, undefined, handlers);
    this.#latest.set(kind, requestId);
    const r = await response.catch((error: unknown) => {
      if (error instanceof WorkerStoppedError && REASKED.has(kind)) return undefined;
      throw error;
    });
    if (r === undefined || this.#latest.get(kind) !== requestId) return undefined;
    if (r.type === "error") throw new Error(r.message);
    return r;
  }
}
