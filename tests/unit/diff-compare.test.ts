/** Comparing two projections: alignment by provenance, descriptions, token and cost deltas, first divergence. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compareProjections, type Comparison } from "../../src/core/diff/compare.ts";
import { PI_DEFAULTS, type RuleSettings } from "../../src/core/project/rules.ts";
import { fixture, type Fixture } from "./diff-fixtures.ts";

const f = fixture();
const idOf = (e: number) => f.tree.entries[e]!.id!;
const label = (e: number) => `line ${f.tree.entries[e]!.line}`;

function compare(
  a: { leaf?: string; settings?: RuleSettings; model?: string },
  b: { leaf?: string; settings?: RuleSettings; model?: string },
  on: Fixture = f,
  json = false,
): Comparison {
  const side = (s: typeof a) => ({
    leaf: on.at(s.leaf ?? "a3"),
    ...(s.settings ? { settings: s.settings } : {}),
    ...(s.model ? { model: s.model } : {}),
  });
  const pa = on.project(side(a));
  const pb = on.project(side(b));
  return compareProjections(pa, pb, on.count(pa, a.settings), on.count(pb, b.settings), {
    entryLabel: (e) => `line ${on.tree.entries[e]!.line}`,
    json,
  });
}

const lines = (c: Comparison) =>
  c.changes.filter((x) => x.kind !== "unchanged").map((x) => `${x.kind}: ${x.description}`);
const short: RuleSettings = { ...PI_DEFAULTS, truncateToolResults: 500, bash: "head-tail", bashHead: 5, bashTail: 5 };

describe("compareProjections: two rule presets", () => {
  const c = compare({}, { settings: short });

  it("aligns items by the entries they came from and says what each rule did", () => {
    expect(c.counts).toEqual({ added: 0, removed: 0, changed: 2, unchanged: 6 });
    expect(lines(c)).toEqual([
      "changed: tool result of read on line 4: truncated",
      "changed: bash output on line 6: cut to its first and last lines",
    ]);
    const truncated = c.changes.find((x) => x.kind === "changed")!;
    expect(truncated.entries.map(idOf)).toEqual(["r1"]);
    expect([truncated.a, truncated.b]).toEqual([[2], [2]]);
  });

  it("gives each change its token delta, and totals and cost at the model's input price", () => {
    for (const change of c.changes) {
      expect(change.tokenDelta).toBe(change.tokensB! - change.tokensA!);
      if (change.kind === "unchanged") expect(change.tokenDelta).toBe(0);
      else expect(change.tokenDelta).toBeLessThan(0);
    }
    const perItem = c.changes.reduce((sum, x) => sum + x.tokenDelta!, 0);
    expect(c.tokenDelta).toBe(Math.round(c.b.total!.value) - Math.round(c.a.total!.value));
    expect(Math.abs(c.tokenDelta! - perItem)).toBeLessThanOrEqual(2); // rounding per item
    expect(c.a.inputPrice).toBe(3); // anthropic/claude-sonnet-4-5, dollars per million
    expect(c.costDelta).toBeCloseTo((c.b.total!.value - c.a.total!.value) * 3e-6, 12);
  });

  it("diffs the text inside a changed item", () => {
    const bash = c.changes.find((x) => x.description.startsWith("bash output"))!;
    expect(bash.textDiff!.exact).toBe(true);
    const removed = bash
      .textDiff!.parts.filter((p) => p.op === "removed")
      .map((p) => p.text)
      .join("");
    expect(removed).toContain("✓ test 30 passed");
    expect(removed).not.toContain("✓ test 5 passed");
    const b = bash
      .textDiff!.parts.filter((p) => p.op !== "removed")
      .map((p) => p.text)
      .join("");
    expect(b).toContain("[… 50 lines left out by Context Lens; the full output is in line 6 of compare.jsonl]");
    expect(bash.textDiff!.removedChars).toBeGreaterThan(bash.textDiff!.addedChars);
  });

  it("finds the first divergence and the tokens of B after it", () => {
    const d = c.divergence!;
    expect(d).toMatchObject({ at: "item", itemA: 2, itemB: 2, unit: 5 });
    expect(d.description).toBe("item 2 of B: tool result of read on line 4: truncated");
    const bItems = f.count(f.project({ leaf: f.at("a3"), settings: short }), short).items;
    const after = bItems.filter((i) => i.index >= 2).reduce((sum, i) => sum + i.tokens, 0);
    expect(d.tokensAfter).toBe(Math.round(after));
    expect(d.tokensBefore! + d.tokensAfter!).toBe(Math.round(c.b.total!.value));
  });

  it("reads an item left out as removed, with the rule that left it out; items without entries are matched too", () => {
    const c2 = compare({}, { settings: { ...PI_DEFAULTS, bash: "exclude", synthesizeMissingResults: false } });
    expect(lines(c2)).toEqual([
      "removed: synthetic tool result removed",
      "removed: bash output on line 6 removed (left out by rule Bash executions)",
    ]);
    // Both are where A had them: between the assistant turn that called bash and the next user message.
    expect(c2.changes.map((x) => x.kind)).toEqual([
      "unchanged",
      "unchanged",
      "unchanged",
      "unchanged",
      "removed",
      "removed",
      "unchanged",
      "unchanged",
    ]);
    expect(c2.changes[4]!.entries).toEqual([]);
  });

  it("pairs a system prompt in the message list (no entries) with the other side's, and says it changed", () => {
    const model = "cerebras/gpt-oss-120b"; // openai-completions: the system prompt is the first message
    const c3 = compare(
      { model, settings: { ...PI_DEFAULTS, systemPrompt: "You are pi." } },
      { model, settings: { ...PI_DEFAULTS, systemPrompt: "You are pi, version 2." } },
    );
    expect(lines(c3)).toEqual(["changed: system prompt changed"]);
    expect(c3.changes[0]!.textDiff!.parts).toContainEqual({ op: "added", text: ", version 2" });
    expect(c3.divergence).toMatchObject({ at: "item", itemB: 0 });
  });

  it("says identical requests have no divergence", () => {
    const same = compare({}, {});
    expect(same.counts).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 8 });
    expect(same.divergence).toBeUndefined();
    expect(same.tokenDelta).toBe(0);
  });

  it("puts a body-level system prompt before every item", () => {
    const c4 = compare({}, { settings: { ...PI_DEFAULTS, systemPrompt: "Be brief." } }); // anthropic: body.system
    expect(c4.divergence).toMatchObject({ at: "system", unit: 2, tokensBefore: 0 });
    expect(c4.divergence!.tokensAfter).toBe(Math.round(c4.b.total!.value));
  });
});

describe("compareProjections: two leaves", () => {
  it("lists what only A's branch has before what only B's has, where A had it", () => {
    const c = compare({ leaf: "a3" }, { leaf: "a4" });
    expect(c.changes.map((x) => `${x.kind} ${x.entries.map(idOf).join(",") || "-"}`)).toEqual([
      "unchanged u1",
      "unchanged a1",
      "unchanged r1",
      "removed a2",
      "removed -",
      "removed b1",
      "removed u2",
      "removed a3",
      "added bs",
      "added u3",
      "added a4",
    ]);
    expect(c.changes[3]!.description).toBe("assistant turn on line 5 removed (in B: not on B's path)");
    expect(c.changes[8]!.description).toBe("branch summary on line 9 added (in A: not on A's path)");
    expect(c.divergence).toMatchObject({ at: "item", itemA: 3, itemB: 3 });
  });

  it("sees A as a prefix of B when B's leaf is further down, and a moved cache marker as no divergence", () => {
    const c = compare({ leaf: "u2" }, { leaf: "a3" });
    expect(lines(c)).toEqual([
      "changed: user message on line 7: only its prompt-cache marker differs",
      "added: assistant turn on line 8 added (in A: not on A's path)",
    ]);
    expect(c.divergence).toMatchObject({ at: "item", itemB: 7 });
    expect(c.divergence!.itemA).toBeUndefined();
    expect(c.divergence!.description).toContain("after all of A (A is a prefix of B)");
    expect(c.divergence!.tokensAfter).toBe(c.changes.at(-1)!.tokensB);
    const back = compare({ leaf: "a3" }, { leaf: "u2" });
    expect(back.divergence).toMatchObject({ at: "end", tokensAfter: 0 });
    expect(back.divergence!.tokensBefore).toBe(Math.round(back.b.total!.value));
  });
});

describe("compareProjections: two models", () => {
  const sample = fixture(readFileSync("src/ui/sample/sample-session.jsonl", "utf8"));
  const leaf = (id: string) => sample.tree.entries[sample.at(id)]!.id!;

  it("aligns one assistant message across APIs that send it as one item or as several", () => {
    const pa = sample.project({});
    const pb = sample.project({ model: "anthropic/claude-sonnet-4-5" });
    const c = compareProjections(pa, pb, sample.count(pa), sample.count(pb), {
      entryLabel: (e) => `line ${sample.tree.entries[e]!.line}`,
    });
    expect(c.a.model).toBe("openai/gpt-5.1-codex");
    expect(c.counts.added + c.counts.removed).toBe(0);
    // Two tool results in a row: two input items for OpenAI, one user message for Anthropic.
    const reads = c.changes.find((x) => x.what === "tool results of read and read")!;
    expect([reads.a.length, reads.b.length]).toEqual([2, 1]);
    expect(reads.description).toMatch(/^tool results of read and read on lines 40 and 41: same text, sent differently/);
    const reasoning = c.changes.find((x) => x.a.length === 3 && x.b.length === 1)!;
    expect(reasoning.what).toBe("assistant turn");
    expect(c.divergence).toMatchObject({ at: "model", unit: 0, tokensBefore: 0 });
    expect(c.costDelta).toBeCloseTo((c.b.total!.value * 3 - c.a.total!.value * 1.25) / 1e6, 12);
    expect(leaf(sample.tree.entries[sample.tree.defaultLeaf!]!.id!)).toBeDefined();
  });

  it("diffs the two request bodies as JSON on demand", () => {
    const c = compare({}, { settings: short }, f, true);
    expect(c.json!.changes.map((x) => `${x.kind} ${x.path}`)).toEqual([
      "changed messages[2].content[0].content",
      "changed messages[5].content[0].text",
    ]);
    expect(compare({}, { settings: short }).json).toBeUndefined();
  });
});

it("names entries by line in descriptions through the label it is given", () => {
  expect(label(f.at("r1"))).toBe("line 4");
});
