/**
 * fast-check arbitraries for whole pi sessions: random trees (parents among earlier entries), every entry type,
 * messages of every role from several providers, compactions pointing anywhere, labels, failed turns.
 */
import fc from "fast-check";

type Raw = Record<string, unknown>;

const MODELS = [
  { provider: "anthropic", model: "claude-sonnet-4-5", api: "anthropic-messages" },
  { provider: "openai", model: "gpt-5.1-codex", api: "openai-responses" },
  { provider: "xai", model: "grok-4", api: "openai-completions" },
  { provider: "google", model: "gemini-2.5-pro", api: "google-generative-ai" },
  { provider: "acme", model: "unknown-1", api: "openai-completions" },
] as const;

const word = fc.constantFrom(
  "read",
  "the",
  "file",
  "tests",
  "fail",
  "ok",
  "ünïcödé",
  "🧪",
  "\ud800",
  "",
  " ",
  "line\nbreak",
);
const textString = fc.array(word, { maxLength: 6 }).map((w) => w.join(" "));
const textBlock = textString.map((text) => ({ type: "text", text }));
const imageBlock = fc.constant({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
const userContent = fc.oneof(
  textString,
  fc.array(fc.oneof({ weight: 3, arbitrary: textBlock }, { weight: 1, arbitrary: imageBlock }), { maxLength: 3 }),
);
const toolId = fc.constantFrom("toolu_01", "toolu_02", "call_a|fc_1", "call_b|fc_2", "x".repeat(70));
const thinkingBlock = fc.record(
  {
    type: fc.constant("thinking"),
    thinking: textString,
    thinkingSignature: fc.option(fc.constantFrom("sig", '{"type":"reasoning","id":"rs_1","summary":[]}'), {
      nil: undefined,
    }),
  },
  { requiredKeys: ["type", "thinking"] },
);
const toolCallBlock = fc.record({
  type: fc.constant("toolCall"),
  id: toolId,
  name: fc.constantFrom("read", "bash"),
  arguments: fc.constant({ path: "a.ts" }),
});

const assistantMessage = fc
  .record({
    content: fc.array(fc.oneof(textBlock, thinkingBlock, toolCallBlock), { maxLength: 3 }),
    who: fc.constantFrom(...MODELS),
    stopReason: fc.constantFrom("stop", "toolUse", "length", "error", "aborted"),
  })
  .map(({ content, who, stopReason }) => ({
    role: "assistant",
    content,
    api: who.api,
    provider: who.provider,
    model: who.model,
    stopReason,
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
    timestamp: 1,
  }));

const message = fc.oneof(
  { weight: 4, arbitrary: userContent.map((content) => ({ role: "user", content, timestamp: 1 })) },
  { weight: 4, arbitrary: assistantMessage },
  {
    weight: 3,
    arbitrary: fc
      .record({
        toolCallId: toolId,
        content: fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 2 }),
        isError: fc.boolean(),
      })
      .map((m) => ({ role: "toolResult", toolName: "read", timestamp: 1, ...m })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        command: textString,
        output: textString,
        exitCode: fc.constantFrom(0, 1, undefined),
        cancelled: fc.boolean(),
        truncated: fc.boolean(),
        excludeFromContext: fc.boolean(),
      })
      .map((m) => ({ role: "bashExecution", timestamp: 1, fullOutputPath: "/tmp/out", ...m })),
  },
  {
    weight: 1,
    arbitrary: userContent.map((content) => ({
      role: "custom",
      customType: "ext",
      content,
      display: true,
      timestamp: 1,
    })),
  },
);

/** One entry's body, before id/parentId are assigned. */
const body: fc.Arbitrary<(ids: readonly string[]) => Raw> = fc.oneof(
  { weight: 10, arbitrary: message.map((m) => () => ({ type: "message", message: m })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(...MODELS)
      .map((m) => () => ({ type: "model_change", provider: m.provider, modelId: m.model })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("off", "minimal", "low", "medium", "high", "xhigh")
      .map((l) => () => ({ type: "thinking_level_change", thinkingLevel: l })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(), textString).map(([n, s]) => (ids: readonly string[]) => ({
      type: "compaction",
      summary: s || "sum",
      firstKeptEntryId: ids[n % (ids.length + 1)] ?? "missing",
      tokensBefore: 100,
    })),
  },
  { weight: 1, arbitrary: textString.map((s) => () => ({ type: "branch_summary", fromId: "x", summary: s })) },
  {
    weight: 1,
    arbitrary: userContent.map((c) => () => ({
      type: "custom_message",
      customType: "note",
      content: c,
      display: true,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.nat().map((n) => (ids: readonly string[]) => ({
      type: "label",
      targetId: ids[n % (ids.length + 1)] ?? "x",
      label: n % 3 ? "L" : undefined,
    })),
  },
  { weight: 1, arbitrary: fc.constant(() => ({ type: "custom", customType: "ext", data: {} })) },
);

/** A session file's text: header plus entries whose parents are earlier entries (mostly the previous one). */
export const sessionText = fc
  .array(fc.tuple(body, fc.nat({ max: 9 }), fc.nat()), { minLength: 1, maxLength: 25 })
  .map((specs) => {
    const ids: string[] = [];
    const lines = [
      JSON.stringify({ type: "session", version: 3, id: "prop-sess", timestamp: "2026-01-01T00:00:00Z", cwd: "/p" }),
    ];
    specs.forEach(([make, branchRoll, pick], i) => {
      const parent =
        ids.length === 0
          ? null
          : branchRoll < 7
            ? ids[ids.length - 1]!
            : branchRoll < 9
              ? ids[pick % ids.length]!
              : null;
      const id = `e${i}`;
      lines.push(
        JSON.stringify({
          ...make(ids),
          id,
          parentId: parent,
          timestamp: `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z`,
        }),
      );
      ids.push(id);
    });
    return `${lines.join("\n")}\n`;
  });
