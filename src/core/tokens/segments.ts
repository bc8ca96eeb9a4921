/**
 * Long texts are counted in segments, so a text that shares most of its lines with one counted before — a tool
 * result cut to N characters, a bash output cut to its first and last lines, a text with one secret redacted —
 * re-tokenises only the segments that differ.
 *
 * A cut is made only where both vocabularies' pre-tokenisers (o200k and the legacy Claude one) split anyway, so
 * the sum of the segments' counts is the count of the whole text. Two kinds of place, both at a line start:
 * - right after a newline that follows a character other than whitespace and precedes an ASCII letter or digit:
 *   no chunk of either pattern runs across it (a word, number or punctuation chunk cannot take the newline in
 *   front of a letter; the whitespace chunk is the newline alone, as the character before it is not whitespace);
 * - before the last space or tab of an indentation, when printable ASCII follows: both patterns end a whitespace
 *   chunk there (`\s+(?!\S)` leaves the last blank to the chunk that follows), and the same chunk is matched when
 *   the text ends there instead.
 * NFKC normalisation cannot join across either. `tests/unit/tokens-segments.test.ts` checks the sums against
 * whole-text counts with both real tokenizers.
 *
 * Every such point at least MIN_SEGMENT characters past the previous cut is a cut. Short segments keep what a
 * change re-tokenises short: a tool result cut to N characters re-counts only from its last cut (a line or two)
 * to N, plus the note after it. Two texts that share lines fall into step at the first line start both cut at,
 * so the tail of a cut bash output lines up with the tail of the full one within a few lines. (Choosing one
 * point in four by a hash of the characters before it kept that step whatever the line lengths, but its ~¼ KB
 * segments made a truncate-tool-results toggle tokenise three times the characters, 78k instead of 26k on the
 * benchmark's path, and a whole count tokenise more too, as fewer segments repeat between texts.)
 */
import { isSpace } from "../whitespace.ts";

/** Texts at least this long are counted in segments. */
export const SEGMENTED_LENGTH = 2048;
/** No segment is shorter than this, except the last (each segment is a tokenizer call and a cache record). */
const MIN_SEGMENT = 64;
/** Indentation longer than this is never cut (see RUN_CAP in tokenizer.ts). */
const MAX_INDENT = 128;

const isAsciiAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Where a line starting after the newline at `newline` may be cut, if anywhere (see above). */
function cutPoint(text: string, newline: number): number | undefined {
  let next = newline + 1;
  while (next < text.length && isSpace(text.charCodeAt(next))) next += 1;
  // Not inside a long run of blanks: the tokenizers price such runs apart (RUN_CAP), so a cut there could differ.
  if (next >= text.length || next - newline > MAX_INDENT) return undefined;
  const first = text.charCodeAt(next);
  if (next === newline + 1) {
    const before = newline > 0 ? text.charCodeAt(newline - 1) : 32;
    return !isSpace(before) && isAsciiAlnum(first) ? next : undefined;
  }
  const blank = text.charCodeAt(next - 1);
  return (blank === 32 || blank === 9) && first > 32 && first < 127 ? next - 1 : undefined;
}

/** Where the segments of `text` end (the last end is `text.length`); one segment when no cut is possible. */
export function segmentEnds(text: string): number[] {
  const ends: number[] = [];
  let start = 0;
  for (let newline = text.indexOf("\n", MIN_SEGMENT - 1); newline !== -1; newline = text.indexOf("\n", newline + 1)) {
    if (newline + 1 - start < MIN_SEGMENT) continue;
    const cut = cutPoint(text, newline);
    if (cut === undefined || cut - start < MIN_SEGMENT) continue;
    ends.push(cut);
    start = cut;
  }
  ends.push(text.length);
  return ends;
}

/** A 53-bit hash of `text[start, end)` (cyrb53), standing for the segment in the count cache. */
export function segmentKey(text: string, start: number, end: number): number {
  let h1 = 0xdeadbeef ^ (end - start);
  let h2 = 0x41c6ce57 ^ (end - start);
  for (let i = start; i < end; i += 1) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
