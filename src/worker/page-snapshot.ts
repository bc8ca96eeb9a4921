/**
 * A snapshot opened to be looked at, held where it was read — the session worker, or the page when no worker
 * answers. The page gets it as it gets a projection: the payload body with stand-ins for images and long strings,
 * and only the first items of a long main list (see page-payload.ts), and the path in columns with everything that
 * names path entries already turned into positions; it asks for the rest by the snapshot's id —
 * items as they are scrolled to, an item's or the body's JSON to copy, the body as a file to download. A snapshot
 * that keeps its images is tens of MB, and receiving all of it held the page's thread for a third of a second.
 */
import { SnapshotNotHeldError } from "./answer-errors.ts";
import { ok, type Result } from "../core/result.ts";
import { readSnapshot, type SnapshotSource } from "../core/snapshot/read.ts";
import type { Finding } from "../core/project/validate.ts";
import { pathPositions, type Snapshot, type SnapshotPathEntry } from "../core/snapshot/schema.ts";
import type { SnapshotSummary } from "../core/snapshot/summary.ts";
import { codeStrings, type CodedStrings } from "./coded-strings.ts";
import { packLists, type PackedLists } from "./packed-lists.ts";
import { pageItemsOf, payloadForPage, payloadJson } from "./page-payload.ts";

/**
 * A snapshot's path as the page holds it: a column per field it shows, by path position. The path of a 100 MB
 * session is 48,598 entries; as objects, receiving them and finding each one's position held the page for over
 * 150 ms on opening its snapshot.
 */
export interface PagePath {
  readonly lines: Int32Array;
  /** The entry type, with the message role: "message/user", "compaction", … */
  readonly types: CodedStrings;
  /** What became of the entry (`SnapshotFate["kind"]`). */
  readonly fates: CodedStrings;
  /** …and why, in a sentence. */
  readonly reasons: CodedStrings;
}

export interface PageSnapshot {
  /** Names the snapshot in the requests for its items, JSON and file. */
  readonly id: number;
  /**
   * The snapshot, with its payload body as the page holds it (stand-ins; the first items of a long list), and
   * without its path and item sources, which come as `path` and `itemSources`.
   */
  readonly snapshot: Omit<Snapshot, "path" | "payload"> & {
    readonly payload: Omit<Snapshot["payload"], "itemSources">;
  };
  readonly path: PagePath;
  /** Per item of the payload's main list, the path positions it came from. */
  readonly itemSources: PackedLists;
  /** The snapshot's findings, each naming the path positions of its entries. */
  readonly findings: readonly Finding[];
  readonly summary: SnapshotSummary;
  /** How many items the payload's main list has: the body holds the first of them, or all. */
  readonly listLength: number;
}

/** A path as its columns. */
export function pagePath(path: readonly SnapshotPathEntry[]): PagePath {
  return {
    lines: Int32Array.from(path, (entry) => entry.line),
    types: codeStrings(path.map((entry) => entry.type)),
    fates: codeStrings(path.map((entry) => entry.fate.kind)),
    reasons: codeStrings(path.map((entry) => entry.fate.reason)),
  };
}

/** The snapshot as the page holds it (see `PageSnapshot`). */
export function pageSnapshot(id: number, snapshot: Snapshot, summary: SnapshotSummary): PageSnapshot {
  const { path, payload, ...rest } = snapshot;
  const { itemSources, ...shownPayload } = payload;
  const { body, listLength } = payloadForPage(payload);
  const positions = pathPositions(snapshot);
  const at = (refs: readonly string[]) => refs.flatMap((ref) => positions.get(ref) ?? []);
  return {
    id,
    snapshot: { ...rest, payload: { ...shownPayload, body } },
    path: pagePath(path),
    itemSources: packLists(itemSources.map(at)),
    findings: snapshot.findings.map((f) => ({
      severity: f.severity,
      code: f.code as Finding["code"],
      message: f.message,
      entries: at(f.entries),
    })),
    summary,
    listLength,
  };
}

/**
 * How many snapshots are held at most, the oldest let go past this: the page shows one at a time and says when it
 * closes one, but two opened at once may be read in either order.
 */
const HELD = 2;

export class HeldSnapshots {
  /** The snapshots opened and not closed yet, by id, the latest last. */
  readonly #held = new Map<number, Snapshot>();
  #next = 1;

  /** Reads and checks the snapshot `source` holds, and keeps it; or says what the file or link holds instead. */
  async open(source: SnapshotSource): Promise<Result<PageSnapshot>> {
    const read = await readSnapshot(source);
    if (!read.ok) return read;
    const { snapshot, summary } = read.value;
    const id = this.#next++;
    this.#held.set(id, snapshot);
    for (const oldest of this.#held.keys()) if (this.#held.size > HELD) this.#held.delete(oldest);
    return ok(pageSnapshot(id, snapshot, summary));
  }

  /** Items `[start, end)` of the payload's main list, as the page holds them. */
  items(id: number, start: number, end: number): unknown[] {
    return pageItemsOf(this.#get(id).payload, start, end);
  }

  /** The payload body as pretty JSON (`JSON.stringify(body, null, 2)`), or one item of its main list. */
  json(id: number, item: number | undefined): string {
    return payloadJson(this.#get(id).payload, item);
  }

  /** The payload body as a pretty JSON file. */
  file(id: number): Blob {
    return new Blob([this.json(id, undefined)], { type: "application/json" });
  }

  /** The snapshot is no longer shown. */
  close(id: number): void {
    this.#held.delete(id);
  }

  #get(id: number): Snapshot {
    const snapshot = this.#held.get(id);
    if (!snapshot) throw new SnapshotNotHeldError();
    return snapshot;
  }
}
