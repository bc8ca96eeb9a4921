/**
 * The snapshot the page shows instead of the sessions: opened from a file (dropped or picked) or from a link's
 * `#snapshot=…` fragment — or the message saying why it could not be opened.
 */
import { looksLikeSnapshot, parseSnapshot } from "../../core/snapshot/parse.ts";
import { decodeSnapshotLink, snapshotParam } from "../../core/snapshot/link.ts";
import type { Snapshot } from "../../core/snapshot/schema.ts";
import type { PickedFile } from "../files/drop.ts";

export type OpenedSnapshot =
  | { readonly ok: true; readonly snapshot: Snapshot; readonly source: string }
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

export class SnapshotViewer {
  current: OpenedSnapshot | undefined = $state.raw(undefined);
  opening = $state(false);

  async openFile(picked: PickedFile): Promise<void> {
    this.opening = true;
    try {
      const parsed = parseSnapshot(await picked.file.text(), picked.name);
      this.current = parsed.ok
        ? { ok: true, snapshot: parsed.value, source: picked.name }
        : { ok: false, error: parsed.error, source: picked.name };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.current = { ok: false, error: `${picked.name} cannot be read (${why}).`, source: picked.name };
    } finally {
      this.opening = false;
    }
  }

  async openLink(hash: string): Promise<void> {
    this.opening = true;
    try {
      const decoded = await decodeSnapshotLink(hash, "The link");
      this.current = decoded.ok
        ? { ok: true, snapshot: decoded.value, source: "a shared link" }
        : { ok: false, error: decoded.error, source: "a shared link" };
    } finally {
      this.opening = false;
    }
  }

  close(): void {
    this.current = undefined;
  }
}
