/** The tree's fate overlay (src/ui/projection/fate-marks.ts): a mark and a reason for every path entry, none off it. */
import { describe, expect, it } from "vitest";
import type { EntryFate } from "../../src/core/project/project.ts";
import { fateMarks } from "../../src/ui/projection/fate-marks.ts";

describe("fate marks", () => {
  const inContext: EntryFate = { kind: "in-context" };
  // Path 0 → 2 → 5 → 7 of a tree of 9 entries; 1, 3, 4, 6 and 8 are on other branches.
  const path = [0, 2, 5, 7];
  const fates: EntryFate[] = [
    { kind: "summarised", compaction: 5 },
    { kind: "excluded", rule: "excludeCustomTypes", reason: "custom type ui_status" },
    { kind: "compaction-summary" },
    inContext,
  ];
  const lineOf = (index: number) => index + 2;

  it("marks each path entry by its own fate, in words", () => {
    const marks = fateMarks(path, fates, lineOf);
    expect(marks.get(0)).toEqual({ kind: "summarised", reason: "summarised by the compaction on line 7" });
    expect(marks.get(2)?.kind).toBe("excluded");
    expect(marks.get(2)?.reason).toMatch(/^excluded by rule .+: custom type ui_status$/);
    expect(marks.get(5)?.kind).toBe("summary");
    expect(marks.get(7)).toEqual({ kind: "in", reason: "in context" });
  });

  it("has no mark for entries off the path, before, between or after its entries", () => {
    const marks = fateMarks(path, fates, lineOf);
    for (const entry of [1, 3, 4, 6, 8, 100, -1]) expect(marks.get(entry)).toBeUndefined();
  });

  it("makes one mark per fate object: entries sharing a fate share its mark", () => {
    const long = Array.from({ length: 1000 }, (_, i) => i * 2);
    const marks = fateMarks(
      long,
      long.map(() => inContext),
      lineOf,
    );
    expect(marks.get(0)).toBe(marks.get(1998));
    expect(marks.get(999)).toBeUndefined();
  });
});
