/**
 * The rows a snapshot's path is listed in. A compacted session's path is mostly entries the compaction summarised
 * (47,701 of 48,598 on a 100 MB session), which listed one by one held the page for seconds: a run of entries with
 * the same fate and no payload item is one row, which opens to its entries.
 */
import type { PagePath } from "../../worker/page-snapshot.ts";

export type PathRow =
  /**
   * One entry, by its path position. The first and the last entry of an opened run say which run they are in (its
   * first and last positions), to fold it again from either end: after scrolling through 1,200 entries, the end is
   * where the person is.
   */
  | {
      readonly kind: "entry";
      readonly position: number;
      readonly inRun?: { readonly from: number; readonly to: number };
    }
  /** Entries `from`–`to` (path positions, inclusive): the same fate, none in the payload. */
  | { readonly kind: "run"; readonly from: number; readonly to: number };

/** Shorter runs are listed entry by entry: a row that opens to two entries saves nothing. */
export const MIN_RUN = 3;

/** Rows of `path`; `open` holds the first positions of the runs listed entry by entry. */
export function pathRows(
  path: PagePath,
  inPayload: ReadonlySet<number>,
  open: ReadonlySet<number> = new Set(),
): PathRow[] {
  const rows: PathRow[] = [];
  const { fates, reasons } = path;
  const length = path.lines.length;
  const sameFate = (a: number, b: number) => fates.codes[a] === fates.codes[b] && reasons.codes[a] === reasons.codes[b];
  for (let from = 0; from < length;) {
    let to = from;
    if (!inPayload.has(from)) while (to + 1 < length && !inPayload.has(to + 1) && sameFate(from, to + 1)) to += 1;
    const run = to - from + 1 >= MIN_RUN;
    if (run && !open.has(from)) rows.push({ kind: "run", from, to });
    else if (!run) for (let position = from; position <= to; position += 1) rows.push({ kind: "entry", position });
    else {
      const inRun = { from, to };
      rows.push({ kind: "entry", position: from, inRun });
      for (let position = from + 1; position < to; position += 1) rows.push({ kind: "entry", position });
      rows.push({ kind: "entry", position: to, inRun });
    }
    from = to + 1;
  }
  return rows;
}

/** Index of the row that holds path position `position` (rows are in path order); -1 when none does. */
export function rowOf(rows: readonly PathRow[], position: number): number {
  let low = 0;
  let high = rows.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const row = rows[mid]!;
    const first = row.kind === "run" ? row.from : row.position;
    const last = row.kind === "run" ? row.to : row.position;
    if (position < first) high = mid - 1;
    else if (position > last) low = mid + 1;
    else return mid;
  }
  return -1;
}
