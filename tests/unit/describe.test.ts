import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { modelRefText, preview } from "../../src/core/session/describe.ts";

/** The preview as it was first written: flatten the whole text, then cut it. */
function flattenAll(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Every character `\s` matches, some that it does not, and halves of a surrogate pair. */
const CHARS = [
  ..." \t\n\v\f\r\u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff",
  ..."ab.{}\u0085\u180e\u200b\u00e4",
  "\ud83d",
  "\ude00",
];

describe("preview", () => {
  it("is the whole text flattened and cut, whatever the text", () => {
    const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 400 }).map((chars) => chars.join(""));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 200 }), (t, max) => {
        expect(preview(t, max)).toBe(flattenAll(t, max));
      }),
      { numRuns: 20_000 },
    );
  });

  it("cuts long texts as the whole text flattened would be cut", () => {
    const texts = [
      `  first\n\n  line ${"word ".repeat(10)}${"x".repeat(100_000)}`,
      `${" \n".repeat(50_000)}late text`,
      `${"a".repeat(79)}${" ".repeat(100_000)}`,
      `${"a".repeat(79)}${" ".repeat(100_000)}b`,
      `${"a ".repeat(39)}a\u3000\u3000b`,
    ];
    for (const text of texts)
      for (const max of [1, 2, 79, 80, 81, 160]) expect(preview(text, max)).toBe(flattenAll(text, max));
  });
});

describe("modelRefText", () => {
  it("names a model by its fields, showing what a malformed field holds", () => {
    expect(modelRefText("anthropic", "claude-sonnet-4-5")).toBe("anthropic/claude-sonnet-4-5");
    expect(modelRefText({ name: "x" }, ["m"])).toBe('{"name":"x"}/["m"]');
    expect(modelRefText(undefined, 7)).toBe("?/7");
    expect(modelRefText(null, "m")).toBe("null/m");
    expect(modelRefText("p", { id: "x".repeat(100) })).toBe(`p/{"id":"${"x".repeat(32)}…`);
  });
});
