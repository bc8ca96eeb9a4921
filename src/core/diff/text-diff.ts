/**
 * Text diffs of what changed inside a payload item: word level for ordinary messages, line level for long ones.
 * When the exact diff would take too long (two long, mostly different texts) the answer is the common start and
 * end with one removed and one added middle, and says it is coarse.
 */
import { Interner, shortestEdit, type Edit } from "./myers.ts";

export type DiffUnit = "word" | "line";

export interface DiffPart {
  readonly op: "same" | "added" | "removed";
  readonly text: string;
}

export interface TextDiff {
  readonly unit: DiffUnit;
  readonly parts: readonly DiffPart[];
  /** False when the work budget ran out and the middle is shown as one removal and one addition. */
  readonly exact: boolean;
  readonly addedChars: number;
  readonly removedChars: number;
}

export interface TextDiffOptions {
  /** Default: words when both texts are under `wordLimit` characters, else lines. */
  readonly unit?: DiffUnit;
  readonly wordLimit?: number;
  readonly budget?: number;
}

const WORDS = /\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

/** Words, runs of whitespace and single punctuation marks; joined they give the text back. */
export function splitWords(text: string): string[] {
  return text.match(WORDS) ?? [];
}

/** Lines with their line breaks; joined they give the text back. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function joinParts(edits: readonly Edit[], a: readonly string[], b: readonly string[]): DiffPart[] {
  const parts: DiffPart[] = [];
  for (const edit of edits) {
    const text = edit.op === "added" ? b[edit.b] : a[edit.a];
    const last = parts[parts.length - 1];
    if (last && last.op === edit.op) parts[parts.length - 1] = { op: edit.op, text: last.text + text };
    else parts.push({ op: edit.op, text: text as string });
  }
  return parts;
}

/** Common start, one removal, one addition, common end: the answer when the exact diff is too costly. */
function coarse(a: string, b: string): DiffPart[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end += 1;
  const parts: DiffPart[] = [];
  if (start > 0) parts.push({ op: "same", text: a.slice(0, start) });
  if (a.length - end > start) parts.push({ op: "removed", text: a.slice(start, a.length - end) });
  if (b.length - end > start) parts.push({ op: "added", text: b.slice(start, b.length - end) });
  if (end > 0) parts.push({ op: "same", text: a.slice(a.length - end) });
  return parts;
}

/** What changed from `a` to `b`, as runs of kept, removed and added text. */
export function diffText(a: string, b: string, options: TextDiffOptions = {}): TextDiff {
  const wordLimit = options.wordLimit ?? 20_000;
  const unit = options.unit ?? (a.length <= wordLimit && b.length <= wordLimit ? "word" : "line");
  const split = unit === "word" ? splitWords : splitLines;
  const tokensA = split(a);
  const tokensB = split(b);
  const interner = new Interner();
  const edits = shortestEdit(interner.ids(tokensA), interner.ids(tokensB), options.budget);
  const parts = edits ? joinParts(edits, tokensA, tokensB) : coarse(a, b);
  let addedChars = 0;
  let removedChars = 0;
  for (const part of parts) {
    if (part.op === "added") addedChars += part.text.length;
    else if (part.op === "removed") removedChars += part.text.length;
  }
  return { unit, parts, exact: edits !== undefined, addedChars, removedChars };
}

/** A run of a text diff as shown: a long run keeps its two ends, and says how much is left out between them. */
export interface ShownRun {
  readonly op: DiffPart["op"];
  readonly head: string;
  /** Characters left out between `head` and `tail`. */
  readonly skipped: number;
  readonly tail: string;
}

/** `text` cut at `at`, moved back one so as not to split a surrogate pair. */
const cutAt = (text: string, at: number): number =>
  at > 0 && at < text.length && (text.charCodeAt(at - 1) & 0xfc00) === 0xd800 ? at - 1 : at;

/**
 * A run shortened to `keep` characters at each end, when leaving out the middle saves more than a note's worth. A
 * tool result truncated by a rule is a removed run of tens of MB: shown whole, it buries the change around it.
 */
export function shownRun({ op, text }: DiffPart, keep: number): ShownRun {
  if (text.length <= 2 * keep + 40) return { op, head: text, skipped: 0, tail: "" };
  const headEnd = cutAt(text, keep);
  const tailStart = cutAt(text, text.length - keep);
  return { op, head: text.slice(0, headEnd), skipped: tailStart - headEnd, tail: text.slice(tailStart) };
}
