/**
 * What the page gets in place of a long string in a payload item: its first characters and its length. The payload
 * view shows a long string shortened until the person asks for all of it, so the page needs only its head; the
 * whole string is asked of the session worker then. Posting every string whole made the page copy and hold the
 * entire path's text: 1 GB of heap for the uncompacted payload of an 800 MB session, and a collector-bound task of
 * a second when compaction was switched off.
 */
export interface TextStandIn {
  readonly $standIn: "text";
  /** The first `TEXT_HEAD_CHARS` characters (one fewer when that would split a surrogate pair). */
  readonly head: string;
  /** Length of the whole string, in UTF-16 code units. */
  readonly length: number;
}

/** Strings longer than this go to the page as a stand-in. */
export const TEXT_STAND_IN_CHARS = 512;
/** How much of such a string the stand-in keeps: more than the view shows of it shortened (160) or quotes (48). */
export const TEXT_HEAD_CHARS = 256;

export function textStandIn(text: string): TextStandIn {
  let end = Math.min(text.length, TEXT_HEAD_CHARS);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { $standIn: "text", head: text.slice(0, end), length: text.length };
}

export function isTextStandIn(value: unknown): value is TextStandIn {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return v["$standIn"] === "text" && typeof v["head"] === "string" && typeof v["length"] === "number";
}
