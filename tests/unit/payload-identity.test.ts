/**
 * Unchanged parts of a projection come out as the very same objects when the session is projected again (another
 * leaf, another rule): the token counter remembers its counts per payload item, and the rules panel compares fates
 * by identity first, so a long session is not tokenised or stringified afresh for every view.
 */
import { describe, expect, it } from "vitest";
import { findModel } from "../../src/core/models/registry.ts";
import { projectLeaf, type ProjectionOptions } from "../../src/core/project/project.ts";
import {
  assistant,
  compaction,
  header,
  session,
  text,
  thinking,
  toolCall,
  toolResult,
  user,
} from "../support/build.ts";
import { ourSession } from "../support/ours.ts";

const tree = ourSession(
  session(
    header({ id: "identity" }),
    user("u1", null, "read both files"),
    assistant("a1", "u1", [toolCall("call_1", "read", { path: "a.ts" }), toolCall("call_2", "read", { path: "b.ts" })]),
    toolResult("r1", "a1", "call_1", "contents of a"),
    toolResult("r2", "r1", "call_2", "contents of b"),
    assistant("a2", "r2", "Both read."),
    user("u2", "a2", "now summarise"),
    assistant("a3", "u2", "Summary."),
    compaction("c1", "a3", "u2"),
    user("u3", "c1", "and then?"),
    assistant("a4", "u3", "Then this."),
    user("u4", "a4", "and after that?"),
    assistant("a5", "u4", "That."),
  ),
);

function body(model: string, options: ProjectionOptions = {}, leafId = "a5") {
  const [provider, ...id] = model.split("/");
  const result = projectLeaf(tree, tree.byId.get(leafId)!, { ...options, model: findModel(provider!, id.join("/"))! });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe.each([
  ["anthropic/claude-sonnet-4-5", "messages"],
  ["google/gemini-2.5-pro", "contents"],
  ["openai/gpt-5.1-codex", "input"],
])("%s", (model, listKey) => {
  it("makes the same item objects for an unchanged path under another rule, tool-result runs included", () => {
    const a = body(model, { applyCompaction: false }).payload.body[listKey] as unknown[];
    const b = body(model, { applyCompaction: false, truncateToolResults: 100_000 }).payload.body[listKey] as unknown[];
    expect(b).toHaveLength(a.length);
    // All but the last item (it may carry the request's cache marker, a copy) are the same objects.
    a.slice(0, -1).forEach((item, i) => expect(b[i]).toBe(item));
    // Anthropic and Gemini send the two results as one item (a run); Responses as one item each.
    const run = a.find((item) => JSON.stringify(item).includes("contents of b"));
    if (listKey !== "input") expect(JSON.stringify(run)).toContain("contents of a");
  });
});

it("gives entries a compaction summarised one fate object, whichever leaf they are seen from", () => {
  const atA4 = body("anthropic/claude-sonnet-4-5", {}, "a4").fates;
  const atA5 = body("anthropic/claude-sonnet-4-5", {}, "a5").fates;
  const u1 = tree.byId.get("u1")!;
  expect(atA4.get(u1)).toEqual({ kind: "summarised", compaction: tree.byId.get("c1") });
  expect(atA5.get(u1)).toBe(atA4.get(u1));
});

describe("a path projected for several models in turn", () => {
  // Turns of another model (a Responses model: paired call ids, which each API normalises its own way) with
  // thinking (other models get it as text): every target rewrites them differently.
  const codex = { api: "openai-responses", provider: "openai", model: "gpt-5.1-codex" } as const;
  const mixed = ourSession(
    session(
      header({ id: "targets" }),
      user("u1", null, "read it"),
      assistant("a1", "u1", [thinking("look first", "sig"), toolCall("call_1|fc_1", "read", { path: "a.ts" })], codex),
      toolResult("r1", "a1", "call_1|fc_1", "contents of a"),
      assistant("a2", "r1", [thinking("done"), text("Read.")], codex),
      user("u2", "a2", "and now?"),
    ),
  );
  const items = (model: string): unknown[] => {
    const [provider, ...id] = model.split("/");
    const result = projectLeaf(mixed, mixed.byId.get("u2")!, { model: findModel(provider!, id.join("/"))! });
    if (!result.ok) throw new Error(result.error);
    const body = result.value.payload.body;
    return (body["messages"] ?? body["contents"] ?? body["input"]) as unknown[];
  };

  it("keeps the Responses items of a turn's other blocks when a rule drops its thinking", () => {
    const gpt = findModel("openai", "gpt-4.1")!;
    const input = (dropThinking: boolean) => {
      const result = projectLeaf(mixed, mixed.byId.get("u2")!, { model: gpt, dropThinking });
      if (!result.ok) throw new Error(result.error);
      return result.value.payload.body["input"] as Record<string, unknown>[];
    };
    const kept = input(false);
    const dropped = input(true);
    expect(dropped.length).toBeLessThan(kept.length); // the thinking (as text) is gone
    const call = (items: Record<string, unknown>[]) => items.find((item) => item["type"] === "function_call");
    const answer = (items: Record<string, unknown>[]) => items.find((item) => JSON.stringify(item).includes("Read."));
    expect(call(dropped)).toBe(call(kept));
    expect(answer(dropped)).toBeDefined();
    expect(answer(dropped)).toBe(answer(kept));
  });

  it.each([
    [["anthropic/claude-sonnet-4-5", "google/gemini-2.5-pro", "openai/gpt-4.1"]],
    [["google/gemini-2.5-pro", "google/gemini-2.5-flash", "openai/gpt-4.1", "openai/gpt-5"]],
  ])("finds each model's items again after the others' (%j)", (models) => {
    const first = models.map(items);
    const again = models.map(items);
    models.forEach((_, k) => {
      // All but the last item (it may carry the request's cache marker, a copy) are the same objects.
      expect(again[k]!.length).toBe(first[k]!.length);
      first[k]!.slice(0, -1).forEach((item, i) => expect(again[k]![i], `${models[k]} item ${i}`).toBe(item));
    });
  });
});

it("names another model's text by its message number wherever it stands, and finds each place's items again", () => {
  // Anthropic's unsigned texts, sent to a Responses model, are named `msg_N` by their place in the request:
  // "Then this." is message 4 after the compaction's summary, message 8 with compaction off.
  const named = (options: ProjectionOptions) => {
    const input = body("openai/gpt-5.1-codex", options).payload.body["input"] as Record<string, unknown>[];
    return input.find((item) => JSON.stringify(item).includes("Then this."));
  };
  const on = named({});
  const off = named({ applyCompaction: false });
  expect(on?.["id"]).toBe("msg_4");
  expect(off?.["id"]).toBe("msg_8");
  expect(named({})).toBe(on);
  expect(named({ applyCompaction: false })).toBe(off);
});
