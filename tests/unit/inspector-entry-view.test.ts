import { describe, expect, it } from "vitest";
import {
  entryKindName,
  entryText,
  formatCost,
  toEntryView,
  type EntryView,
} from "../../src/ui/inspector/entry-view.ts";
import {
  assistant,
  bash,
  branchSummary,
  compaction,
  customMessage,
  entry,
  image,
  label,
  modelChange,
  text,
  thinking,
  thinkingChange,
  toolCall,
  toolResult,
  user,
} from "../support/build.ts";

type Raw = Record<string, unknown>;
const viewOf = (raw: Raw): EntryView => toEntryView(raw["type"] as string, raw);

describe("toEntryView", () => {
  it("reads an assistant message: blocks, model, usage and cost", () => {
    const raw = assistant("a1", "u1", [thinking("hmm"), text("hi"), toolCall("c1", "bash", { command: "ls" })], {
      stopReason: "error",
      usage: { input: 1200, output: 30, cacheRead: 0, cacheWrite: 5, totalTokens: 1235, cost: { total: 0.01234 } },
    });
    (raw["message"] as Raw)["errorMessage"] = "overloaded";
    const view = viewOf(raw);
    expect(view).toMatchObject({
      kind: "assistant",
      content: [
        { kind: "thinking", thinking: "hmm", redacted: false },
        { kind: "text", text: "hi" },
        { kind: "toolCall", id: "c1", name: "bash", arguments: { command: "ls" } },
      ],
      model: [
        { label: "Provider", value: "anthropic" },
        { label: "Model", value: "claude-sonnet-4-5" },
        { label: "API", value: "anthropic-messages" },
      ],
      stopReason: "error",
      errorMessage: "overloaded",
      usage: [
        { label: "Input", value: "1,200" },
        { label: "Output", value: "30" },
        { label: "Cache read", value: "0" },
        { label: "Cache write", value: "5" },
        { label: "Total tokens", value: "1,235" },
      ],
      cost: "$0.0123",
    });
    expect(entryKindName("message", raw)).toBe("assistant");
    expect(entryText(view)).toBe("hi");
  });

  it("has no cost when none is recorded", () => {
    const view = viewOf(assistant("a1", null, "x", { usage: { input: 1, output: 2 } }));
    expect(view).toMatchObject({ kind: "assistant", cost: undefined, usage: [{ value: "1" }, { value: "2" }] });
  });

  it("reads user content given as a string or as blocks", () => {
    expect(viewOf(user("u1", null, "hello"))).toEqual({ kind: "user", content: [{ kind: "text", text: "hello" }] });
    expect(viewOf(user("u1", null, [text("see"), image("AAAA", "image/jpeg")]))).toEqual({
      kind: "user",
      content: [
        { kind: "text", text: "see" },
        { kind: "image", mimeType: "image/jpeg", data: "AAAA" },
      ],
    });
  });

  it("keeps blocks it does not know as unknown", () => {
    const view = viewOf(user("u1", null, [{ type: "audio", data: "x" }, 7]));
    expect(view).toMatchObject({ content: [{ kind: "unknown" }, { kind: "unknown", value: 7 }] });
  });

  it("reads tool results, bash executions and custom messages", () => {
    expect(viewOf(toolResult("r1", "a1", "c1", "boom", true))).toMatchObject({
      kind: "toolResult",
      toolName: "read",
      toolCallId: "c1",
      isError: true,
    });
    const run = viewOf(bash("b1", null, "ls", "a\nb", { exitCode: 2, truncated: true, excludeFromContext: true }));
    expect(run).toEqual({
      kind: "bashExecution",
      command: "ls",
      output: "a\nb",
      facts: [{ label: "Exit code", value: "2" }],
      excludeFromContext: true,
      fullOutputPath: "not recorded",
    });
    expect(entryText(run)).toBe("$ ls\na\nb");
    expect(viewOf(customMessage("m1", null, "note", "extension note", false))).toEqual({
      kind: "custom",
      facts: [
        { label: "Custom type", value: "note" },
        { label: "Display", value: "false" },
      ],
      content: [{ kind: "text", text: "extension note" }],
      data: undefined,
    });
  });

  it("reads summaries and settings entries", () => {
    expect(viewOf(compaction("k1", null, "u1", "We read it."))).toEqual({
      kind: "summary",
      summary: "We read it.",
      facts: [
        { label: "Tokens before", value: "12345" },
        { label: "First kept entry", value: "u1" },
      ],
    });
    expect(viewOf(branchSummary("s1", null, "a9"))).toMatchObject({
      kind: "summary",
      facts: [{ label: "From", value: "a9" }],
    });
    expect(viewOf(modelChange("m1", null, "openai", "gpt-5"))).toEqual({
      kind: "facts",
      facts: [
        { label: "Provider", value: "openai" },
        { label: "Model", value: "gpt-5" },
      ],
    });
    expect(viewOf(thinkingChange("t1", null, "high"))).toEqual({
      kind: "facts",
      facts: [{ label: "Thinking level", value: "high" }],
    });
    expect(viewOf(label("l1", null, "u1", undefined))).toEqual({
      kind: "facts",
      facts: [
        { label: "Target", value: "u1" },
        { label: "Label", value: "(cleared)" },
      ],
    });
    expect(viewOf(entry("custom", "c1", null, { customType: "todo", data: { n: 1 } }))).toMatchObject({
      kind: "custom",
      data: { n: 1 },
    });
  });

  it("falls back to generic for unknown types, unknown roles and malformed messages", () => {
    expect(viewOf(entry("future_thing", "f1", null))).toEqual({ kind: "generic" });
    expect(viewOf(entry("message", "x1", null, { message: { role: "system" } }))).toEqual({ kind: "generic" });
    expect(viewOf(entry("message", "x1", null, { message: "not an object" }))).toEqual({ kind: "generic" });
    expect(viewOf(entry("message", "x1", null, { message: { role: "assistant" } }))).toMatchObject({
      kind: "assistant",
      content: [],
      usage: [],
    });
  });
});

describe("formatCost", () => {
  it("shows cents from a dollar and four decimals below", () => {
    expect(formatCost(0)).toBe("$0.00");
    expect(formatCost(0.00421)).toBe("$0.0042");
    expect(formatCost(12.3456)).toBe("$12.35");
  });
});
