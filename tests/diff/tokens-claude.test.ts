/**
 * Our legacy-Claude tokenizer (gpt-tokenizer's pure-JS engine over `claude.json`) against the official
 * `@anthropic-ai/tokenizer` (tiktoken WASM), on texts of every kind.
 */
import { describe, expect, it } from "vitest";
import { countTokens } from "@anthropic-ai/tokenizer";
import { loadTokenizer } from "../../src/tokens/load.ts";
import { VARIANTS } from "../fixtures/variants.ts";

const TEXTS = [
  "Hello, world!",
  "  indented\n\tcode();\r\n",
  "function add(a: number, b: number): number {\n  return a + b;\n}\n",
  "Ünïcödé — “quotes”, ½, ﬁ, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "日本語のテキストと中文文本和한국어",
  "emoji: 🎉👩‍💻🇺🇸",
  "numbers 1234567890 3.14159 1e-9 0xDEADBEEF",
  "https://example.com/path?query=1&x=y#frag",
  "a".repeat(200),
  "- ".repeat(100),
  // Whole session files (the official package takes ~0.3 s per call, so a few).
  ...["linear", "branches", "bash-and-custom", "failed-turns", "cross-provider"].map(
    (name) => VARIANTS[name] as string,
  ),
];

describe("legacy Claude vocabulary", () => {
  it("counts like the official package", async () => {
    const ours = await loadTokenizer("claude");
    for (const text of TEXTS) expect(ours.count(text), JSON.stringify(text.slice(0, 40))).toBe(countTokens(text));
  });
});
