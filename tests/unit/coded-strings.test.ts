/** Entry kinds cross the worker seam as codes into a table of names (src/worker/coded-strings.ts). */
import { describe, expect, it } from "vitest";
import { codedString, codeStrings } from "../../src/worker/coded-strings.ts";

describe("coded strings", () => {
  it("gives every value back, with one name per distinct value, and nothing past the end", () => {
    const values = ["user", "assistant", "toolResult", "assistant", "", "user", "compaction"];
    const coded = codeStrings(values);
    expect(coded.names).toEqual(["user", "assistant", "toolResult", "", "compaction"]);
    expect(values.map((_, i) => codedString(coded, i))).toEqual(values);
    expect(codedString(coded, -1)).toBeUndefined();
    expect(codedString(coded, values.length)).toBeUndefined();
  });

  it("survives a transfer of its codes as the worker posts it", () => {
    const values = Array.from({ length: 10_000 }, (_, i) => (i % 3 === 0 ? "user" : `kind ${i % 7}`));
    const coded = codeStrings(values);
    const copy = structuredClone(coded, { transfer: [coded.codes.buffer] });
    expect(coded.codes.length).toBe(0); // moved, not copied
    expect(values.every((value, i) => codedString(copy, i) === value)).toBe(true);
  });
});
