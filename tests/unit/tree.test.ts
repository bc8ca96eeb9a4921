/** Stage 4: the tree index — pi's lookup rules, labels, names, leaves, and problems reported, never hung on. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadSessionText } from "../../src/core/session/load.ts";
import { indexTree, leavesOf, pathToLeaf, resolveEntryRef, type EntryTree } from "../../src/core/session/tree.ts";
import { HANGS_PI, VARIANTS } from "../fixtures/variants.ts";

const tree = (name: string, text = VARIANTS[name]!) => indexTree(loadSessionText(`${name}.jsonl`, text));
const ids = (t: ReturnType<typeof tree>, indices: readonly number[]) => indices.map((i) => t.entries[i]!.id);

describe("indexTree", () => {
  it("finds branch points, leaves and the default leaf", () => {
    const t = tree("branches");
    expect(ids(t, leavesOf(t))).toEqual(["a3", "a4", "a5"]);
    expect(ids(t, [t.defaultLeaf!])).toEqual(["a5"]);
    expect(ids(t, t.children[t.byId.get("a2")!]!)).toEqual(["u2", "u3", "b1"]);
    const path = pathToLeaf(t, t.byId.get("a5")!);
    expect(path.ok && ids(t, path.value)).toEqual(["m1", "t1", "u1", "a1", "r1", "a2", "b1", "u4", "a5"]);
  });

  it("keeps the latest label, lets an empty label clear one, and trims the session name", () => {
    const t = tree("labels-and-name");
    expect(t.labels.get("u1")).toBeUndefined();
    expect(t.labels.get("a2")?.label).toBe("answer");
    expect(t.name).toBe("Demo session");
  });

  it("resolves a duplicate id to its last entry (as pi) and reports it; line:N reaches the first", () => {
    const t = tree("duplicate-ids");
    expect(t.diagnostics.map((d) => [d.code, d.line])).toEqual([["duplicate-id", 4]]);
    const byId = resolveEntryRef(t, "u1");
    expect(byId.ok && t.entries[byId.value]!.line).toBe(4);
    const byLine = resolveEntryRef(t, "line:2");
    expect(byLine.ok && t.entries[byLine.value]!.id).toBe("u1");
    expect(resolveEntryRef(t, "line:1")).toMatchObject({ ok: false });
    expect(resolveEntryRef(t, "nope")).toEqual({ ok: false, error: 'no entry has id "nope"' });
  });

  it("reports a missing parent and treats the entry as a root", () => {
    const t = tree("missing-parent");
    expect(t.diagnostics.map((d) => [d.code, d.line])).toEqual([["missing-parent", 3]]);
    expect(ids(t, t.roots)).toEqual(["u1", "a1"]);
  });

  it("reports a parent cycle, and a path into it fails instead of hanging", () => {
    for (const [name, text] of Object.entries(HANGS_PI)) {
      const t = tree(name, text);
      expect(
        t.diagnostics.some((d) => d.code === "parent-cycle"),
        name,
      ).toBe(true);
      const inCycle = [...t.inCycle][0]!;
      expect(pathToLeaf(t, inCycle)).toMatchObject({ ok: false });
    }
    const t = tree("cycle", HANGS_PI["cycle"]);
    expect(pathToLeaf(t, t.byId.get("a4")!)).toMatchObject({ ok: true });
  });

  it("indexes a 100,000-deep chain without recursion", () => {
    const lines = [JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" })];
    for (let i = 0; i < 100_000; i += 1)
      lines.push(
        JSON.stringify({
          type: "label",
          id: `e${i}`,
          parentId: i ? `e${i - 1}` : null,
          timestamp: "t",
          targetId: "x",
          label: "y",
        }),
      );
    const t = indexTree(loadSessionText("deep", lines.join("\n")));
    const path = pathToLeaf(t, t.defaultLeaf!);
    expect(path.ok && path.value.length).toBe(100_000);
  });
});

describe("pathToLeaf on leaves asked in any order", () => {
  it("walks the same path whether the leaf lies on the path walked before, below it, or off it", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { minLength: 1, maxLength: 60 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        (parents, asked) => {
          // Entry i's parent is an earlier entry (or none): a forest without cycles.
          const parentOf = parents.map((p, i) => (i === 0 || p % 4 === 0 ? undefined : p % i));
          const tree = { parentOf, inCycle: new Set(), entries: parentOf } as unknown as EntryTree;
          const given: [readonly number[], number[]][] = [];
          for (const a of asked) {
            const leaf = a % parentOf.length;
            const walk: number[] = [];
            for (let node: number | undefined = leaf; node !== undefined; node = parentOf[node]) walk.unshift(node);
            const path = pathToLeaf(tree, leaf);
            expect(path.ok && path.value).toEqual(walk);
            if (path.ok) given.push([path.value, walk]);
          }
          // A path handed out is never changed by the walks after it.
          for (const [path, walk] of given) expect(path).toEqual(walk);
        },
      ),
      { numRuns: 500 },
    );
  });
});
