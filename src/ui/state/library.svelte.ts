/**
 * The open sessions: loading (with progress and cancel), removing, and keeping the local library in step.
 * Storage problems become notices; nothing already on screen is lost because of them.
 */
import type { SessionClient } from "../../worker/client.ts";
import type { LoadProgress, SessionSummary } from "../../worker/protocol.ts";
import { deleteSessionFile, loadLibrary, saveLibrary, saveSessionFile, type Library } from "./persistence.ts";

export interface LoadJob {
  readonly id: string;
  readonly name: string;
  readonly progress: LoadProgress | undefined;
  readonly cancel: () => void;
}

export interface Notice {
  readonly id: number;
  readonly kind: "error" | "warning";
  readonly text: string;
}

let nextNotice = 1;
const newKey = () => `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

export class LibraryState {
  sessions: readonly SessionSummary[] = $state.raw([]);
  jobs: readonly LoadJob[] = $state.raw([]);
  notices: readonly Notice[] = $state.raw([]);
  #client: SessionClient;
  #saved: Library = { version: 1, sessions: [], selection: {}, visited: false };

  constructor(client: SessionClient) {
    this.#client = client;
  }

  get client(): SessionClient {
    return this.#client;
  }

  get selection(): Library["selection"] {
    return this.#saved.selection;
  }

  notify(kind: Notice["kind"], text: string): void {
    this.notices = [...this.notices, { id: nextNotice++, kind, text }];
  }

  dismiss(id: number): void {
    this.notices = this.notices.filter((n) => n.id !== id);
  }

  /** Reopens what was open last time; true when this is the first visit. */
  async restore(): Promise<boolean> {
    const loaded = await loadLibrary();
    if (!loaded.ok) {
      this.notify("warning", loaded.error);
      return false;
    }
    this.#saved = loaded.value.library;
    const restored = this.#saved.sessions.flatMap((s) => {
      const file = loaded.value.files.get(s.key);
      return file ? [{ ...s, file }] : [];
    });
    await Promise.all(restored.map((s) => this.#open(s.key, s.file, s.name, false)));
    const firstVisit = !this.#saved.visited;
    await this.#persist({ ...this.#saved, visited: true });
    return firstVisit;
  }

  /** Opens files (several at once); returns the summaries of those that loaded. */
  async open(files: readonly { file: Blob; name: string }[]): Promise<SessionSummary[]> {
    const results = await Promise.all(files.map(({ file, name }) => this.#open(newKey(), file, name, true)));
    return results.filter((s): s is SessionSummary => s !== undefined);
  }

  async remove(key: string): Promise<void> {
    this.sessions = this.sessions.filter((s) => s.key !== key);
    await this.#client.remove(key);
    const removed = await deleteSessionFile(key);
    if (!removed.ok) this.notify("warning", removed.error);
    await this.#persist({ ...this.#saved, sessions: this.#saved.sessions.filter((s) => s.key !== key) });
  }

  async saveSelection(selection: Library["selection"]): Promise<void> {
    await this.#persist({ ...this.#saved, selection });
  }

  async #open(key: string, file: Blob, name: string, save: boolean): Promise<SessionSummary | undefined> {
    const handle = this.#client.load(key, file, name, (progress) => {
      this.jobs = this.jobs.map((j) => (j.id === key ? { ...j, progress } : j));
    });
    this.jobs = [...this.jobs, { id: key, name, progress: undefined, cancel: handle.cancel }];
    try {
      const summary = await handle.done;
      this.sessions = [...this.sessions, summary];
      if (save) await this.#save(key, name, file);
      return summary;
    } catch (error) {
      this.notify("error", error instanceof Error ? error.message : String(error));
      return undefined;
    } finally {
      this.jobs = this.jobs.filter((j) => j.id !== key);
    }
  }

  async #save(key: string, name: string, file: Blob): Promise<void> {
    const stored = await saveSessionFile(key, name, file);
    if (!stored.ok) return this.notify("warning", stored.error);
    await this.#persist({ ...this.#saved, sessions: [...this.#saved.sessions, { key, name, addedAt: Date.now() }] });
  }

  async #persist(library: Library): Promise<void> {
    this.#saved = library;
    const saved = await saveLibrary(library);
    if (!saved.ok) this.notify("warning", saved.error);
  }
}
