/** The fates of a path, held by position and read by entry: both orders of entry indices along a path. */
import { describe, expect, it } from "vitest";
import { PathFates } from "../../src/core/project/path-fates.ts";
import { projectLeaf } from "../../src/core/project/project.ts";
import { pathToLeaf } from "../../src/core/session/tree.ts";
import { assistant, header, session, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";

describe("PathFates", () => {
  it("reads fates by entry on a path whose indices rise", () => {
    const fates = new PathFates([0, 3, 4, 9], ["a", "b", "c", "d"]);
    expect([0, 3, 4, 9].map((e) => fates.get(e))).toEqual(["a", "b", "c", "d"]);
    expect([1, 2, 5, 10, -1].map((e) => fates.has(e))).toEqual([false, false, false, false, false]);
    expect(fates.get(5)).toBeUndefined();
    expect(fates.positionOf(9)).toBe(3);
    expect(fates.at(1)).toBe("b");
    expect([...fates]).toEqual([
      [0, "a"],
      [3, "b"],
      [4, "c"],
      [9, "d"],
    ]);
    expect(fates.size).toBe(4);
  });

  it("reads fates by entry on a path whose parents come later in the file", () => {
    const fates = new PathFates([7, 2, 5, 1], ["a", "b", "c", "d"]);
    expect([7, 2, 5, 1].map((e) => fates.get(e))).toEqual(["a", "b", "c", "d"]);
    expect(fates.has(3)).toBe(false);
    expect([...fates.keys()]).toEqual([7, 2, 5, 1]);
  });

  it("copies with some fates replaced and leaves the original as it was", () => {
    const fates = new PathFates([1, 2, 3], ["a", "b", "c"]);
    const changed = fates.with([
      [2, "B"],
      [8, "off the path"],
    ]);
    expect([...changed.values()]).toEqual(["a", "B", "c"]);
    expect([...fates.values()]).toEqual(["a", "b", "c"]);
  });

  it("refuses fates that do not match the path", () => {
    expect(() => new PathFates([1, 2], ["a"])).toThrow("a path of 2 entries needs as many fates, not 1");
  });
});

describe("a projection's fates", () => {
  it("names every path entry, also when parents are written after their children", () => {
    // Lines out of order: the leaf comes first in the file, its parents after it.
    const text = session(
      header(),
      assistant("a2", "u2", "second answer"),
      user("u2", "a1", "second question"),
      assistant("a1", "u1", "first answer"),
      user("u1", null, "first question"),
    );
    const tree = ourSession(text);
    const leaf = tree.byId.get("a2")!;
    const projection = projectLeaf(tree, leaf);
    if (!projection.ok) throw new Error(projection.error);
    const path = pathToLeaf(tree, leaf);
    if (!path.ok) throw new Error(path.error);
    expect(path.value.map((i) => tree.entries[i]!.id)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(path.value.map((i) => projection.value.fates.get(i)?.kind)).toEqual([
      "in-context",
      "in-context",
      "in-context",
      "in-context",
    ]);
    expect(projection.value.llmSources).toEqual(path.value);
  });
});
