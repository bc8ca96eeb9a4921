/**
 * A comparison as the page gets it: every figure, and the first changes of the list the change list opens on; the
 * page reads more as the person asks for them ("compareChanges"). Pi's rules against the whole path of a 100 MB
 * session differ in 40,000 changes, which in one message took the page 130 ms to read and as long again to collect.
 */
import type { Comparison, ItemChange } from "../core/diff/compare.ts";
import { shownRun, type DiffPart, type ShownRun, type TextDiff } from "../core/diff/text-diff.ts";

/** A run of a text diff as the page draws it: a long run keeps its two ends, and says how much is left out. */
export type PageDiffRun = ShownRun;

export interface PageTextDiff extends Omit<TextDiff, "parts"> {
  readonly runs: readonly PageDiffRun[];
}

export interface PageItemChange extends Omit<ItemChange, "textDiff"> {
  readonly textDiff?: PageTextDiff;
}

/** A change, with its position in the comparison's whole list (which names it while the list is read in parts). */
export interface IndexedChange {
  readonly index: number;
  readonly change: PageItemChange;
}

/**
 * Characters kept at each end of a long run: unchanged text is context, removed and added text is the change. A
 * tool result truncated by a rule is tens of MB removed, which drawn whole held the page for 17 seconds.
 */
const KEEP: Readonly<Record<DiffPart["op"], number>> = { same: 160, removed: 1000, added: 1000 };

const pageRun = (part: DiffPart): PageDiffRun => shownRun(part, KEEP[part.op]);

/** A text diff as the page draws it (its figures count every character, drawn or not). */
export function pageTextDiff({ parts, ...figures }: TextDiff): PageTextDiff {
  return { ...figures, runs: parts.map(pageRun) };
}

function pageChange({ textDiff, ...change }: ItemChange): PageItemChange {
  return textDiff ? { ...change, textDiff: pageTextDiff(textDiff) } : change;
}

export interface PageComparison extends Omit<Comparison, "changes"> {
  /** The first changes that differ (not "unchanged"); `counts` says how many there are of each kind. */
  readonly firstChanges: readonly IndexedChange[];
}

/** Changes `[start, end)` of the list without the unchanged items, or (`unchanged`) of the whole list. */
export interface ChangeRange {
  readonly unchanged: boolean;
  readonly start: number;
  readonly end: number;
}

/** Changes sent with the comparison itself: what the change list draws first. */
export const FIRST_CHANGES = 500;

/** The changes of `range`, each with its position in the whole list. */
export function changesOf(comparison: Comparison, { unchanged, start, end }: ChangeRange): IndexedChange[] {
  const out: IndexedChange[] = [];
  let position = 0;
  for (let index = 0; index < comparison.changes.length && position < end; index += 1) {
    const change = comparison.changes[index] as ItemChange;
    if (!unchanged && change.kind === "unchanged") continue;
    if (position >= start) out.push({ index, change: pageChange(change) });
    position += 1;
  }
  return out;
}

export function pageComparison(comparison: Comparison): PageComparison {
  const { changes: _all, ...figures } = comparison;
  return { ...figures, firstChanges: changesOf(comparison, { unchanged: false, start: 0, end: FIRST_CHANGES }) };
}

/** How many changes the list holds, with or without the unchanged items. */
export function changeCount(comparison: Pick<Comparison, "counts">, unchanged: boolean): number {
  const { added, removed, changed } = comparison.counts;
  return added + removed + changed + (unchanged ? comparison.counts.unchanged : 0);
}
