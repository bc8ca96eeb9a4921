/** The validator: what a provider would reject or what looks wrong, each finding linked to its entry. */
import { describe, expect, it } from "vitest";
import { findModel } from "../../src/core/models/registry.ts";
import { projectLeaf } from "../../src/core/project/project.ts";
import { PI_DEFAULTS, projectionOptions, type RuleSettings } from "../../src/core/project/rules.ts";
import { validateProjection, type Finding } from "../../src/core/project/validate.ts";
import { assistant, header, image, session, text, toolCall, toolResult, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";

function findings(
  jsonl: string,
  model = "anthropic/claude-sonnet-4-5",
  settings: Partial<RuleSettings> = {},
  promptTokens?: number,
) {
  const tree = ourSession(jsonl);
  const [provider, ...id] = model.split("/");
  const options = projectionOptions({ ...PI_DEFAULTS, ...settings });
  const result = projectLeaf(tree, tree.defaultLeaf!, { ...options, model: findModel(provider!, id.join("/"))! });
  if (!result.ok) throw new Error(result.error);
  return validateProjection(result.value, {
    ...(options.transform ? { transform: options.transform } : {}),
    ...(promptTokens !== undefined ? { promptTokens } : {}),
  }).map((f: Finding) => ({ code: f.code, severity: f.severity, entries: f.entries.map((i) => tree.entries[i]!.id) }));
}

describe("validateProjection", () => {
  it("a clean session has no findings", () => {
    const clean = session(
      header(),
      user("u1", null),
      assistant("a1", "u1", [toolCall("c1")]),
      toolResult("r1", "a1", "c1"),
      assistant("a2", "r1"),
    );
    expect(findings(clean)).toEqual([]);
  });

  it("a tool call without a result: a warning (pi-ai fills it in), an error when synthetic results are off", () => {
    const s = session(header(), user("u1", null), assistant("a1", "u1", [toolCall("c1")]), user("u2", "a1", "next"));
    expect(findings(s)).toEqual([{ code: "tool-call-without-result", severity: "warning", entries: ["a1"] }]);
    expect(findings(s, undefined, { synthesizeMissingResults: false })).toEqual([
      { code: "tool-call-without-result", severity: "error", entries: ["a1"] },
    ]);
  });

  it("a tool call without a result whose id is not a string (pi writes none) is still reported", () => {
    const odd = { type: "toolCall", id: { toString: 1 }, name: "read", arguments: {} };
    const s = session(header(), user("u1", null), assistant("a1", "u1", [odd]), user("u2", "a1", "next"));
    expect(findings(s)).toEqual([{ code: "tool-call-without-result", severity: "warning", entries: ["a1"] }]);
  });

  it("a tool result without a call, including one whose call was in a dropped aborted turn", () => {
    const orphan = session(header(), user("u1", null), toolResult("r1", "u1", "nobody"));
    expect(findings(orphan)).toEqual([{ code: "tool-result-without-call", severity: "error", entries: ["r1"] }]);
    const aborted = session(
      header(),
      user("u1", null),
      assistant("a1", "u1", [toolCall("c1")], { stopReason: "aborted" }),
      toolResult("r1", "a1", "c1"),
    );
    expect(findings(aborted)).toEqual([{ code: "tool-result-without-call", severity: "error", entries: ["r1"] }]);
    expect(findings(aborted, undefined, { dropFailedTurns: false })).toEqual([]);
  });

  it("an image to a text-only model", () => {
    const s = session(header(), user("u1", null, [text("look"), image()]));
    expect(findings(s, "anthropic/claude-sonnet-4-5")).toEqual([]);
    const textOnly = "cerebras/gpt-oss-120b";
    expect(findModel("cerebras", "gpt-oss-120b")?.input).toEqual(["text"]);
    expect(findings(s, textOnly)).toEqual([{ code: "image-to-text-only-model", severity: "warning", entries: ["u1"] }]);
  });

  it("empty messages, duplicate tool-call ids, and a payload over the context window", () => {
    const s = session(
      header(),
      user("u1", null, ""),
      assistant("a1", "u1", [toolCall("same")]),
      toolResult("r1", "a1", "same"),
      assistant("a2", "r1", [toolCall("same")]),
      toolResult("r2", "a2", "same"),
    );
    expect(findings(s, undefined, {}, 10_000_000)).toEqual([
      { code: "empty-message", severity: "warning", entries: ["u1"] },
      { code: "duplicate-tool-call-id", severity: "warning", entries: ["a2", "a1"] },
      { code: "context-window", severity: "error", entries: ["r2"] },
    ]);
  });
});

describe("contextWindowFinding", () => {
  it("reports a prompt over the window, and nothing at or under it", async () => {
    const { contextWindowFinding } = await import("../../src/core/project/validate.ts");
    const model = findModel("anthropic", "claude-sonnet-4-5")!;
    expect(contextWindowFinding(model, 7, model.contextWindow)).toBeUndefined();
    expect(contextWindowFinding(model, 7, model.contextWindow + 1)).toMatchObject({
      severity: "error",
      code: "context-window",
      entries: [7],
    });
  });
});
