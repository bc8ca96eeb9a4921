/** The diff primitives: Myers' edit script, text diffs by word and line, the structural JSON diff. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffJson, JsonIds } from "../../src/core/diff/json-diff.ts";
import { alignItems } from "../../src/core/diff/align.ts";
import { Interner, shortestEdit } from "../../src/core/diff/myers.ts";
import { dataUrlHolder } from "../../src/core/providers/common.ts";
import { diffText, splitLines, splitWords, type TextDiff } from "../../src/core/diff/text-diff.ts";

const sides = (diff: TextDiff) => ({
  a: diff.parts
    .filter((p) => p.op !== "added")
    .map((p) => p.text)
    .join(""),
  b: diff.parts
    .filter((p) => p.op !== "removed")
    .map((p) => p.text)
    .join(""),
});

describe("shortestEdit", () => {
  it("finds an edit script of minimal length (Myers' example: ABCABBA → CBABAC in 5 edits)", () => {
    const interner = new Interner();
    const a = interner.ids([..."ABCABBA"]);
    const b = interner.ids([..."CBABAC"]);
    const edits = shortestEdit(a, b)!;
    expect(edits.filter((e) => e.op !== "same")).toHaveLength(5);
    expect(edits.filter((e) => e.op !== "added").map((e) => "ABCABBA"[(e as { a: number }).a])).toEqual([..."ABCABBA"]);
    expect(edits.filter((e) => e.op !== "removed").map((e) => "CBABAC"[(e as { b: number }).b])).toEqual([..."CBABAC"]);
  });

  it("handles empty sides and gives up past its budget", () => {
    expect(shortestEdit([], [1, 2])).toEqual([
      { op: "added", b: 0 },
      { op: "added", b: 1 },
    ]);
    expect(shortestEdit([1], [])).toEqual([{ op: "removed", a: 0 }]);
    const a = Int32Array.from({ length: 400 }, (_, i) => i);
    const b = Int32Array.from({ length: 400 }, (_, i) => 1000 + i);
    expect(shortestEdit(a, b, 1_000)).toBeUndefined();
    expect(shortestEdit(a, b)).toHaveLength(800);
  });
});

describe("diffText", () => {
  it("splits into words, spaces and punctuation, and lines with their breaks, losslessly", () => {
    expect(splitWords("Hello, world!  ok")).toEqual(["Hello", ",", " ", "world", "!", "  ", "ok"]);
    expect(splitLines("a\nb\n\nc")).toEqual(["a\n", "b\n", "\n", "c"]);
  });

  it("says which words were removed and added, and gives both texts back", () => {
    const diff = diffText("The total is 40 euros.", "The total is 40.01 euros.");
    expect(diff).toMatchObject({ unit: "word", exact: true, removedChars: 0, addedChars: 3 });
    expect(diff.parts).toEqual([
      { op: "same", text: "The total is 40" },
      { op: "added", text: ".01" },
      { op: "same", text: " euros." },
    ]);
    expect(sides(diff)).toEqual({ a: "The total is 40 euros.", b: "The total is 40.01 euros." });
  });

  it("diffs long texts line by line", () => {
    const a = Array.from({ length: 3_000 }, (_, i) => `line ${i}`).join("\n");
    const b = a.replace("line 1500\n", "line 1500 (edited)\n");
    const diff = diffText(a, b);
    expect(diff.unit).toBe("line");
    expect(diff.parts.filter((p) => p.op !== "same")).toEqual([
      { op: "removed", text: "line 1500\n" },
      { op: "added", text: "line 1500 (edited)\n" },
    ]);
    expect(sides(diff)).toEqual({ a, b });
  });

  it("falls back to one removal and one addition between the common ends when the budget runs out", () => {
    const a = `start ${"x y ".repeat(300)} end`;
    const b = `start ${"p q ".repeat(300)} end`;
    const diff = diffText(a, b, { budget: 100 });
    expect(diff.exact).toBe(false);
    expect(diff.parts.map((p) => p.op)).toEqual(["same", "removed", "added", "same"]);
    expect(sides(diff)).toEqual({ a, b });
  });
});

describe("diffJson", () => {
  it("reads one array element left out as one removal, not as every later element changed", () => {
    const a = {
      messages: [
        { role: "user", text: "a" },
        { role: "user", text: "b" },
        { role: "user", text: "c" },
      ],
    };
    const b = {
      messages: [
        { role: "user", text: "a" },
        { role: "user", text: "c" },
      ],
    };
    expect(diffJson(a, b).changes).toEqual([
      { kind: "removed", path: "messages[1]", before: '{"role":"user","text":"b"}' },
    ]);
  });

  it("goes inside elements replaced in place, and names added and removed keys", () => {
    const a = { model: "x", messages: [{ content: [{ text: "old" }] }], stream: true };
    const b = { model: "y", messages: [{ content: [{ text: "new", cache_control: { type: "ephemeral" } }] }] };
    expect(diffJson(a, b).changes).toEqual([
      { kind: "changed", path: "model", before: '"x"', after: '"y"' },
      { kind: "changed", path: "messages[0].content[0].text", before: '"old"', after: '"new"' },
      { kind: "added", path: "messages[0].content[0].cache_control", after: '{"type":"ephemeral"}' },
      { kind: "removed", path: "stream", before: "true" },
    ]);
  });

  it("shortens long values and stops at maxChanges, saying so", () => {
    const diff = diffJson({ a: "x".repeat(500) }, { a: "y" }, { preview: 10 });
    expect(diff.changes[0]!.before).toBe('"xxxxxxxxx… (502 characters)');
    const many = diffJson({ a: 1, b: 1, c: 1 }, { a: 2, b: 2, c: 2 }, { maxChanges: 2 });
    expect(many.changes).toHaveLength(2);
    expect(many.truncated).toBe(true);
    expect(diffJson({ a: [1, 2] }, { a: [1, 2] })).toEqual({ changes: [], truncated: false });
  });

  it("reads a payload image's data URL from the image behind it, never from the builder's string", () => {
    // A builder's URL string must not be read: V8 would keep a flat copy of the image with the payload item. Here
    // the holders' own strings say something else than their images, so reading one shows in the diff.
    const image = (data: string, url: string) =>
      dataUrlHolder({ type: "image_url", url }, "url", { type: "image", mimeType: "image/png", data });
    const body = (...images: object[]) => ({ messages: [{ role: "user", content: ["look", ...images] }] });
    expect(diffJson(body(image("AAAA", "not read")), body(image("AAAA", "neither"))).changes).toEqual([]);
    expect(diffJson(body(image("AAAA", "same")), body(image("BBBB", "same"))).changes).toEqual([
      {
        kind: "changed",
        path: "messages[0].content[1].url",
        before: '"data:image/png;base64,AAAA"',
        after: '"data:image/png;base64,BBBB"',
      },
    ]);
    expect(diffJson(body(), body(image("CCCC", "x"))).changes).toEqual([
      {
        kind: "added",
        path: "messages[0].content[1]",
        after: '{"type":"image_url","url":"data:image/png;base64,CCCC"}',
      },
    ]);
  });

  it("gives two values the same id exactly when their JSON is the same", () => {
    // JSON-like values with what JSON leaves out or rewrites: undefined fields and elements, NaN, -0.
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(null, true, 0, -0, 1, NaN, undefined),
        fc.constantFrom("", "a", "null", "[1]", '"a"'),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom("a", "b"), tie("value"), { maxKeys: 2 }),
      ),
    })).value;
    /** The same JSON written another way: what JSON drops or rewrites, swapped for what it becomes. */
    const rewritten = (v: unknown, inArray = false): unknown => {
      if (Number.isNaN(v) || (inArray && v === undefined)) return null;
      if (Object.is(v, -0)) return 0;
      if (Array.isArray(v)) return v.map((x) => rewritten(x, true));
      if (typeof v === "object" && v !== null)
        return Object.fromEntries([...Object.entries(v).map(([k, x]) => [k, rewritten(x)]), ["zz", undefined]]);
      return v;
    };
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 4 }), (picked) => {
        const ids = new JsonIds();
        const values = [...picked, ...picked.map((v) => rewritten(v))];
        for (const x of values)
          for (const y of values) expect(ids.of(x) === ids.of(y)).toBe(JSON.stringify(x) === JSON.stringify(y));
      }),
      { numRuns: 500 },
    );
  });

  it("skips what both bodies share and still finds a change deep in a long list", () => {
    const shared = Array.from({ length: 5_000 }, (_, i) => ({
      role: "user",
      content: [{ type: "text", text: `m${i}` }],
    }));
    const a = { messages: [...shared, { role: "user", content: [{ type: "text", text: "last" }] }] };
    const b = { messages: [...shared, { role: "user", content: [{ type: "text", text: "changed" }] }] };
    expect(diffJson(a, b).changes).toEqual([
      { kind: "changed", path: "messages[5000].content[0].text", before: '"last"', after: '"changed"' },
    ]);
    const many = diffJson(
      { list: shared },
      { list: shared.map((m) => ({ ...m, role: "assistant" })) },
      { maxChanges: 3 },
    );
    expect(many.changes.map((c) => c.path)).toEqual(["list[0].role", "list[1].role", "list[2].role"]);
    expect(many.truncated).toBe(true);
  });
});

describe("lists longer than a call takes arguments (~120,000 here)", () => {
  // A 200,000-item payload against a short one: compaction off against on, on a session of several hundred MB.
  const n = 200_000;

  it("are aligned: what only A has after B's last item is placed at the end", () => {
    const a = {
      sources: Array.from({ length: n }, (_, i) => [i]),
      keys: Array.from({ length: n }, () => "k"),
      kinds: Array.from({ length: n }, () => "message"),
    };
    const groups = alignItems(a, { sources: [[0]], keys: ["k"], kinds: ["message"] });
    expect(groups).toHaveLength(n);
    expect(groups.at(-1)).toEqual({ a: [n - 1], b: [], entries: [n - 1] });
  });

  it("have their shortest edit found, when they differ at both ends (nothing is trimmed before the search)", () => {
    const same = Array.from({ length: n }, (_, i) => i);
    const edits = shortestEdit([-1, ...same, -2], [-3, ...same, -4])!;
    expect(edits).toHaveLength(n + 4);
    expect(edits.filter((e) => e.op !== "same")).toEqual([
      { op: "removed", a: 0 },
      { op: "added", b: 0 },
      { op: "removed", a: n + 1 },
      { op: "added", b: n + 1 },
    ]);
  });
});
