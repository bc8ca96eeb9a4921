/** Every projection rule changes what it says it changes (and nothing else), presets round-trip, bad files say why. */
import { describe, expect, it } from "vitest";
import { findModel } from "../../src/core/models/registry.ts";
import { projectLeaf, type Projection } from "../../src/core/project/project.ts";
import {
  changedRules,
  PI_DEFAULTS,
  projectionOptions,
  RULES,
  type RuleSettings,
} from "../../src/core/project/rules.ts";
import {
  BUILT_IN_PRESETS,
  builtInPreset,
  parsePresets,
  presetsToJson,
  presetToJson,
} from "../../src/core/project/presets.ts";
import type { LlmMessage } from "../../src/core/llm/types.ts";
import {
  assistant,
  bash,
  branchSummary,
  compaction,
  customMessage,
  entry,
  header,
  image,
  session,
  text,
  thinking,
  toolCall,
  toolResult,
  user,
} from "../support/build.ts";
import { ourSession } from "../support/ours.ts";

const FAKE_KEY = `sk-proj-${"Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7sU9wY1".repeat(1)}`;
const LONG_OUTPUT = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n");

/** One path that every rule has something to act on. */
const RICH = session(
  header(),
  user("u1", null, "Start: read the README"),
  assistant("a1", "u1", [thinking("let me look"), toolCall("call_1")]),
  toolResult("r1", "a1", "call_1", "x".repeat(500)),
  branchSummary("b1", "r1", "gone", "We tried A."),
  customMessage("x1", "b1", "ui_status", "status: busy"),
  customMessage("x2", "x1", "memo", "remember this"),
  entry("message", "cr1", "x2", {
    message: { role: "custom", customType: "ui_status", content: "custom role", display: true, timestamp: 1 },
  }),
  bash("s1", "cr1", "seq 100", LONG_OUTPUT),
  bash("s2", "s1", "cat .env", "secret", { excludeFromContext: true }),
  user("u2", "s2", [text(`my key is ${FAKE_KEY}`), image()]),
  assistant("a2", "u2", "failed", { stopReason: "error" }),
  assistant("a3", "a2", [thinking("other model thought"), toolCall("call_2")], {
    provider: "openai",
    model: "gpt-5.1",
    api: "openai-responses",
  }),
  user("u3", "a3", "continue"),
  compaction("c1", "u3", "s1", "Summary of the start."),
  user("u4", "c1", "after compaction"),
);

const sonnet = findModel("anthropic", "claude-sonnet-4-5")!;

function run(settings: Partial<RuleSettings> = {}): { p: Projection; id: (i: number) => string; texts: string[] } {
  const tree = ourSession(RICH, "rich.jsonl");
  const result = projectLeaf(tree, tree.defaultLeaf!, {
    ...projectionOptions({ ...PI_DEFAULTS, ...settings }),
    model: sonnet,
  });
  if (!result.ok) throw new Error(result.error);
  const id = (i: number) => tree.entries[i]!.id!;
  const texts = result.value.llm.messages.map((m: LlmMessage) => JSON.stringify(m.content));
  return { p: result.value, id, texts };
}

const sourcesOf = (r: ReturnType<typeof run>) => r.p.llmSources.map(r.id);
const fateOf = (r: ReturnType<typeof run>, entryId: string) => {
  const tree = ourSession(RICH, "rich.jsonl");
  return r.p.fates.get(tree.byId.get(entryId)!);
};

