/**
 * The open sessions: loading (a few files at a time, with progress per file and across files, and cancel),
 * removing, and keeping the local library in step. Storage problems and a stopped session worker become notices;
 * nothing already on screen is lost because of them.
 */
import { WorkerStoppedError, type SessionClient } from "../../worker/client.ts";
import type { WorkerRestart } from "../../worker/worker-client.ts";
import type { LoadProgress, SessionSummary } from "../../worker/protocol.ts";
import type { PickedFile } from "../files/drop.ts";
import { describeKind, describeOpened, describeRestart, type OpenOutcome } from "../files/open-report.ts";
import { sessionRoom, tooBigToHold } from "../files/memory.ts";
import { mapLimited } from "../files/queue.ts";
import {
  deleteSessionFile,
  loadLibrary,
  loadSessionFile,
  saveLibrary,
  saveSessionFile,
  type Library,
} from "./persistence.ts";

export interface LoadJob {
  readonly id: string;
  readonly name: string;
  readonly progress: LoadProgress | undefined;
  readonly cancel: () => void;
}

/** Several files opened together: how far along they are. */
export interface LoadBatch {
  readonly id: number;
  readonly label: string;
  readonly files: number;
  readonly done: number;
  readonly cancel: () => void;
}

export interface Notice {
  readonly id: number;
  readonly kind: "error" | "warning" | "info";
  readonly text: string;
  /** A button beside the text ("Retry big.jsonl"). */
  readonly action?: { readonly label: string; readonly run: () => void };
  /** Every file the text is about, one line each, shown on request. */
  readonly details?: readonly string[];
}

/** Files read at once: enough to overlap reading with parsing, few enough that a stopped worker names few. */
export const OPEN_AT_ONCE = 4;

/**
 * A file gets its own progress row once it has been loading this long. Most sessions open sooner: a folder of
 * small ones would otherwise flash a row in and out per file, each time moving everything below it.
 */
export const JOB_ROW_DELAY_MS = 300;

/**
 * While several files open, what they add to the list (and the batch's count) is shown at once and then at most
 * this often. Small sessions arrive every few milliseconds; each showing is a frame that lays out and paints the
 * page (~9 ms), which on a machine with few cores is taken from the worker reading the files.
 */
export const LIST_EVERY_MS = 250;

interface Running {
  readonly id: number;
  done: number;
  cancelled: boolean;
  readonly unsaved: string[];
  reason: string;
  /** Files being stored for the next visit: the batch's message waits for them, the next file does not. */
  readonly saving: Promise<void>[];
  /** Cancels the files being read now, with a row or not yet. */
  readonly cancels: Set<() => void>;
}

