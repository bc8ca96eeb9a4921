/**
 * The snapshot the page shows instead of the sessions: opened from a file (dropped or picked) or from a link's
 * `#snapshot=…` fragment — or the message saying why it could not be opened.
 */
import { looksLikeSnapshot } from "../../core/snapshot/parse.ts";
import { snapshotParam } from "../../core/snapshot/link.ts";
import type { SnapshotSource } from "../../core/snapshot/read.ts";
import type { PickedFile } from "../files/drop.ts";
import type { SessionClient } from "../../worker/client.ts";
import { SnapshotNotHeldError, WorkerAnswerError } from "../../worker/answer-errors.ts";
import type { HeldSnapshots, PageSnapshot } from "../../worker/page-snapshot.ts";

/** A snapshot shown (as the page holds it, see worker/page-snapshot.ts), or why it could not be opened. */
export type OpenedSnapshot =
  | ({ readonly ok: true; readonly source: string } & Omit<PageSnapshot, "id">)
  | { readonly ok: false; readonly error: string; readonly source: string };

/** How much of a file is read to decide whether it is a snapshot rather than a session. */
const HEAD_BYTES = 4096;

/** Splits picked files into snapshot files and everything else (opened as sessions, as before). */
export async function splitSnapshotFiles(
  files: readonly PickedFile[],
): Promise<{ snapshots: PickedFile[]; sessions: PickedFile[] }> {
  const snapshots: PickedFile[] = [];
  const sessions: PickedFile[] = [];
  for (const picked of files) {
    // A file that cannot be read is left to the session loader, which names it and says why.
    const head = await picked.file
      .slice(0, HEAD_BYTES)
      .text()
      .catch(() => "");
    (looksLikeSnapshot(head) ? snapshots : sessions).push(picked);
  }
  return { snapshots, sessions };
}

export const isSnapshotLink = (hash: string): boolean => snapshotParam(hash) !== undefined;

/** Where a snapshot is read and held, and asked for its items, JSON and file: the session worker, or the page. */
export type SnapshotHolder = Pick<
  SessionClient,
  "openSnapshot" | "snapshotItems" | "snapshotJson" | "snapshotFile" | "closeSnapshot"
>;

/**
 * A holder on the page's own thread: what the worker does, done here. Its code (the snapshot's schema and reader)
 * is loaded the first time it is needed, which is only when no worker answers.
 */
function holderHere(): SnapshotHolder {
  let held: Promise<HeldSnapshots> | undefined;
  const here = () => (held ??= import("../../worker/page-snapshot.ts").then((m) => new m.HeldSnapshots()));
  return {
    openSnapshot: async (source) => (await here()).open(source),
    snapshotItems: async (id, start, end) => (await here()).items(id, start, end),
    snapshotJson: async (id, item) => (await here()).json(id, item),
    snapshotFile: async (id) => (await here()).file(id),
    closeSnapshot: async (id) => (await here()).close(id),
  };
}

export class SnapshotViewer {
  current: OpenedSnapshot | undefined = $state.raw(undefined);
  opening = $state(false);
  readonly #holder: SnapshotHolder;
  readonly #here = holderHere();
  /** Who holds the snapshot shown, by what id, and where it came from (to read it here if they no longer can). */
  #shown: { readonly holder: SnapshotHolder; readonly id: number; readonly from: SnapshotSource } | undefined;
  /** Rises with every open and close: an open that lands after a newer one (or a close) is let go. */
  #opened = 0;

  /**
   * `holder` reads and holds snapshots off the page's thread (one that keeps its images is tens of MB of JSON);
   * when it cannot answer (no worker runs, or a new one does not hold the snapshot), the page does the work itself,
   * as it always can.
   */
  constructor(holder?: SnapshotHolder) {
    this.#holder = holder ?? this.#here;
  }

  /** Items `[start, end)` of the shown snapshot's payload list, as the view holds them. */
  payloadItems(start: number, end: number): Promise<readonly unknown[]> {
    return this.#ask((holder, id) => holder.snapshotItems(id, start, end));
  }

  /** The shown snapshot's request body (`JSON.stringify(body, null, 2)`), or one item of its main list. */
  payloadJson(item?: number): Promise<string> {
    return this.#ask((holder, id) => holder.snapshotJson(id, item));
  }

  /** The shown snapshot's request body as a JSON file, for its Download. */
  payloadFile(): Promise<Blob> {
    return this.#ask((holder, id) => holder.snapshotFile(id));
  }

  async openFile(picked: PickedFile): Promise<void> {
    await this.#open({ file: picked.file, name: picked.name }, picked.name);
  }

  async openLink(hash: string): Promise<void> {
    await this.#open({ link: hash }, "a shared link");
  }

  async #open(from: SnapshotSource, source: string): Promise<void> {
    const ticket = ++this.#opened;
    this.opening = true;
    try {
      let holder = this.#holder;
      let read = await holder.openSnapshot(from).catch(() => undefined);
      if (read === undefined) [holder, read] = [this.#here, await this.#here.openSnapshot(from)];
      if (ticket !== this.#opened) {
        // Another snapshot was opened (or this one closed) meanwhile: that one is shown, this one let go.
        if (read.ok) void holder.closeSnapshot(read.value.id).catch(() => {});
        return;
      }
      this.#release();
      this.#shown = read.ok ? { holder, id: read.value.id, from } : undefined;
      if (read.ok) {
        const { id: _id, ...shown } = read.value;
        this.current = { ok: true, source, ...shown };
      } else this.current = { ok: false, error: read.error, source };
    } finally {
      if (ticket === this.#opened) this.opening = false;
    }
  }

  /**
   * Asks whoever holds the shown snapshot; if they no longer can (the worker stopped or cannot start, or a new one
   * does not hold it), reads it here again and asks here. An error the worker answered with is the answer: reading
   * tens of MB again on the page's thread to fail the same way would only hold the page.
   */
  async #ask<T>(ask: (holder: SnapshotHolder, id: number) => Promise<T>): Promise<T> {
    const shown = this.#shown;
    if (!shown) throw new Error("there is no snapshot open");
    try {
      return await ask(shown.holder, shown.id);
    } catch (error) {
      const answered = error instanceof WorkerAnswerError && !(error instanceof SnapshotNotHeldError);
      if (shown.holder === this.#here || answered) throw error;
      const read = await this.#here.openSnapshot(shown.from);
      if (!read.ok) throw new Error(read.error, { cause: error });
      if (this.#shown === shown) this.#shown = { holder: this.#here, id: read.value.id, from: shown.from };
      return ask(this.#here, read.value.id);
    }
  }

  /** The holder of the snapshot shown until now may let it go. */
  #release(): void {
    const shown = this.#shown;
    this.#shown = undefined;
    if (shown) void shown.holder.closeSnapshot(shown.id).catch(() => {});
  }

  close(): void {
    this.#opened += 1;
    this.opening = false;
    this.#release();
    this.current = undefined;
  }
}
