/**
 * Input no pi runtime writes, handled with a message that says what and where: values nested too deep to write
 * again, a builder failing on one message, parent cycles in the CLI outline, a file of blank lines.
 */
import { describe, expect, it } from "vitest";
import { outline } from "../../src/cli/tree.ts";
import { findModel } from "../../src/core/models/registry.ts";
import { projectLeaf } from "../../src/core/project/project.ts";
import { parsePresets } from "../../src/core/project/presets.ts";
import { loadSessionText } from "../../src/core/session/load.ts";
import { formatFullJson, formatRawJson } from "../../src/ui/inspector/raw-json.ts";
import { HANGS_PI } from "../fixtures/variants.ts";
import { assistant, compaction, header, session, thinking, toolCall, toolResult, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** An assistant turn whose tool call's `deep` argument nests `depth` arrays (written by hand: JSON cannot). */
function deepCall(id: string, parentId: string, depth: number): string {
  return JSON.stringify(assistant(id, parentId, [toolCall("toolu_9", "read", { deep: "DEEP" })])).replace(
    '"DEEP"',
    nested(depth),
  );
}

const deepSession = session(
  header(),
  user("u1", null, "hi"),
  assistant("a1", "u1", "hello"),
  deepCall("a2", "a1", 12_000),
  toolResult("r2", "a2", "toolu_9", "done"),
  user("u3", "r2", "and now?"),
);

const sonnet = findModel("anthropic", "claude-sonnet-4-5")!;
const codex = findModel("openai", "gpt-5.1-codex")!;

describe("values nested too deep to write", () => {
  it("are read as pi reads them, with a warning that names the line and the place", () => {
    const file = loadSessionText("deep.jsonl", deepSession);
    expect(file.entries).toHaveLength(5);
    const warning = file.diagnostics.find((d) => d.code === "nested-too-deep");
    expect(warning).toMatchObject({ severity: "warning", line: 4 });
    expect(warning?.message).toContain("more than 1,000 levels deep (at message.content[0].arguments.deep[0]…)");
  });

  it("give no payload on a path whose context holds them, and leave the paths before them alone", () => {
    const tree = ourSession(deepSession, "deep.jsonl");
    const after = projectLeaf(tree, tree.byId.get("u3")!, { model: sonnet });
    expect(after.ok).toBe(false);
    if (!after.ok) expect(after.error).toMatch(/^line 4 of deep\.jsonl nests values more than 1,000 levels deep/);
    expect(projectLeaf(tree, tree.byId.get("a1")!, { model: sonnet }).ok).toBe(true);
  });

  it("do not stop a path where a compaction summarised them away", () => {
    const text = session(
      header(),
      user("u1", null, "hi"),
      deepCall("a1", "u1", 2_000),
      toolResult("r1", "a1", "toolu_9", "done"),
      user("u2", "r1", "next"),
      compaction("c1", "u2", "u2"),
      user("u3", "c1", "go on"),
    );
    const tree = ourSession(text);
    expect(projectLeaf(tree, tree.byId.get("u3")!, { model: sonnet }).ok).toBe(true);
    expect(projectLeaf(tree, tree.byId.get("u2")!, { model: sonnet }).ok).toBe(false);
  });

  it("are left alone up to the limit: a line nesting 995 levels is projected", () => {
    const text = session(header(), user("u1", null, "hi"), deepCall("a1", "u1", 990));
    const tree = ourSession(text);
    expect(tree.file.diagnostics.some((d) => d.code === "nested-too-deep")).toBe(false);
    const projection = projectLeaf(tree, tree.byId.get("a1")!, { model: sonnet });
    expect(projection.ok).toBe(true);
    if (projection.ok) expect(() => JSON.stringify(projection.value.payload.body)).not.toThrow();
  });

  it("are not shown as JSON in the inspector", () => {
    const raw = JSON.parse(`{"deep":${nested(12_000)}}`) as unknown;
    for (const format of [formatRawJson, formatFullJson])
      expect(format(raw)).toBe(
        "(not shown: nests arrays or objects more than 1,000 levels deep, at deep[0][0][0][0][0]…)",
      );
    expect(formatRawJson({ shallow: [[1]] })).toContain('"shallow"');
  });

  it("in a thinking signature refuse the request that would replay it", () => {
    const signature = `{"type":"reasoning","id":"rs_1","summary":${nested(3_000)}}`;
    const text = session(
      header(),
      user("u1", null, "hi"),
      assistant("a1", "u1", [thinking("hm", signature), { type: "text", text: "ok" }], {
        api: "openai-responses",
        provider: "openai",
        model: "gpt-5.1-codex",
      }),
      user("u2", "a1", "more"),
    );
    const tree = ourSession(text);
    const result = projectLeaf(tree, tree.byId.get("u2")!, { model: codex });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatch(/signature .*more than 1,000 levels deep.*; it fails at line 3 of test\.jsonl$/);
  });

  it("in a preset or tool list are refused with where", () => {
    const presets = parsePresets(`{"format":"context-lens/preset","name":"x","settings":{"tools":${nested(1_500)}}}`);
    expect(presets.ok).toBe(false);
    if (!presets.ok)
      expect(presets.error).toMatch(/^the preset file cannot be used \(it nests .* at settings\.tools\[0\]/);
  });
});

describe("a request pi cannot build", () => {
  it("names the line of the first message it fails on", () => {
    const text = session(
      header(),
      user("u1", null, "hi"),
      assistant("a1", "u1", "fine"),
      user("u2", "a1", "call a tool"),
      assistant("a2", "u2", [{ type: "toolCall", id: 42, name: "read", arguments: {} }]),
      toolResult("r2", "a2", "42", "done"),
      user("u3", "r2", "thanks"),
    );
    const tree = ourSession(text);
    const result = projectLeaf(tree, tree.byId.get("u3")!, { model: codex });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatch(/^pi could not build this request .*; it fails at line 5 of test\.jsonl$/);
  });
});

describe("the CLI outline", () => {
  it("lists entries no root leads to under a heading of their own, each once", () => {
    const tree = ourSession(HANGS_PI["cycle"]!);
    const lines = outline(tree);
    expect(lines).toHaveLength(tree.entries.length + 1);
    expect(lines).toContain("3 entries no root leads to, in or below a parent cycle:");
    expect(lines.filter((l) => l.startsWith("↻ "))).toHaveLength(1);
    for (const id of ["u1", "a1", "u3", "u4", "a4"]) expect(lines.filter((l) => l.includes(`${id} L`))).toHaveLength(1);
  });
});

describe("a file of blank lines", () => {
  it("is called empty, not pretty-printed JSON", () => {
    const file = loadSessionText("blank.jsonl", "\n\n   \n\t\n");
    expect(file.kind).toBe("empty");
    expect(file.diagnostics[0]?.message).toBe(
      "The file holds only blank lines: there is no session header and no entries.",
    );
  });
});
