/**
 * The session client over a Web Worker, which outlives its worker. When the worker stops — an uncaught error, a
 * message that cannot be read, or silence while requests wait — every open request fails with the reason, a fresh
 * worker starts, and every session that was loaded is read again (from its stored copy when there is one) before
 * any newer request goes through. The files being read when it stopped are named and not read again: they may be
 * what stopped it. A worker that stops twice without ever answering is not started a third time.
 */
import type { SnapshotSource } from "../core/snapshot/read.ts";
import { ProtocolClient, WorkerStoppedError, type LoadHandle, type SessionClient } from "./client.ts";
import type {
  LoadProgress,
  Gesture,
  Ping,
  Pong,
  Request,
  Response,
  SeriesProgress,
  SessionSummary,
  TreeFilter,
} from "./protocol.ts";
import type { RuleSettings } from "../core/project/rules.ts";
import type { CompareSide } from "../core/diff/sides.ts";
import type { ChangeRange } from "./page-compare.ts";
import type { ExportChoices } from "../core/snapshot/export.ts";
import { explainLoadFailure } from "./read-failure.ts";

/** What the client needs of a worker (the real one, or a stand-in in tests). */
export interface WorkerPort {
  postMessage(message: Request | Ping | Gesture): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<Response | Pong>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  onmessageerror: ((event: MessageEvent) => void) | null;
}

/** A file that was being read when the worker stopped: not loaded, and not read again by itself. */
export interface InterruptedLoad {
  readonly key: string;
  readonly name: string;
  readonly file: Blob;
}

/** What a restart after the worker stopped kept and lost. */
export interface WorkerRestart {
  readonly reason: string;
  readonly interrupted: readonly InterruptedLoad[];
  /** Keys of the sessions read again into the new worker. */
  readonly reopened: readonly string[];
  /** Sessions that could not be read again, and why; they are gone from the worker. */
  readonly lost: readonly { readonly key: string; readonly name: string; readonly why: string }[];
  /** A question about the view in flight when it stopped was in flight at the previous stop too: don't ask again. */
  readonly repeated: boolean;
  /** False when no new worker could be started: every later request fails. */
  readonly running: boolean;
}

/** The app's side of a restart. */
export interface WorkerSupervisor {
  /** The worker stopped; a new one is reading `reopening` sessions again. */
  stopped(reason: string, reopening: number): void;
  /** The stored copy of a loaded session to read it again from; undefined: the Blob it was first read from. */
  storedCopy(key: string): Promise<Blob | undefined>;
  /** The new worker holds every session it could read again. */
  restarted(restart: WorkerRestart): void;
}

export interface WorkerClientOptions {
  readonly spawn: () => WorkerPort;
  /** A worker that has owed an answer this long (ms) is asked whether it is alive (default 5 s). */
  readonly probeAfterMs?: number;
  /**
   * A worker that has owed an answer this long (ms) without a sign of life has stopped (default 60 s: long enough
   * for the longest synchronous step on a huge session, such as tokenising a 100 MB tool output).
   */
  readonly deadAfterMs?: number;
}

const now = () => performance.now();

/** The worker is told of a gesture at most this often (ms): well within its hold (`GESTURE_HOLD_MS`). */
export const GESTURE_NOTICE_MS = 100;

/** A request without its id, to recognise the same question asked again. */
function signature(request: Request): string {
  const { requestId: _, ...question } = request;
  return JSON.stringify(question);
}

