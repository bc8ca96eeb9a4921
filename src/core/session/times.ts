/**
 * Entry timestamps in ms since the epoch, parsed once per session: the token estimates walk whole paths looking
 * for a resume (a long pause), for every count and for every recorded turn they measure, and `Date.parse` on each
 * step was a seventh of measuring 120 turns of a 50,000-entry session.
 */
import { fieldText } from "./describe.ts";
import type { EntryTree } from "./tree.ts";

/** Not parsed yet (`Date.parse` never gives it); NaN is kept for a timestamp that does not parse. */
const UNREAD = Number.NEGATIVE_INFINITY;

const parsed = new WeakMap<EntryTree, Float64Array>();

/** The entry's `timestamp` as `Date.parse` reads it: NaN when missing or unreadable. */
export function entryTime(tree: EntryTree, index: number): number {
  let times = parsed.get(tree);
  if (!times) {
    times = new Float64Array(tree.entries.length).fill(UNREAD);
    parsed.set(tree, times);
  }
  let time = times[index];
  if (time === undefined) return Date.parse(fieldText(tree.entries[index]?.raw["timestamp"]));
  if (time === UNREAD) times[index] = time = Date.parse(fieldText(tree.entries[index]?.raw["timestamp"]));
  return time;
}
