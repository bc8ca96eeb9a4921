/**
 * A snapshot read from where a person has it — a picked or dropped file, or a link — checked, with the facts the
 * snapshot view shows first. The page asks the session worker for this: a snapshot that keeps its images is tens of
 * MB of JSON, and summing up its payload's size reads all of it again.
 */
import { err, ok, type Result } from "../result.ts";
import { decodeSnapshotLink } from "./link.ts";
import { parseSnapshot } from "./parse.ts";
import type { Snapshot } from "./schema.ts";
import { summarizeSnapshot, type SnapshotSummary } from "./summary.ts";

/** A file (with the name that names it in messages), or a link: its URL or `#snapshot=…` fragment. */
export type SnapshotSource = { readonly file: Blob; readonly name: string } | { readonly link: string };

export interface SnapshotRead {
  readonly snapshot: Snapshot;
  readonly summary: SnapshotSummary;
}

/** A snapshot file, read and checked; `name` names it in the message. */
export async function readSnapshotFile(file: Blob, name: string): Promise<Result<Snapshot>> {
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    return err(`${name} cannot be read (${error instanceof Error ? error.message : String(error)}).`);
  }
  return parseSnapshot(text, name);
}

/** The snapshot `source` holds, and its summary; or a message that says what the file or link holds instead. */
export async function readSnapshot(source: SnapshotSource): Promise<Result<SnapshotRead>> {
  const read =
    "link" in source
      ? await decodeSnapshotLink(source.link, "The link")
      : await readSnapshotFile(source.file, source.name);
  return read.ok ? ok({ snapshot: read.value, summary: summarizeSnapshot(read.value) }) : read;
}