export class WorkerSessionClient implements SessionClient {
  readonly #supervisor: WorkerSupervisor;
  readonly #spawn: () => WorkerPort;
  readonly #probeAfter: number;
  readonly #deadAfter: number;
  readonly #timer: ReturnType<typeof setInterval>;
  /** Sessions the worker holds (or is about to hold again), with the Blob each was read from. */
  readonly #loaded = new Map<string, { readonly file: Blob; readonly name: string }>();
  #port!: WorkerPort;
  #channel!: ProtocolClient;
  /** When the worker last said anything; whether it has said anything at all; whether it was asked if alive. */
  #heard = 0;
  #answered = false;
  #probed = false;
  #failedStarts = 0;
  /** Why no worker runs any more (two stopped before answering anything). */
  #unusable: string | undefined;
  #recovering = false;
  #recovery: Promise<void> = Promise.resolve();
  #lastSuspects: ReadonlySet<string> = new Set();
  /** The models.json the worker reads models from (told again to a restarted worker). */
  #modelsJson: string | undefined;
  /** When the worker was last told of a gesture. */
  #gestureTold = -Infinity;

  constructor(supervisor: WorkerSupervisor, options: WorkerClientOptions) {
    this.#supervisor = supervisor;
    this.#spawn = options.spawn;
    this.#probeAfter = options.probeAfterMs ?? 5_000;
    this.#deadAfter = options.deadAfterMs ?? 60_000;
    this.#start();
    this.#timer = setInterval(() => this.#watch(), Math.min(this.#probeAfter, this.#deadAfter));
  }

  /** Stops the worker and the watch (tests; the page keeps its client for its whole life). */
  dispose(): void {
    clearInterval(this.#timer);
    this.#port.terminate();
  }

  #start(): void {
    const port = this.#spawn();
    const channel = new ProtocolClient((request) => port.postMessage(request));
    port.onmessage = (event) => {
      if (port !== this.#port) return;
      this.#heard = now();
      this.#answered = true;
      this.#probed = false;
      if (event.data.type !== "pong") channel.receive(event.data);
    };
    port.onerror = (event) => {
      const started = port !== this.#port || this.#answered;
      this.#stopped(
        port,
        event.message || (started ? "an error it did not describe" : "its script could not be loaded"),
      );
    };
    port.onmessageerror = () => this.#stopped(port, "a message from it could not be read");
    this.#port = port;
    this.#channel = channel;
    this.#heard = now();
    this.#answered = false;
    this.#probed = true;
    port.postMessage({ type: "ping" }); // the answer says it started
  }

  /** Asks a worker that owes an answer whether it is alive, and gives it up when it stays silent. */
  #watch(): void {
    if (this.#unusable !== undefined) return;
    if (!this.#channel.busy && this.#answered) {
      this.#heard = now(); // nothing owed: silence is fine
      return;
    }
    const silent = now() - this.#heard;
    if (silent >= this.#deadAfter) {
      this.#stopped(this.#port, `it did not answer for ${Math.round(silent / 1000)} s`);
    } else if (silent >= this.#probeAfter && !this.#probed) {
      this.#probed = true;
      this.#port.postMessage({ type: "ping" });
    }
  }