describe("rules", () => {
  const base = run();

  it("pi's defaults: the rule settings produce what projectLeaf produces with no options", () => {
    const tree = ourSession(RICH, "rich.jsonl");
    const plain = projectLeaf(tree, tree.defaultLeaf!, { model: sonnet });
    expect(plain.ok && plain.value.payload.body).toEqual(base.p.payload.body);
    expect(changedRules(PI_DEFAULTS)).toEqual([]);
    expect(sourcesOf(base)).toEqual(["c1", "s1", "u2", "a2", "a3", "u3", "u4"]);
  });

  it("every rule in the catalogue has a label, a description and settings that exist", () => {
    const ids = new Set<string>();
    for (const rule of RULES) {
      expect(rule.label.length).toBeGreaterThan(2);
      expect(rule.description.length).toBeGreaterThan(20);
      for (const key of rule.keys) expect(key in PI_DEFAULTS).toBe(true);
      expect(ids.has(rule.id)).toBe(false);
      ids.add(rule.id);
    }
  });

  it("apply compaction off: the whole path is sent and the compaction is excluded by rule", () => {
    const r = run({ applyCompaction: false });
    expect(sourcesOf(r)).toEqual(["u1", "a1", "r1", "b1", "x1", "x2", "cr1", "s1", "u2", "a2", "a3", "u3", "u4"]);
    expect(fateOf(r, "c1")).toMatchObject({ kind: "excluded", rule: "apply-compaction" });
  });

  it("branch summaries off", () => {
    const r = run({ applyCompaction: false, branchSummaries: false });
    expect(sourcesOf(r)).not.toContain("b1");
    expect(fateOf(r, "b1")).toMatchObject({ kind: "excluded", rule: "branch-summaries" });
  });

  it("extension messages and custom-role messages are dropped per customType, and only those", () => {
    const r = run({ applyCompaction: false, dropExtensionTypes: ["ui_status"], dropCustomRoleTypes: ["ui_status"] });
    expect(sourcesOf(r)).toEqual(["u1", "a1", "r1", "b1", "x2", "s1", "u2", "a2", "a3", "u3", "u4"]);
    expect(fateOf(r, "x1")).toMatchObject({ kind: "excluded", rule: "extension-types" });
    expect(fateOf(r, "cr1")).toMatchObject({ kind: "excluded", rule: "custom-role-types" });
  });

  it("bash: exclude all, or head and tail lines with a note on where the full output is", () => {
    const excluded = run({ bash: "exclude" });
    expect(sourcesOf(excluded)).not.toContain("s1");
    expect(fateOf(excluded, "s1")).toMatchObject({ kind: "excluded", rule: "bash" });

    const cut = run({ bash: "head-tail", bashHead: 3, bashTail: 2 });
    const textOf = cut.texts[sourcesOf(cut).indexOf("s1")]!;
    expect(textOf).toContain("line 1\\nline 2\\nline 3\\n[… 95 lines left out by Context Lens");
    expect(textOf).toContain("the full output is in line 9 of rich.jsonl"); // where the full output lives: s1's line
    expect(textOf).toContain("line 99\\nline 100");
    expect(textOf).not.toContain("line 50\\n");
    expect(fateOf(cut, "s1")).toEqual({ kind: "in-context", changedBy: ["bash"] });
  });

  it("excludeFromContext can be ignored", () => {
    expect(sourcesOf(run({ honourExcludeFromContext: false }))).toContain("s2");
    expect(fateOf(base, "s2")).toMatchObject({ kind: "excluded", rule: "exclude-from-context" });
  });

  it("block images: pi's placeholder text", () => {
    const r = run({ blockImages: true });
    const u2 = r.texts[sourcesOf(r).indexOf("u2")]!;
    expect(u2).toContain("Image reading is disabled.");
    expect(u2).not.toContain('"image"');
    expect(fateOf(r, "u2")).toEqual({ kind: "in-context", changedBy: ["block-images"] });
  });

  it("drop thinking removes thinking blocks (and so the other model's thinking never becomes text)", () => {
    expect(JSON.stringify(base.p.payload.body)).toContain("other model thought");
    const r = run({ dropThinking: true });
    expect(JSON.stringify(r.p.payload.body)).not.toContain("other model thought");
    expect(fateOf(r, "a3")).toEqual({ kind: "in-context", changedBy: ["drop-thinking"] });
  });

  it("truncate tool results says so in the text", () => {
    const r = run({ applyCompaction: false, truncateToolResults: 100 });
    const r1 = r.texts[sourcesOf(r).indexOf("r1")]!;
    expect(r1).toContain("x".repeat(100) + "\\n\\n[Tool result truncated by Context Lens: 100 of 500 characters kept]");
    expect(r1).not.toContain("x".repeat(101));
    expect(fateOf(r, "r1")).toEqual({ kind: "in-context", changedBy: ["truncate-tool-results"] });
  });

  it("redact secrets replaces the key and lists the redaction with its message", () => {
    expect(JSON.stringify(base.p.payload.body)).toContain(FAKE_KEY);
    const r = run({ redactSecrets: true });
    expect(JSON.stringify(r.p.payload.body)).not.toContain(FAKE_KEY);
    expect(r.p.llm.redactions).toHaveLength(1);
    expect(r.p.llm.redactions[0]).toMatchObject({ original: FAKE_KEY, message: sourcesOf(r).indexOf("u2") });
    expect(fateOf(r, "u2")).toEqual({ kind: "in-context", changedBy: ["redact-secrets"] });
  });

  it("transform switches: keep failed turns, no synthetic results, drop other models' thinking", () => {
    const body = (s: Partial<RuleSettings>) => JSON.stringify(run(s).p.payload.body);
    expect(body({})).not.toContain('"failed"');
    expect(body({ dropFailedTurns: false })).toContain('"failed"');
    expect(fateOf(base, "a2")).toMatchObject({ kind: "dropped", reason: "errored turn" });
    expect(fateOf(run({ dropFailedTurns: false }), "a2")).toEqual({ kind: "in-context" });
    expect(body({})).toContain("No result provided");
    expect(body({ synthesizeMissingResults: false })).not.toContain("No result provided");
    expect(body({ crossModelThinking: "drop" })).not.toContain("other model thought");
  });

  it("payload settings: thinking level, cache retention, system prompt, tools", () => {
    const r = run({
      thinkingLevel: "high",
      cacheRetention: "none",
      systemPrompt: "You are terse.",
      tools: [{ name: "read", description: "Read a file", parameters: { type: "object" } }],
    });
    const body = r.p.payload.body as Record<string, unknown>;
    expect(r.p.reasoning).toBe("high");
    expect(JSON.stringify(body["system"])).toContain("You are terse.");
    expect(JSON.stringify(body["tools"])).toContain('"read"');
    expect(JSON.stringify(body)).not.toContain("cache_control");
    expect(run({ thinkingLevel: "off" }).p.reasoning).toBeUndefined();
  });

  it("changedRules names the rules that differ from pi", () => {
    const ids = changedRules({ ...PI_DEFAULTS, dropThinking: true, bash: "head-tail" }).map((r) => r.id);
    expect(ids).toEqual(["bash", "drop-thinking"]);
    expect(changedRules({ ...PI_DEFAULTS, bashHead: 5 }).map((r) => r.id)).toEqual([]);
  });
});

