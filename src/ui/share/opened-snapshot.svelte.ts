/**
 * The snapshot the page shows instead of the sessions: opened from a file (dropped or picked) or from a link's
 * `#snapshot=…` fragment — or the message saying why it could not be opened.
 */
import { looksLikeSnapshot } from "../../core/snapshot/parse.ts";
import { snapshotParam } from "../../core/snapshot/link.ts";
import { readSnapshot, type SnapshotRead, type SnapshotSource } from "../../core/snapshot/read.ts";
import type { Result } from "../../core/result.ts";
import type { Snapshot } from "../../core/snapshot/schema.ts";
import type { SnapshotSummary } from "../../core/snapshot/summary.ts";
import type { PickedFile } from "../files/drop.ts";
import { payloadJson } from "../payload/export.ts";

export type OpenedSnapshot =
  | { readonly ok: true; readonly snapshot: Snapshot; readonly summary: SnapshotSummary; readonly source: string }
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

/** Reads and checks a snapshot (the session worker's `readSnapshot`). */
export type ReadSnapshot = (source: SnapshotSource) => Promise<Result<SnapshotRead>>;
/** Writes a value as a pretty JSON file (the session worker's `jsonFile`). */
export type JsonFile = (value: unknown) => Promise<Blob>;

/** A pretty JSON file made on the page's own thread. */
const jsonFileHere: JsonFile = async (value) => new Blob([payloadJson(value)], { type: "application/json" });

export class SnapshotViewer {
  current: OpenedSnapshot | undefined = $state.raw(undefined);
  opening = $state(false);
  readonly #read: ReadSnapshot;
  readonly #jsonFile: JsonFile;

  /**
   * `read` reads off the page's thread (a snapshot that keeps its images is tens of MB of JSON), and `jsonFile`
   * writes its payload there for a download; when they cannot answer (no worker runs), the work is done here, as
   * it always can be.
   */
  constructor(read: ReadSnapshot = readSnapshot, jsonFile: JsonFile = jsonFileHere) {
    this.#read = read;
    this.#jsonFile = jsonFile;
  }

  /** The shown snapshot's request body as a JSON file (`JSON.stringify(body, null, 2)`), for its Download. */
  payloadFile(): Promise<Blob> {
    const current = this.current;
    if (!current?.ok) return Promise.reject(new Error("there is no snapshot open"));
    const body = current.snapshot.payload.body;
    return this.#jsonFile(body).catch(() => jsonFileHere(body));
  }

  async openFile(picked: PickedFile): Promise<void> {
    await this.#open({ file: picked.file, name: picked.name }, picked.name);
  }

  async openLink(hash: string): Promise<void> {
    await this.#open({ link: hash }, "a shared link");
  }

  async #open(from: SnapshotSource, source: string): Promise<void> {
    this.opening = true;
    try {
      const read = await this.#read(from).catch(() => readSnapshot(from));
      this.current = read.ok ? { ok: true, ...read.value, source } : { ok: false, error: read.error, source };
    } finally {
      this.opening = false;
    }
  }

  close(): void {
    this.current = undefined;
  }
}