  #stopped(port: WorkerPort, reason: string): void {
    if (port !== this.#port || this.#unusable !== undefined) return;
    port.onmessage = port.onerror = port.onmessageerror = null;
    port.terminate();
    const open = this.#channel.stop(reason);
    this.#failedStarts = this.#answered ? 0 : this.#failedStarts + 1;
    if (this.#failedStarts >= 2) this.#unusable = reason;
    else this.#start();
    if (this.#recovering) return; // the recovery under way sees its reload fail, and goes on with the next
    this.#recovering = true;
    this.#recovery = this.#recover(reason, open);
  }

  async #recover(reason: string, open: readonly Request[]): Promise<void> {
    const interrupted = open.flatMap((r) => (r.type === "load" ? [{ key: r.key, name: r.name, file: r.file }] : []));
    const suspects = new Set(open.filter((r) => r.type !== "load").map(signature));
    const repeated = [...suspects].some((s) => this.#lastSuspects.has(s));
    this.#lastSuspects = suspects;
    const sessions = [...this.#loaded];
    this.#supervisor.stopped(reason, sessions.length);
    if (this.#modelsJson !== undefined && this.#unusable === undefined)
      await this.#channel.models(this.#modelsJson).catch(() => undefined); // read before: it reads the same again
    const reopened: string[] = [];
    const lost: { key: string; name: string; why: string }[] = [];
    for (const [key, { file, name }] of sessions) {
      if (!this.#loaded.has(key)) continue; // removed meanwhile
      const why = await this.#reload(key, file, name);
      if (why === undefined) reopened.push(key);
      else {
        this.#loaded.delete(key);
        lost.push({ key, name, why });
      }
    }
    this.#recovering = false;
    const running = this.#unusable === undefined;
    this.#supervisor.restarted({ reason, interrupted, reopened, lost, repeated, running });
  }

  /** Reads a session into the new worker again; undefined when it worked, else why not. */
  async #reload(key: string, file: Blob, name: string): Promise<string | undefined> {
    const stored = await this.#supervisor.storedCopy(key).catch(() => undefined);
    let why = "it could not be read";
    for (const source of stored ? [stored, file] : [file]) {
      if (this.#unusable !== undefined) return `no session worker could be started (${this.#unusable})`;
      try {
        await this.#read(this.#channel, key, source, name, () => undefined).done;
        return undefined; // still kept with the Blob it was first read from, should the stored copy fail later
      } catch (error) {
        if (error instanceof WorkerStoppedError)
          return `the session worker stopped again while reading it (${error.reason})`;
        why = error instanceof Error ? error.message : String(error);
      }
    }
    return why;
  }

  /** A load on one channel, with a failure to read the file itself said plainly. */
  #read(channel: ProtocolClient, key: string, file: Blob, name: string, onProgress: (p: LoadProgress) => void) {
    let bytesRead = 0;
    const handle = channel.load(key, file, name, (progress) => {
      bytesRead = progress.bytesRead;
      onProgress(progress);
    });
    const done = handle.done.catch(async (error: unknown) => {
      if (error instanceof WorkerStoppedError) throw error;
      throw await explainLoadFailure(error, file, name, bytesRead);
    });
    return { done, cancel: handle.cancel };
  }

  /** The channel to the worker once no restart is under way. */
  async #ready(): Promise<ProtocolClient> {
    while (this.#recovering) await this.#recovery;
    if (this.#unusable !== undefined)
      throw new Error(`The session worker could not be started (${this.#unusable}). Reload the page to try again.`);
    return this.#channel;
  }

  load(key: string, file: Blob, name: string, onProgress: (p: LoadProgress) => void): LoadHandle {
    let cancelled = false;
    let inner: LoadHandle | undefined;
    const done = (async (): Promise<SessionSummary> => {
      const channel = await this.#ready();
      if (cancelled) throw new Error(`Loading ${name} was cancelled.`);
      inner = this.#read(channel, key, file, name, onProgress);
      const summary = await inner.done;
      if (cancelled) {
        // The worker read the last slice before the cancel reached it: the person asked not to have it.
        await channel.remove(key).catch(() => undefined);
        throw new Error(`Loading ${name} was cancelled.`);
      }
      this.#loaded.set(key, { file, name });
      return summary;
    })();
    return {
      done,
      cancel: () => {
        cancelled = true;
        inner?.cancel();
      },
    };
  }

  async remove(key: string): Promise<void> {
    this.#loaded.delete(key);
    if (this.#unusable !== undefined) return; // no worker holds it
    const channel = await this.#ready();
    await channel.remove(key).catch((error: unknown) => {
      if (!(error instanceof WorkerStoppedError)) throw error; // else the new worker never read it again
    });
  }

  async entry(key: string, index: number) {
    return (await this.#ready()).entry(key, index);
  }

  async search(key: string, query: string, filter: TreeFilter, leaf: number | undefined) {
    return (await this.#ready()).search(key, query, filter, leaf);
  }

  async project(key: string, leaf: number, settings: RuleSettings, model: string | undefined) {
    return (await this.#ready()).project(key, leaf, settings, model);
  }

  async tokens(key: string, leaf: number, settings: RuleSettings, model: string | undefined) {
    return (await this.#ready()).tokens(key, leaf, settings, model);
  }

  async accuracy(key: string) {
    return (await this.#ready()).accuracy(key);
  }

  async models(text: string | undefined) {
    const answer = await (await this.#ready()).models(text);
    if (answer.ok) this.#modelsJson = text;
    return answer;
  }

  async openSnapshot(source: SnapshotSource) {
    return (await this.#ready()).openSnapshot(source);
  }

  async snapshotItems(id: number, start: number, end: number) {
    return (await this.#ready()).snapshotItems(id, start, end);
  }

  async snapshotJson(id: number, item: number | undefined) {
    return (await this.#ready()).snapshotJson(id, item);
  }

  async snapshotFile(id: number) {
    return (await this.#ready()).snapshotFile(id);
  }

  async closeSnapshot(id: number): Promise<void> {
    if (this.#unusable !== undefined) return; // no worker holds it
    const channel = await this.#ready();
    await channel.closeSnapshot(id).catch((error: unknown) => {
      if (!(error instanceof WorkerStoppedError)) throw error; // a new worker never held it
    });
  }

  async payloadFile(key: string, leaf: number, settings: RuleSettings, model: string | undefined) {
    return (await this.#ready()).payloadFile(key, leaf, settings, model);
  }

  async payloadJson(key: string, leaf: number, settings: RuleSettings, model: string | undefined, item?: number) {
    return (await this.#ready()).payloadJson(key, leaf, settings, model, item);
  }

  async payloadItems(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
    start: number,
    end: number,
  ) {
    return (await this.#ready()).payloadItems(key, leaf, settings, model, start, end);
  }

  async ruleEffects(key: string, leaf: number, settings: RuleSettings, model: string | undefined) {
    return (await this.#ready()).ruleEffects(key, leaf, settings, model);
  }

  async snapshot(
    key: string,
    leaf: number,
    settings: RuleSettings,
    model: string | undefined,
    preset: string | undefined,
  ) {
    return (await this.#ready()).snapshot(key, leaf, settings, model, preset);
  }

  async shareOutput(shareId: number, choices: ExportChoices) {
    return (await this.#ready()).shareOutput(shareId, choices);
  }

  async shareEnd(shareId: number): Promise<void> {
    if (this.#unusable !== undefined) return; // no worker holds it
    const channel = await this.#ready();
    await channel.shareEnd(shareId).catch((error: unknown) => {
      if (!(error instanceof WorkerStoppedError)) throw error; // a new worker never held it
    });
  }

  async compare(key: string, a: CompareSide, b: CompareSide, json: boolean) {
    return (await this.#ready()).compare(key, a, b, json);
  }

  async compareChanges(key: string, a: CompareSide, b: CompareSide, json: boolean, range: ChangeRange) {
    return (await this.#ready()).compareChanges(key, a, b, json, range);
  }

  async cacheSeries(key: string, side: CompareSide, slot: string, onProgress?: (progress: SeriesProgress) => void) {
    return (await this.#ready()).cacheSeries(key, side, slot, onProgress);
  }

  stopSeries(slot: string): void {
    this.#channel.stopSeries(slot);
  }

  gesture(): void {
    const time = now();
    if (time - this.#gestureTold < GESTURE_NOTICE_MS || this.#unusable !== undefined) return;
    this.#gestureTold = time;
    this.#port.postMessage({ type: "gesture" });
  }
}

/** The real thing: sessions parsed and held in a Web Worker, restarted when it stops. */
export function createWorkerClient(
  supervisor: WorkerSupervisor,
  options: Omit<WorkerClientOptions, "spawn"> = {},
): WorkerSessionClient {
  const spawn = () =>
    new Worker(new URL("./session.worker.ts", import.meta.url), { type: "module", name: "sessions" }) as WorkerPort;
  return new WorkerSessionClient(supervisor, { ...options, spawn });
}