describe("presets", () => {
  it("round-trip one preset and a list, exporting only what differs from pi", () => {
    const lean = builtInPreset("lean")!;
    const json = presetToJson(lean);
    expect(JSON.parse(json).settings).toEqual({
      bash: "head-tail",
      dropThinking: true,
      truncateToolResults: 20000,
      redactSecrets: true,
    });
    expect(parsePresets(json)).toEqual({ ok: true, value: [lean] });
    expect(parsePresets(presetsToJson(BUILT_IN_PRESETS))).toEqual({ ok: true, value: [...BUILT_IN_PRESETS] });
  });

  it("finds built-ins by loose name", () => {
    expect(builtInPreset("pi")?.name).toBe("pi 0.73.1");
    expect(builtInPreset("pi 0.73.1")?.name).toBe("pi 0.73.1");
    expect(builtInPreset("whole-path")?.settings.applyCompaction).toBe(false);
    expect(builtInPreset("nope")).toBeUndefined();
  });

  it.each([
    ["{", /not JSON/],
    ["[]", /not a Context Lens preset/],
    [JSON.stringify({ format: "context-lens/snapshot" }), /snapshot, not a preset/],
    [JSON.stringify({ format: "context-lens/preset", version: 2, name: "x", settings: {} }), /at version/],
    [JSON.stringify({ format: "context-lens/preset", version: 1, name: " ", settings: {} }), /needs a name/],
    [
      JSON.stringify({ format: "context-lens/preset", version: 1, name: "x", settings: { dropThinkin: true } }),
      /unknown setting "dropThinkin"/,
    ],
    [
      JSON.stringify({ format: "context-lens/preset", version: 1, name: "x", settings: { bash: "some" } }),
      /at settings\.bash/,
    ],
    [
      JSON.stringify({ format: "context-lens/preset", version: 1, name: "x", settings: { tools: [{ name: "t" }] } }),
      /at settings\.tools\.0\.description/,
    ],
  ])("refuses %s with a message saying where", (input, message) => {
    const result = parsePresets(input, "p.json");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
    if (!result.ok) expect(result.error).toContain("p.json");
  });
});

describe("rule effects (what the rules panel counts)", () => {
  it("counts the path entries a flipped rule changes, and nothing for rules without an effect here", async () => {
    const { contributions, projectFor, ruleAlternatives, ruleEffect } = await import("../../src/worker/projection.ts");
    const tree = ourSession(RICH, "rich.jsonl");
    const leaf = tree.defaultLeaf!;
    const settings = { ...PI_DEFAULTS, applyCompaction: false };
    const current = projectFor(tree, leaf, settings, "anthropic/claude-sonnet-4-5");
    if (!current.ok) throw new Error(current.error);
    const mine = contributions(current.value);
    const effects = Object.fromEntries(
      ruleAlternatives(tree, leaf, settings).map(({ rule, against }) => [
        rule.id,
        ruleEffect(tree, leaf, rule, against, "anthropic/claude-sonnet-4-5", mine)?.entries,
      ]),
    );
    expect(effects["drop-thinking"]).toBe(2); // a1 and a3 have thinking
    expect(effects["bash"]).toBe(1); // "exclude all" takes s1 out (s2 is already out by !!)
    expect(effects["exclude-from-context"]).toBe(1); // s2 comes in
    expect(effects["extension-types"]).toBe(2); // both extension messages left out
    expect(effects["apply-compaction"]).toBe(8); // switching it back on summarises u1…cr1 (7) and c1 becomes the summary
    expect(effects["system-prompt"]).toBeUndefined(); // nothing to clear
  });
});
