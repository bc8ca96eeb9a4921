/** Stage 3: v1 and v2 files are migrated as pi does, with deterministic v1 ids. */
import { describe, expect, it } from "vitest";
import { loadSessionText } from "../../src/core/session/load.ts";
import { VARIANTS } from "../fixtures/variants.ts";

describe("migration", () => {
  it("gives v1 entries stable ids and a linear parent chain", () => {
    const first = loadSessionText("f", VARIANTS["v1-linear"]!);
    const again = loadSessionText("f", VARIANTS["v1-linear"]!);
    expect(first.version).toBe(1);
    expect(first.entries.map((e) => e.id)).toEqual(again.entries.map((e) => e.id));
    expect(first.entries.every((e) => /^[0-9a-f]{8}$/.test(e.id!))).toBe(true);
    expect(new Set(first.entries.map((e) => e.id)).size).toBe(first.entries.length);
    expect(first.entries.map((e) => e.parentId)).toEqual([null, ...first.entries.slice(0, -1).map((e) => e.id)]);
  });

  it("turns firstKeptEntryIndex into the id of the entry at that index (header counted, as pi)", () => {
    const file = loadSessionText("f", VARIANTS["v1-linear"]!);
    const compaction = file.entries.find((e) => e.type === "compaction")!;
    expect(compaction.raw["firstKeptEntryId"]).toBe(file.entries[2]!.id); // index 3 of pi's list = 3rd entry
    expect(compaction.raw).not.toHaveProperty("firstKeptEntryIndex");
  });

  it("gives a compaction that keeps from itself its own new id, as pi's in-place migration does", () => {
    const file = loadSessionText("f", VARIANTS["v1-compaction-keeps-itself"]!);
    const compaction = file.entries.find((e) => e.type === "compaction")!;
    expect(compaction.raw["firstKeptEntryId"]).toBe(compaction.id);
  });

  it("renames the v2 hookMessage role to custom without touching the input", () => {
    const file = loadSessionText("f", VARIANTS["v2-hook-message"]!);
    const hook = file.entries.find((e) => e.id === "h1")!;
    expect((hook.raw["message"] as { role: string }).role).toBe("custom");
  });
});
