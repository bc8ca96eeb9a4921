import { describe, expect, it } from "vitest";
import { transformForModel } from "../../src/core/project/transform.ts";
import type { LlmMessage, ModelInfo } from "../../src/core/llm/types.ts";
import { referenceModel } from "../reference/pi.ts";

const model = referenceModel("anthropic", "claude-sonnet-4-5") as unknown as ModelInfo;
const assistant = (content: unknown[], stopReason = "toolUse", m = "gpt-5"): LlmMessage =>
  ({
    role: "assistant",
    content,
    api: "openai-responses",
    provider: "openai",
    model: m,
    stopReason,
    timestamp: 1,
  }) as LlmMessage;

describe("transformForModel", () => {
  it("synthesises a result for an orphaned tool call and drops an aborted turn", () => {
    const messages: LlmMessage[] = [
      { role: "user", content: "hi", timestamp: 1 },
      assistant([{ type: "toolCall", id: "a|b", name: "read", arguments: {} }]),
      assistant([{ type: "text", text: "partial" }], "aborted"),
      { role: "user", content: "again", timestamp: 2 },
    ];
    const result = transformForModel(messages, model, (id) => id.replace(/[^a-zA-Z0-9_-]/g, "_"));
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user"]);
    expect(result.from).toEqual([0, 1, undefined, 3]);
    expect(result.dropped).toEqual([{ index: 2, reason: "aborted turn" }]);
    expect(result.messages[2]).toMatchObject({ toolCallId: "a_b", content: [{ text: "No result provided" }] });
  });

  it("turns another model's thinking into text and drops empty thinking", () => {
    const messages: LlmMessage[] = [
      assistant(
        [
          { type: "thinking", thinking: "  " },
          { type: "thinking", thinking: "plan", thinkingSignature: "sig" },
          { type: "text", text: "done", textSignature: "x" },
        ],
        "stop",
      ),
    ];
    const result = transformForModel(messages, model);
    expect(result.messages[0]).toMatchObject({
      content: [
        { type: "text", text: "plan" },
        { type: "text", text: "done" },
      ],
    });
    expect(JSON.stringify(result.messages[0])).not.toContain("textSignature");
  });

  it("renames the results of a turn it transformed before, as the first time", () => {
    const normalize = (id: string) => id.replace(/[^a-zA-Z0-9_-]/g, "_");
    const messages: LlmMessage[] = [
      { role: "user", content: "hi", timestamp: 1 },
      assistant([{ type: "toolCall", id: "a|b", name: "read", arguments: {} }]),
      { role: "toolResult", toolCallId: "a|b", toolName: "read", content: [], isError: false, timestamp: 2 },
    ];
    const first = transformForModel(messages, model, normalize);
    const again = transformForModel(messages, model, normalize);
    expect(again.messages[1]).toBe(first.messages[1]);
    expect(again.messages[2]).toMatchObject({ toolCallId: "a_b" });
  });

  it("asks a normaliser made for another request afresh (a stateful one numbers ids per request)", () => {
    const numbering = () => {
      const seen = new Map<string, string>();
      return (id: string) => seen.get(id) ?? (seen.set(id, `n${seen.size}`), `n${seen.size - 1}`);
    };
    const turn = assistant([
      { type: "toolCall", id: "x", name: "read", arguments: {} },
      { type: "toolCall", id: "y", name: "read", arguments: {} },
    ]);
    const other = assistant([{ type: "toolCall", id: "y", name: "read", arguments: {} }]);
    transformForModel([turn], model, numbering());
    const result = transformForModel([other, turn], model, numbering());
    const turns = result.messages.filter((m) => m.role === "assistant");
    expect(turns[1]).toMatchObject({ content: [{ id: "n1" }, { id: "n0" }] });
  });
});
