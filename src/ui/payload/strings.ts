/**
 * Long strings in the payload view: shown shortened on one line with a "show all" toggle, and in full as a run
 * of fixed-height rows, so a megabyte of tool output neither makes one huge DOM line nor breaks virtualisation.
 * Strings are shown as JSON writes them (quoted, `\n` and `"` escaped).
 */

/** Strings longer than this (in UTF-16 code units) are shortened until the person asks for all of it. */
export const LONG_STRING_CHARS = 240;
/** How much of a long string is shown while it is shortened. */
export const PREVIEW_CHARS = 160;
/** The longest piece of a string on one row when shown in full (pieces also end after every newline). */
export const CHUNK_CHARS = 120;

export const isLongString = (text: string): boolean => text.length > LONG_STRING_CHARS;

/** `text` cut to at most `chars` code units, never between the two halves of a surrogate pair. */
function cut(text: string, from: number, chars: number): string {
  let end = Math.min(text.length, from + chars);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && end - from > 1 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(from, end);
}

/** JSON-escaped text without the surrounding quotes. */
const escape = (text: string): string => JSON.stringify(text).slice(1, -1);

/** The JSON literal of `text`, shortened to `PREVIEW_CHARS` with "…" before the closing quote when it is long. */
export function previewString(text: string): string {
  if (!isLongString(text)) return JSON.stringify(text);
  return `"${escape(cut(text, 0, PREVIEW_CHARS))}…"`;
}

/**
 * The JSON-escaped body of `text` (no quotes) as pieces of at most `CHUNK_CHARS` source characters, each ending
 * at a newline (kept as `\n`) or at the chunk limit. Joined, the pieces are exactly `JSON.stringify(text)`
 * without its quotes. With `limit`, only the first `limit` pieces are made.
 */
export function stringChunks(text: string, limit = Infinity): string[] {
  const chunks: string[] = [];
  let from = 0;
  while (from < text.length && chunks.length < limit) {
    const newline = text.indexOf("\n", from);
    const lineEnd = newline === -1 ? text.length : newline + 1;
    const piece = cut(text, from, Math.min(CHUNK_CHARS, lineEnd - from));
    chunks.push(escape(piece));
    from += piece.length;
  }
  return chunks.length > 0 ? chunks : [""];
}
