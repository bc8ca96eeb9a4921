/**
 * Very long lines: a long one is loaded and named with its size; one over the limit is skipped with a diagnostic
 * (its line number counted, the lines after it read), so memory stays bounded whatever a file holds; the
 * inspector shows a long text cut, and says so.
 */
import { describe, expect, it } from "vitest";
import { LineSplitter, utf8Length, type RawLine } from "../../src/core/session/lines.ts";
import { loadSessionText, SessionLoader } from "../../src/core/session/load.ts";
import { clipForDisplay, SHOWN_CHARS } from "../../src/ui/inspector/clip.ts";
import { formatFullJson, formatRawJson } from "../../src/ui/inspector/raw-json.ts";
import { header, session, toolCall, toolResult, user, assistant } from "../support/build.ts";

function split(chunks: readonly string[], limits: { longChars: number; maxChars: number }) {
  const lines: RawLine[] = [];
  const splitter = new LineSplitter((line) => lines.push(line), limits);
  const encoder = new TextEncoder();
  for (const chunk of chunks) splitter.push(encoder.encode(chunk));
  return { lines, stats: splitter.end() };
}

describe("LineSplitter with long lines", () => {
  it("lists long lines with their UTF-8 size and skips those over the limit, across chunks", () => {
    const { lines, stats } = split(
      ["short\nthis line is lo", "ng enough\r\n", "x".repeat(25), "é".repeat(10), "\nlast"],
      {
        longChars: 10,
        maxChars: 30,
      },
    );
    expect(lines.map((l) => [l.number, l.text, l.skipped])).toEqual([
      [1, "short", false],
      [2, "this line is long enough", false],
      [3, "", true],
      [4, "last", false],
    ]);
    expect(stats.longLines).toEqual([
      { line: 2, bytes: 25, skipped: false }, // with its "\r"
      { line: 3, bytes: 25 + 20, skipped: true },
    ]);
    expect(stats.lines).toBe(4);
    expect(stats.crlfLines).toBe(1);
  });

  it("skips an unterminated last line over the limit too", () => {
    const { lines, stats } = split(["ok\n", "y".repeat(50)], { longChars: 10, maxChars: 30 });
    expect(lines.at(-1)).toEqual({ number: 2, text: "", crlf: false, unterminated: true, skipped: true });
    expect(stats.longLines).toEqual([{ line: 2, bytes: 50, skipped: true }]);
  });

  it("measures UTF-8 sizes like TextEncoder", () => {
    for (const text of ["", "abc", "é", "€uro", "😀 ok", "日本語"])
      expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });
});

describe("loading a session with a very long line", () => {
  it("loads a long entry in full and names its line and size", () => {
    const big = "z".repeat(9 * 1024 * 1024);
    const file = loadSessionText(
      "big.jsonl",
      session(
        header(),
        user("u1", null, "run it"),
        assistant("a1", "u1", [toolCall("t1", "bash", { command: "cat big" })]),
        toolResult("r1", "a1", "t1", big),
      ),
    );
    expect(file.entries).toHaveLength(3);
    expect(file.diagnostics).toEqual([
      {
        severity: "info",
        code: "long-line",
        line: 4,
        message: expect.stringMatching(/^Line 4 is 9\.0 MB long; it was loaded in full\.$/),
      },
    ]);
  });

  it("skips a line over the limit with an error naming its size, and loads the lines after it", () => {
    const loader = new SessionLoader("huge.jsonl", { maxChars: 1024 * 1024 });
    const encoder = new TextEncoder();
    loader.push(encoder.encode(`${JSON.stringify(header())}\n${JSON.stringify(user("u1", null, "before"))}\n`));
    const slice = new Uint8Array(256 * 1024).fill(0x61); // "aaaa…", pushed again and again: one line
    for (let i = 0; i < 6; i += 1) loader.push(slice);
    loader.push(encoder.encode(`\n${JSON.stringify(user("u2", "u1", "after"))}\n`));
    const file = loader.finish();
    expect(file.entries.map((e) => [e.id, e.line])).toEqual([
      ["u1", 2],
      ["u2", 4],
    ]);
    expect(file.diagnostics).toEqual([
      {
        severity: "error",
        code: "line-too-long",
        line: 3,
        message:
          "Line 3 is 1.5 MB long, more than the 1 M characters Context Lens reads in one line; it was skipped, so its entry is missing. The rest of the file was loaded.",
      },
    ]);
  });

  it("by default names lines of 8 M characters or more, and keeps them", () => {
    const lines: RawLine[] = [];
    const splitter = new LineSplitter((line) => lines.push(line));
    splitter.pushText(`${"b".repeat(8 * 1024 * 1024 - 1)}\n${"c".repeat(8 * 1024 * 1024)}\n`);
    expect(splitter.end().longLines).toEqual([{ line: 2, bytes: 8 * 1024 * 1024, skipped: false }]);
    expect(lines.map((l) => [l.text.length, l.skipped])).toEqual([
      [8 * 1024 * 1024 - 1, false],
      [8 * 1024 * 1024, false],
    ]);
  });
});

describe("showing a very long text in the inspector", () => {
  it("cuts it for display and says so; short text is shown whole", () => {
    expect(clipForDisplay("short")).toEqual({ text: "short", note: undefined });
    const shown = clipForDisplay("x".repeat(SHOWN_CHARS + 5));
    expect(shown.text).toHaveLength(SHOWN_CHARS);
    expect(shown.note).toBe("Showing the first 100,000 of 100,005 characters; the copy buttons copy all of them.");
  });

  it("cuts long strings in the raw JSON view, but not in what is copied", () => {
    const raw = { output: "line of output\n".repeat(10_000) };
    expect(formatRawJson(raw)).toContain(`… <${(150_000 - SHOWN_CHARS).toLocaleString("en")} more characters>`);
    expect(formatRawJson(raw).length).toBeLessThan(SHOWN_CHARS + 10_000);
    expect(formatFullJson(raw)).toBe(JSON.stringify(raw, null, 2));
  });
});
