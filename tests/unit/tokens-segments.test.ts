/**
 * Long texts are counted in segments (src/core/tokens/segments.ts): the sum of the segments' counts must be the
 * whole text's count under both real tokenizers, and a text that shares lines with one counted before must
 * re-tokenise only what differs.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenCountCache } from "../../src/core/tokens/cache.ts";
import { SEGMENTED_LENGTH, segmentEnds } from "../../src/core/tokens/segments.ts";
import type { Tokenizer } from "../../src/core/tokens/tokenizer.ts";
import { loadTokenizers } from "../../src/tokens/load.ts";

const { o200k, claude } = await loadTokenizers();

function segmentSum(tokenizer: Tokenizer, text: string): number {
  let sum = 0;
  let start = 0;
  for (const end of segmentEnds(text)) {
    sum += tokenizer.count(text.slice(start, end));
    start = end;
  }
  return sum;
}

/** Pieces lines are made of: words, numbers, code, punctuation, blanks of every kind, non-Latin scripts. */
const piece = fc.constantFrom(
  "return",
  "value",
  "Foo",
  "it's",
  "don't",
  "x",
  "42",
  "1234567",
  "3.14",
  "(a, b)",
  "{",
  "}",
  ");",
  "=>",
  "//",
  "/",
  "./src/a.ts",
  "#",
  "- ",
  "*",
  "'",
  '"',
  " ",
  "  ",
  "\t",
  "\u00a0",
  "\u3000",
  "日本語",
  "Ünïcödé",
  "e\u0301",
  "🎉",
  "\ud83d",
  "ﬁ",
  "<|endoftext|>",
);
const indent = fc.constantFrom("", "", " ", "  ", "    ", "\t", "\t\t", " \t", "\u00a0 ", "   \u3000");
const ending = fc.constantFrom("\n", "\n", "\n", "\r\n", "\n\n", " \n", "\t\n", "\n \n");
const line = fc
  .tuple(indent, fc.array(piece, { minLength: 0, maxLength: 12 }), ending)
  .map(([i, pieces, e]) => i + pieces.join(pieces.length % 2 ? " " : "") + e);
const longText = fc.array(line, { minLength: 60, maxLength: 300 }).map((lines) => lines.join(""));

describe("segments", () => {
  it("cut long texts where both tokenizers split anyway: the segments add up to the whole", () => {
    let segmented = 0;
    fc.assert(
      fc.property(longText, (text) => {
        const ends = segmentEnds(text);
        expect(ends.at(-1)).toBe(text.length);
        if (ends.length > 1) segmented += 1;
        expect(segmentSum(o200k, text)).toBe(o200k.count(text));
        expect(segmentSum(claude, text)).toBe(claude.count(text));
      }),
      { numRuns: 60, seed: 7 },
    );
    // The property is about cut texts: most generated texts must have been cut.
    expect(segmented).toBeGreaterThan(40);
  });

  it("cut the same lines the same way wherever they stand", () => {
    const lines = Array.from({ length: 400 }, (_, i) => `  line ${i}: ${"word ".repeat(i % 7)}end;\n`).join("");
    const tail = lines.slice(lines.indexOf("  line 200"));
    const cutsIn = (text: string, offset: number) =>
      new Set(
        segmentEnds(text)
          .map((end) => end + offset)
          .filter((end) => end < offset + text.length),
      );
    const whole = cutsIn(lines, 0);
    const shifted = cutsIn(`[… left out …]\n${tail}`, lines.length - tail.length - "[… left out …]\n".length);
    // After the first few lines of the tail, the cuts are the whole text's cuts.
    const late = [...shifted].filter((end) => end > lines.length - tail.length + 1024);
    expect(late.length).toBeGreaterThan(5);
    for (const end of late) expect(whole.has(end)).toBe(true);
  });

  it("leave a single line, and short texts, whole", () => {
    const oneLine = JSON.stringify({ data: "x".repeat(SEGMENTED_LENGTH * 4) });
    expect(segmentEnds(oneLine)).toEqual([oneLine.length]);
  });
});

describe("the count cache with segments", () => {
  it("re-tokenises only the end of a text cut short, and counts it exactly", () => {
    const text = Array.from({ length: 600 }, (_, i) => `    const v${i} = compute(${i}, "value");\n`).join("");
    for (const limit of [9000, 9100, 9200, 9300, 9400, 9500]) {
      const cache = new TokenCountCache();
      expect(cache.count(o200k, text)).toBe(o200k.count(text));
      const before = cache.stats.tokenizedChars;
      const cut = `${text.slice(0, limit)}\n\n[Tool result truncated: ${limit} of ${text.length} characters kept]`;
      expect(cache.count(o200k, cut)).toBe(o200k.count(cut));
      // From the last cut before the limit (a line or two back, 37 characters each) to the end of the note.
      expect(cache.stats.tokenizedChars - before).toBeLessThan(150);
    }
  });
});
