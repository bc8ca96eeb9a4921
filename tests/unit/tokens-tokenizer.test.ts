/** The real tokenizers, loaded the way the CLI and the worker load them. */
import { describe, expect, it } from "vitest";
import { countTokens as o200kReference } from "gpt-tokenizer/encoding/o200k_base";
import { withRunCap } from "../../src/core/tokens/tokenizer.ts";
import { loadTokenizer, loadTokenizers } from "../../src/tokens/load.ts";

describe("loadTokenizers", () => {
  it("loads each vocabulary once and counts with it", async () => {
    const [a, b] = await Promise.all([loadTokenizer("claude"), loadTokenizer("claude")]);
    expect(a).toBe(b);
    const { o200k, claude } = await loadTokenizers();
    expect(o200k.name).toBe("o200k");
    expect(o200k.count("hello world")).toBe(2);
    expect(claude.count("hello world")).toBe(2);
    expect(o200k.count("")).toBe(0);
  });

  it("matches gpt-tokenizer's own o200k encoding, with special-token strings read as text", async () => {
    const { o200k } = await loadTokenizers();
    const texts = [
      "def main():\n    print('hi')\n",
      "Ünïcödé, 日本語のテキスト, emoji 🎉🎉",
      "<|endoftext|> is plain text in a message",
      JSON.stringify({ path: "src/a.ts", lines: [1, 2, 3] }),
    ];
    for (const text of texts) expect(o200k.count(text)).toBe(o200kReference(text, { disallowedSpecial: new Set() }));
  });

  it("normalises to NFKC for the Claude vocabulary, as the official package does", async () => {
    const { claude } = await loadTokenizers();
    expect(claude.count("ﬁle")).toBe(claude.count("file"));
  });
});

describe("withRunCap", () => {
  it("stays within a token or two of the uncapped count on long runs of one character", async () => {
    const { o200k } = await loadTokenizers();
    const raw = (text: string) => o200kReference(text, { disallowedSpecial: new Set() });
    const capped = withRunCap(raw);
    const texts = [
      "=".repeat(700) + "\nend",
      "x" + " ".repeat(5000) + "y",
      "ab" + "a".repeat(3000),
      "\n".repeat(2000),
      "0".repeat(999),
    ];
    for (const text of texts) {
      expect(Math.abs(capped(text) - raw(text))).toBeLessThanOrEqual(2);
    }
    expect(o200k.count("-".repeat(200_000))).toBeGreaterThan(1_000); // finishes: the run is priced, not encoded
  });

  it("passes short texts straight through", () => {
    const calls: string[] = [];
    const capped = withRunCap((t) => (calls.push(t), t.length), 8);
    expect(capped("aaaa")).toBe(4);
    expect(capped("abcdefghij")).toBe(10);
    expect(calls).toEqual(["aaaa", "abcdefghij"]);
  });
});