let nextNotice = 1;
let nextBatch = 1;
const newKey = () => `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class LibraryState {
  sessions: readonly SessionSummary[] = $state.raw([]);
  jobs: readonly LoadJob[] = $state.raw([]);
  batches: readonly LoadBatch[] = $state.raw([]);
  notices: readonly Notice[] = $state.raw([]);
  #client: SessionClient;
  #saved: Library = { version: 1, sessions: [], selection: {}, visited: false };
  #restartNotice: number | undefined;
  /** Bytes of session files the tab can hold open (`files/memory.ts`), and bytes of files being read now. */
  readonly #room: number;
  #reading = 0;
  /** Sessions opened (in a batch) but not listed yet, and whether a batch's count moved (`LIST_EVERY_MS`). */
  #arrived: SessionSummary[] = [];
  #counted = false;
  #showing: ReturnType<typeof setTimeout> | undefined;
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never shown
  readonly #running = new Map<number, Running>();
  /** While saved sessions are re-opened, the place each had in the list: read in another order, kept in it. */
  #restoring: ReadonlyMap<string, number> | undefined;

  /** Sessions the person removed: a store still under way for one of them is undone when it lands. Not shown. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #removed = new Set<string>();

  constructor(client: SessionClient, room: number = sessionRoom()) {
    this.#client = client;
    this.#room = room;
  }

  get client(): SessionClient {
    return this.#client;
  }

  get selection(): Library["selection"] {
    return this.#saved.selection;
  }

  /** Shows a message (once: the same text is not shown twice at a time); returns its id. */
  notify(kind: Notice["kind"], text: string, extra: Pick<Notice, "action" | "details"> = {}): number {
    const same = this.notices.find((n) => n.kind === kind && n.text === text);
    if (same) return same.id;
    const notice = { id: nextNotice++, kind, text, ...extra };
    this.notices = [...this.notices, notice];
    return notice.id;
  }

  dismiss(id: number): void {
    this.notices = this.notices.filter((n) => n.id !== id);
  }

  /**
   * Reopens what was open last time: the session shown last time on its own first, so it can be shown while the
   * others are read (`rest`); a folder's worth of them takes seconds.
   */
  async restore(): Promise<{ firstVisit: boolean; rest: Promise<void> }> {
    const loaded = await loadLibrary();
    if (!loaded.ok) {
      this.notify("warning", loaded.error);
      return { firstVisit: false, rest: Promise.resolve() };
    }
    this.#saved = loaded.value.library;
    const restored = this.#saved.sessions.flatMap((s) => {
      const file = loaded.value.files.get(s.key);
      return file ? [{ key: s.key, picked: { file, name: s.name } }] : [];
    });
    const label = "Re-opening saved sessions";
    const shown = restored.filter((s) => s.key === this.#saved.selection.key);
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never shown
    const order: ReadonlyMap<string, number> = new Map(restored.map((s, i) => [s.key, i]));
    this.#restoring = order;
    await this.#openAll(shown, { save: false, label });
    const firstVisit = !this.#saved.visited;
    const rest = this.#openAll(
      restored.filter((s) => !shown.includes(s)),
      { save: false, label },
    ).then(() => {
      if (this.#restoring === order) this.#restoring = undefined;
      return this.#persist({ ...this.#saved, visited: true });
    });
    return { firstVisit, rest };
  }

  /**
   * Opens files (several at once, `atOnce` at a time) and keeps them for the next visit; returns the summaries of
   * those that loaded. One file's failure is its own message; several files get one message saying what happened.
   */
  async open(files: readonly PickedFile[], atOnce = OPEN_AT_ONCE): Promise<SessionSummary[]> {
    const outcomes = await this.#openAll(
      files.map((picked) => ({ key: newKey(), picked })),
      { save: true, label: `Opening ${files.length.toLocaleString("en")} files`, atOnce },
    );
    const keys = outcomes.flatMap((o) => (o.kind === "opened" ? [o.key] : []));
    return this.sessions.filter((s) => keys.includes(s.key));
  }

  /** The stored copy of a session, to read it again after the worker stopped. */
  async storedCopy(key: string): Promise<Blob | undefined> {
    return this.#saved.sessions.some((s) => s.key === key) ? loadSessionFile(key) : undefined;
  }

  /** The session worker stopped: say so while a new one reads the sessions again. */
  workerStopped(reason: string, reopening: number): void {
    const what = reopening === 1 ? "the open session" : `${reopening} open sessions`;
    this.#restartNotice = this.notify(
      "warning",
      reopening > 0
        ? `The session worker stopped (${reason}); re-opening ${what}…`
        : `The session worker stopped (${reason}); starting a new one…`,
    );
  }

  /**
   * A new worker holds what it could read again: sessions it could not are closed, and one message says what
   * happened. Files being read when it stopped are offered again (`retry` reads them one at a time), never retried
   * by themselves.
   */
  workerRestarted(restart: WorkerRestart, retry: (files: PickedFile[]) => void): void {
    if (this.#restartNotice !== undefined) this.dismiss(this.#restartNotice);
    this.#restartNotice = undefined;
    this.#showArrived(false);
    const lost = restart.running ? restart.lost.map((l) => l.key) : this.sessions.map((s) => s.key);
    this.sessions = this.sessions.filter((s) => !lost.includes(s.key));
    const text = describeRestart({ ...restart, reopened: restart.reopened.length });
    const files = restart.interrupted.map(({ file, name }) => ({ file, name }));
    const label = files.length === 1 ? `Retry ${files[0]!.name}` : `Retry ${files.length} files one at a time`;
    this.notify(
      "error",
      text,
      files.length > 0 && restart.running ? { action: { label, run: () => retry(files) } } : {},
    );
  }

  async remove(key: string): Promise<void> {
    this.#removed.add(key);
    this.#showArrived(false);
    this.sessions = this.sessions.filter((s) => s.key !== key);
    await this.#client.remove(key);
    const removed = await deleteSessionFile(key);
    if (!removed.ok) this.notify("warning", removed.error);
    await this.#persist({ ...this.#saved, sessions: this.#saved.sessions.filter((s) => s.key !== key) });
  }

  async saveSelection(selection: Library["selection"]): Promise<void> {
    await this.#persist({ ...this.#saved, selection });
  }

  /** Opens files a few at a time; a single file's failure is told by itself, several files' in one message. */
  async #openAll(
    files: readonly { key: string; picked: PickedFile }[],
    options: { save: boolean; label: string; atOnce?: number },
  ): Promise<OpenOutcome[]> {
    if (files.length === 0) return [];
    const running: Running = {
      id: nextBatch++,
      done: 0,
      cancelled: false,
      unsaved: [],
      reason: "",
      saving: [],
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never shown
      cancels: new Set(),
    };
    const many = files.length > 1;
    if (many) this.#showBatch(running, options.label, files.length);
    this.#running.set(running.id, running);
    const outcomes = await mapLimited(files, options.atOnce ?? OPEN_AT_ONCE, ({ key, picked }) =>
      running.cancelled
        ? Promise.resolve<OpenOutcome>({ kind: "cancelled", name: picked.name })
        : this.#open(key, picked, options.save, running, many),
    );
    this.#showArrived(false);
    this.#running.delete(running.id);
    await Promise.all(running.saving);
    this.batches = this.batches.filter((b) => b.id !== running.id);
    if (many) this.#reportMany(outcomes, running, options.save);
    else this.#reportOne(outcomes[0]!);
    return outcomes;
  }

  /** One file that did not open says why (a worker that stopped while reading it is told by the restart). */
  #reportOne(outcome: OpenOutcome): void {
    if (outcome.kind === "failed") this.notify("error", outcome.message);
    if (outcome.kind === "cancelled") this.notify("error", `Loading ${outcome.name} was cancelled.`);
    if (outcome.kind === "not-session")
      this.notify(
        "warning",
        `${outcome.name} is ${describeKind(outcome.fileKind)}, not a pi session; it was not opened.`,
      );
  }

  /** Several files get one message: how many opened, and every one that did not (or was not saved). */
  #reportMany(outcomes: readonly OpenOutcome[], running: Running, saved: boolean): void {
    if (!saved && outcomes.every((o) => o.kind === "opened")) return; // re-opened from storage as they were
    const report = describeOpened(outcomes, { names: running.unsaved, reason: running.reason });
    this.notify(report.kind, report.text, report.details.length > 0 ? { details: report.details } : {});
  }

  #showBatch(running: Running, label: string, files: number): void {
    const cancel = () => {
      running.cancelled = true;
      for (const cancel of running.cancels) cancel();
    };
    this.batches = [...this.batches, { id: running.id, label, files, done: 0, cancel }];
  }

  async #open(key: string, picked: PickedFile, save: boolean, running: Running, many: boolean): Promise<OpenOutcome> {
    const { file, name } = picked;
    const open = (bytes: number, s: SessionSummary) => bytes + s.bytes;
    const held = this.sessions.reduce(open, 0) + this.#arrived.reduce(open, 0) + this.#reading;
    const tooBig = tooBigToHold(name, file.size, held, this.#room);
    if (tooBig !== undefined) {
      this.#countDone(running);
      return { kind: "failed", name, message: tooBig };
    }
    this.#reading += file.size;
    const jobId = `${running.id}:${key}`;
    let progress: LoadProgress | undefined;
    let shown = false;
    const handle = this.#client.load(key, file, name, (now) => {
      progress = now;
      if (shown) this.jobs = this.jobs.map((j) => (j.id === jobId ? { ...j, progress } : j));
    });
    running.cancels.add(handle.cancel);
    const showRow = setTimeout(() => {
      shown = true;
      this.jobs = [...this.jobs, { id: jobId, name, progress, cancel: handle.cancel }];
    }, JOB_ROW_DELAY_MS);
    try {
      const summary = await handle.done.finally(() => (this.#reading -= file.size));
      if (picked.inFolder && summary.kind !== "pi-session") {
        void this.#client.remove(key);
        return { kind: "not-session", name, fileKind: summary.kind };
      }
      this.#list(summary, many);
      // Stored while the next file is read: storing takes longer than reading a small session.
      if (save) running.saving.push(this.#save(key, name, file, many ? running : undefined));
      return { kind: "opened", name, key };
    } catch (error) {
      if (error instanceof WorkerStoppedError) return { kind: "interrupted", name };
      if (running.cancelled) return { kind: "cancelled", name };
      return { kind: "failed", name, message: messageOf(error) };
    } finally {
      clearTimeout(showRow);
      running.cancels.delete(handle.cancel);
      if (shown) this.jobs = this.jobs.filter((j) => j.id !== jobId);
      this.#countDone(running);
    }
  }

  /** Lists an opened session: at once when it came alone, else with the others that arrive meanwhile. */
  #list(summary: SessionSummary, many: boolean): void {
    if (!many) {
      this.#showArrived(false);
      this.sessions = this.#inPlace([...this.sessions, summary]);
      return;
    }
    this.#arrived.push(summary);
    this.#showSoon();
  }

  #countDone(running: Running): void {
    running.done += 1;
    this.#counted = true;
    this.#showSoon();
  }

  /** Re-opened sessions in the order they were listed last time, then the others in the order they came. */
  #inPlace(sessions: SessionSummary[]): SessionSummary[] {
    const order = this.#restoring;
    if (order === undefined) return sessions;
    const place = (s: SessionSummary) => order.get(s.key) ?? order.size;
    return sessions.sort((a, b) => place(a) - place(b)); // stable: the others keep the order they came in
  }

  /** Shows what arrived once the current step is over (a file is listed, then counted), unless held. */
  #showSoon(): void {
    if (this.#showing !== undefined) return;
    this.#showing = setTimeout(() => this.#showArrived(true), 0);
  }

  /**
   * Shows the sessions that arrived and the batches' counts; `hold` then keeps what arrives next for
   * `LIST_EVERY_MS` (a batch's first file is listed at once, the others at that pace). Without `hold` the list is
   * brought up to date for whatever is about to read or change it.
   */
  #showArrived(hold: boolean): void {
    clearTimeout(this.#showing);
    this.#showing = undefined;
    const changed = this.#arrived.length > 0 || this.#counted;
    if (this.#arrived.length > 0) this.sessions = this.#inPlace([...this.sessions, ...this.#arrived]);
    if (this.#counted && this.batches.some((b) => b.done !== (this.#running.get(b.id)?.done ?? b.done)))
      this.batches = this.batches.map((b) => ({ ...b, done: this.#running.get(b.id)?.done ?? b.done }));
    this.#arrived = [];
    this.#counted = false;
    if (hold && changed) this.#showing = setTimeout(() => this.#showArrived(true), LIST_EVERY_MS);
  }

  /** Stores a file for the next visit; in a batch a failure is gathered for its message, else told now. */
  async #save(key: string, name: string, file: Blob, batch: Running | undefined): Promise<void> {
    const stored = await saveSessionFile(key, name, file);
    if (!stored.ok) {
      if (!batch) return void this.notify("warning", stored.error.message);
      batch.unsaved.push(name);
      batch.reason = stored.error.reason;
      return;
    }
    if (this.#removed.has(key)) {
      // Removed while it was being stored: what was stored goes too, and the library never lists it.
      await deleteSessionFile(key);
      return;
    }
    await this.#persist({ ...this.#saved, sessions: [...this.#saved.sessions, { key, name, addedAt: Date.now() }] });
  }

  async #persist(library: Library): Promise<void> {
    this.#saved = library;
    const saved = await saveLibrary(library);
    if (!saved.ok) this.notify("warning", saved.error);
  }
}
