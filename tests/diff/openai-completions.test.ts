/**
 * Differential tests: `buildOpenAICompletionsPayload` against the body pi-ai 0.73.1 itself hands to `onPayload`
 * for every openai-completions model, targeted edge cases on a panel of models and compat variants,
 * and a fast-check property over random conversations.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Api, Context, Model } from "@mariozechner/pi-ai";
import { buildOpenAICompletionsPayload } from "../../src/core/providers/openai-completions.ts";
import {
  PayloadError,
  type AssistantMessage,
  type CacheRetention,
  type ImageContent,
  type LlmMessage,
  type ModelInfo,
  type PayloadRequest,
  type ThinkingLevel,
  type ToolDefinition,
  type ToolResultMessage,
} from "../../src/core/llm/types.ts";
import { allReferenceModels, referencePayload } from "../reference/pi.ts";

// pi-ai reads these from the environment; the browser has none, so the reference must not see them either.
for (const name of ["PI_CACHE_RETENTION", "CLOUDFLARE_ACCOUNT_ID", "CLOUDFLARE_GATEWAY_ID"]) delete process.env[name];

const COMPLETIONS_MODELS: readonly ModelInfo[] = allReferenceModels().filter(
  (m) => m.api === "openai-completions",
) as unknown as ModelInfo[];
const THINKING: readonly (ThinkingLevel | undefined)[] = [undefined, "minimal", "low", "medium", "high", "xhigh"];
const RETENTION: readonly (CacheRetention | undefined)[] = [undefined, "none", "short", "long"];

// ---------- builders ----------

const IMAGE: ImageContent = { type: "image", data: "aW1n", mimeType: "image/png" };
const TOOLS: readonly ToolDefinition[] = [
  {
    name: "read",
    description: "Read a file",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  {
    name: "bash",
    description: "Run a command",
    parameters: { type: "object", properties: { command: { type: "string" } } },
  },
];
const user = (content: string | (LlmMessage & { role: "user" })["content"]): LlmMessage => ({
  role: "user",
  content,
  timestamp: 1,
});
const from = (model: ModelInfo) => ({ api: model.api, provider: model.provider, model: model.id });
const OTHER = { api: "openai-responses", provider: "openai", model: "gpt-5" };
const assistant = (
  source: { api: string; provider: string; model: string },
  content: AssistantMessage["content"],
  stopReason: AssistantMessage["stopReason"] = "stop",
): LlmMessage => ({ role: "assistant", content, ...source, stopReason, timestamp: 2 });
const call = (id: string, name = "read", extra: { thoughtSignature?: string } = {}) =>
  ({ type: "toolCall", id, name, arguments: { path: "a.ts" }, ...extra }) as const;
const result = (
  toolCallId: string,
  content: ToolResultMessage["content"],
  isError = false,
  toolName = "read",
): LlmMessage => ({
  role: "toolResult",
  toolCallId,
  toolName,
  content,
  isError,
  timestamp: 3,
});

/** pi-ai's body as it goes over the wire (undefined fields dropped), or its error. */
async function reference(model: ModelInfo, request: PayloadRequest): Promise<{ payload: unknown } | { error: string }> {
  const context = {
    systemPrompt: request.systemPrompt,
    messages: request.messages,
    tools: request.tools,
  } as unknown as Context;
  const options = {
    reasoning: request.reasoning,
    sessionId: request.sessionId,
    cacheRetention: request.cacheRetention,
  };
  const outcome = await referencePayload(model as unknown as Model<Api>, context, options);
  return "payload" in outcome ? { payload: JSON.parse(JSON.stringify(outcome.payload)) as unknown } : outcome;
}

async function expectSameAsPi(model: ModelInfo, request: PayloadRequest): Promise<void> {
  const expected = await reference(model, request);
  if ("error" in expected) {
    expect(() => buildOpenAICompletionsPayload(model, request), expected.error).toThrow(PayloadError);
    return;
  }
  const ours = buildOpenAICompletionsPayload(model, request);
  expect(ours.body).toStrictEqual(expected.payload);
  expect(ours.listKey).toBe("messages");
  expect(ours.origins).toHaveLength((ours.body["messages"] as unknown[]).length);
  for (const origin of ours.origins) for (const index of origin) expect(index).toBeLessThan(request.messages.length);
}

/** A conversation touching most of the mapping: own thinking, foreign tool ids, images in results, errors. */
function representativeConversation(model: ModelInfo): LlmMessage[] {
  return [
    user("Fix the bug in a.ts"),
    assistant(
      from(model),
      [
        { type: "thinking", thinking: "Look at the file first.", thinkingSignature: "reasoning_content" },
        { type: "text", text: "Reading it." },
        call("call_own_1"),
      ],
      "toolUse",
    ),
    result("call_own_1", [{ type: "text", text: "export const a = 1;" }]),
    user([{ type: "text", text: "Here is a screenshot" }, IMAGE]),
    assistant(
      OTHER,
      [
        { type: "thinking", thinking: "Foreign plan", thinkingSignature: '{"encrypted":true}' },
        call("call_abc|fc_" + "x+/=".repeat(30)),
        call("call_" + "y".repeat(60), "bash"),
      ],
      "toolUse",
    ),
    result("call_abc|fc_" + "x+/=".repeat(30), [{ type: "text", text: "ok" }, IMAGE]),
    result("call_" + "y".repeat(60), [{ type: "text", text: "command failed" }], true, "bash"),
    user("Thanks 🙂"),
    assistant(from(model), [{ type: "text", text: "Done." }]),
  ];
}

// ---------- every model ----------

describe("every openai-completions model in pi-ai's registry", () => {
  it("has models", () => expect(COMPLETIONS_MODELS.length).toBeGreaterThan(100));

  it.each(COMPLETIONS_MODELS.map((m) => [`${m.provider}/${m.id}`, m] as const))(
    "%s: every thinking level × cache retention, with and without system prompt and tools",
    async (_name, model) => {
      const messages = representativeConversation(model);
      let variant = 0;
      for (const reasoning of THINKING) {
        for (const cacheRetention of RETENTION) {
          const withSystem = variant % 2 === 0;
          const withTools = Math.floor(variant / 2) % 2 === 0;
          variant += 1;
          await expectSameAsPi(model, {
            messages,
            reasoning,
            cacheRetention,
            sessionId: variant % 3 === 0 ? undefined : "session-1",
            ...(withSystem ? { systemPrompt: "You are pi." } : {}),
            ...(withTools ? { tools: TOOLS } : {}),
          });
        }
      }
    },
  );
});

// ---------- targeted cases on a panel of models ----------

const find = (predicate: (m: ModelInfo) => boolean): ModelInfo => {
  const model = COMPLETIONS_MODELS.find(predicate);
  if (!model) throw new Error("no such model in the registry");
  return model;
};
const openRouterClaude = find((m) => m.provider === "openrouter" && m.id === "anthropic/claude-sonnet-4.5");
const groqReasoning = find((m) => m.provider === "groq" && m.reasoning);
const visionModel = find((m) => m.provider === "xai" && m.input.includes("image"));
const textOnlyModel = find((m) => m.provider === "cerebras" && !m.input.includes("image"));

/** Registry models: per provider the first reasoning, non-reasoning and vision model, plus special cases. */
function registryPanel(): ModelInfo[] {
  const picked = new Map<string, ModelInfo>();
  for (const m of COMPLETIONS_MODELS) {
    for (const key of [`${m.provider}:r${m.reasoning}`, `${m.provider}:i${m.input.includes("image")}`]) {
      if (!picked.has(key)) picked.set(key, m);
    }
  }
  const special = COMPLETIONS_MODELS.filter(
    (m) => m.compat?.["thinkingFormat"] === "deepseek" || m.thinkingLevelMap !== undefined,
  );
  return [...new Set([...picked.values(), ...special, openRouterClaude])];
}

const variant = (base: ModelInfo, changes: Partial<ModelInfo>): ModelInfo => ({ ...base, ...changes });
/** Models built from registry ones to reach compat settings and URLs no registry model uses. */
const SYNTHETIC: readonly ModelInfo[] = [
  variant(visionModel, { compat: { requiresToolResultName: true, requiresAssistantAfterToolResult: true } }),
  variant(groqReasoning, { compat: { requiresThinkingAsText: true }, input: ["text", "image"] }),
  variant(groqReasoning, { compat: { requiresThinkingAsText: true, requiresAssistantAfterToolResult: true } }),
  variant(groqReasoning, { compat: { thinkingFormat: "qwen" } }),
  variant(groqReasoning, { compat: { thinkingFormat: "qwen-chat-template", supportsUsageInStreaming: false } }),
  variant(groqReasoning, {
    compat: { thinkingFormat: "something-new" },
    thinkingLevelMap: { off: "none", xhigh: "max" },
  }),
  variant(groqReasoning, {
    compat: { supportsReasoningEffort: false, supportsStrictMode: false, maxTokensField: "max_tokens" },
  }),
  variant(openRouterClaude, {
    compat: { openRouterRouting: { order: ["anthropic"], allow_fallbacks: false } },
    thinkingLevelMap: { off: null },
  }),
  variant(openRouterClaude, { compat: { supportsLongCacheRetention: false } }),
  variant(groqReasoning, { compat: { cacheControlFormat: "anthropic", requiresThinkingAsText: true } }),
  variant(groqReasoning, {
    provider: "vercel-ai-gateway",
    baseUrl: "https://ai-gateway.vercel.sh/v1",
    compat: { vercelGatewayRouting: { only: ["a"], order: ["b"] } },
  }),
  variant(groqReasoning, {
    provider: "vercel-ai-gateway",
    baseUrl: "https://ai-gateway.vercel.sh/v1",
    compat: { vercelGatewayRouting: {} },
  }),
  variant(groqReasoning, {
    provider: "openai",
    baseUrl: "https://api.openai.com/v1",
    thinkingLevelMap: { off: "none" },
  }),
  variant(textOnlyModel, { provider: "custom", baseUrl: "https://llm.chutes.ai/v1", maxTokens: 0 }),
  variant(groqReasoning, { provider: "custom", baseUrl: "https://api.deepseek.com/v1" }),
  variant(groqReasoning, {
    provider: "custom",
    baseUrl: "https://api.z.ai/api/paas/v4",
    compat: { zaiToolStream: true },
  }),
  variant(groqReasoning, { provider: "custom", baseUrl: "https://api.moonshot.cn/v1" }),
  variant(groqReasoning, {
    provider: "cloudflare-ai-gateway",
    baseUrl: "https://gateway.ai.cloudflare.com/v1/acct/gw/compat",
  }),
  variant(groqReasoning, {
    provider: "cloudflare-workers-ai",
    baseUrl: "https://api.cloudflare.com/client/v4/accounts/acct/ai/v1",
  }),
  variant(groqReasoning, {
    provider: "custom",
    baseUrl: "https://openrouter.ai/api/v1",
    compat: { openRouterRouting: { only: ["x"] } },
  }),
];
const PANEL: readonly ModelInfo[] = [...registryPanel(), ...SYNTHETIC];

const LONG_ID = "toolu_" + "z".repeat(80);
const PIPE_ID = "call_9f|fc_0123456789abcdef+/=" + "q".repeat(400);

/** Each case: a name and the messages for a given model (some need the model to make "same model" turns). */
const CASES: readonly (readonly [string, (model: ModelInfo) => LlmMessage[]])[] = [
  ["string user content", () => [user("hello")]],
  ["empty string user content", () => [user("")]],
  [
    "array user content with images",
    () => [user([{ type: "text", text: "a" }, IMAGE, IMAGE, { type: "text", text: "b" }])],
  ],
  ["image-only user content", () => [user([IMAGE])]],
  ["empty user content list", () => [user([]), user("after")]],
  [
    "tool calls from the same model",
    (m) => [
      user("go"),
      assistant(from(m), [call("c1"), call("c2", "bash")], "toolUse"),
      result("c1", [{ type: "text", text: "1" }]),
      result("c2", [{ type: "text", text: "2" }], false, "bash"),
    ],
  ],
  [
    "tool calls from another model with | and long ids",
    () => [
      user("go"),
      assistant(OTHER, [call(PIPE_ID), call(LONG_ID)], "toolUse"),
      result(PIPE_ID, [{ type: "text", text: "r1" }]),
      result(LONG_ID, [{ type: "text", text: "r2" }]),
    ],
  ],
  [
    "same-model tool call with a | id keeps it",
    (m) => [user("go"), assistant(from(m), [call(PIPE_ID)], "toolUse"), result(PIPE_ID, [{ type: "text", text: "r" }])],
  ],
  [
    "tool results: error, image only, mixed, empty",
    (m) => [
      user("go"),
      assistant(from(m), [call("a"), call("b"), call("c"), call("d")], "toolUse"),
      result("a", [{ type: "text", text: "boom" }], true),
      result("b", [IMAGE]),
      result("c", [{ type: "text", text: "x" }, IMAGE, { type: "text", text: "y" }]),
      result("d", []),
    ],
  ],
  [
    "consecutive tool results then a user message",
    (m) => [
      user("go"),
      assistant(from(m), [call("a"), call("b")], "toolUse"),
      result("a", [{ type: "text", text: "1" }]),
      result("b", [{ type: "text", text: "2" }]),
      user("next"),
      assistant(from(m), [{ type: "text", text: "ok" }]),
    ],
  ],
  [
    "image tool result then a user message",
    (m) => [user("go"), assistant(from(m), [call("a")], "toolUse"), result("a", [IMAGE]), user("what do you see?")],
  ],
  [
    "tool results then an empty user list then a user",
    (m) => [
      user("go"),
      assistant(from(m), [call("a")], "toolUse"),
      result("a", [{ type: "text", text: "1" }]),
      user([]),
      user("next"),
    ],
  ],
  [
    "thinking with signatures",
    (m) => [
      user("q"),
      assistant(from(m), [
        { type: "thinking", thinking: "one", thinkingSignature: "reasoning" },
        { type: "thinking", thinking: "two", thinkingSignature: "reasoning_content" },
        { type: "text", text: "A" },
      ]),
      user("q2"),
      assistant(from(m), [
        { type: "thinking", thinking: "   ", thinkingSignature: "reasoning_text" },
        { type: "thinking", thinking: "three", thinkingSignature: "reasoning_text" },
      ]),
      user("q3"),
      assistant(from(m), [
        { type: "thinking", thinking: "", thinkingSignature: "reasoning_content" },
        { type: "thinking", thinking: "secret", redacted: true },
        { type: "text", text: "B" },
      ]),
      user("q4"),
      assistant(from(m), [
        { type: "thinking", thinking: "unsigned" },
        { type: "text", text: "C" },
        { type: "text", text: " " },
        { type: "text", text: "D" },
      ]),
    ],
  ],
  [
    "thinking from another model",
    () => [
      user("q"),
      assistant(OTHER, [
        { type: "thinking", thinking: "theirs", thinkingSignature: "rs_1" },
        { type: "text", text: "ans", textSignature: "t" },
      ]),
    ],
  ],
  [
    "thinking only, no text",
    (m) => [
      user("q"),
      assistant(from(m), [{ type: "thinking", thinking: "hmm", thinkingSignature: "reasoning_content" }]),
      user("again"),
    ],
  ],
  [
    "reasoning_details on tool calls",
    (m) => [
      user("q"),
      assistant(
        from(m),
        [
          call("a", "read", {
            thoughtSignature: JSON.stringify({ type: "reasoning.encrypted", id: "a", data: "enc" }),
          }),
          call("b", "read", { thoughtSignature: "not json" }),
          call("c", "read", { thoughtSignature: "0" }),
        ],
        "toolUse",
      ),
      result("a", [{ type: "text", text: "1" }]),
      result("b", [{ type: "text", text: "2" }]),
      result("c", [{ type: "text", text: "3" }]),
    ],
  ],
  [
    "errored and aborted turns",
    (m) => [
      user("q"),
      assistant(from(m), [call("x")], "error"),
      user("retry"),
      assistant(from(m), [{ type: "text", text: "partial" }], "aborted"),
      user("again"),
    ],
  ],
  [
    "orphaned tool calls",
    (m) => [
      user("q"),
      assistant(from(m), [call("a"), call("b")], "toolUse"),
      result("b", [{ type: "text", text: "b" }]),
      user("stop"),
      assistant(OTHER, [call("o|p")], "toolUse"),
    ],
  ],
  [
    "empty assistant content",
    (m) => [
      user("q"),
      assistant(from(m), []),
      user("q2"),
      assistant(from(m), [{ type: "text", text: "  " }]),
      user("q3"),
    ],
  ],
  [
    "unicode and lone surrogates",
    (m) => [
      user("emoji 😀 and lone \uD83D here \uDE00 end"),
      user([{ type: "text", text: "x\uDBFFy" }, IMAGE]),
      assistant(
        from(m),
        [
          { type: "thinking", thinking: "t\uD800", thinkingSignature: "reasoning_content" },
          { type: "text", text: "\uDC00 ok 中文" },
          call("u"),
        ],
        "toolUse",
      ),
      result("u", [{ type: "text", text: "res \uD834" }]),
      assistant(from(m), [{ type: "text", text: "\uD800" }]),
    ],
  ],
];

const OPTION_SETS: readonly Omit<PayloadRequest, "messages">[] = [
  {},
  { systemPrompt: "Be brief \uD800.", tools: TOOLS, reasoning: "high", cacheRetention: "long", sessionId: "sess-9" },
  { systemPrompt: "", tools: [], reasoning: "minimal", cacheRetention: "none", sessionId: "sess-9" },
];

describe("targeted cases on a panel of models", () => {
  it.each(CASES)("%s", async (_name, build) => {
    for (const model of PANEL) {
      for (const options of OPTION_SETS) await expectSameAsPi(model, { ...options, messages: build(model) });
    }
  });

  it("records where each message came from", () => {
    const model = variant(visionModel, { compat: { requiresAssistantAfterToolResult: true } });
    const messages = [
      user("go"),
      assistant(from(model), [call("a"), call("b"), call("c")], "toolUse"),
      result("a", [IMAGE]),
      result("b", [{ type: "text", text: "b" }]),
      user("next"),
    ];
    const { origins, body } = buildOpenAICompletionsPayload(model, { messages, systemPrompt: "sys" });
    expect((body["messages"] as { role: string }[]).map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "tool",
      "assistant",
      "user",
      "user",
    ]);
    expect(origins).toEqual([[], [0], [1], [2], [3], [], [], [2], [4]]);
  });

  it("refuses Cloudflare models whose base URL needs environment values", () => {
    const model = find((m) => m.provider === "cloudflare-workers-ai");
    expect(() => buildOpenAICompletionsPayload(model, { messages: [user("hi")] })).toThrow(/CLOUDFLARE_ACCOUNT_ID/);
  });
});

// ---------- property ----------

const textArb = fc
  .array(fc.constantFrom("a", "b", " ", "\n", "|", "é", "😀", "\uD83D", "\uDE00", "中"), { maxLength: 6 })
  .map((chars) => chars.join(""));
const idArb = fc.constantFrom("c1", "c2", "c3", "c1|fc_abc+/=", "c2|x", LONG_ID);
const sourceArb = fc.constantFrom("same", "same", "other-responses", "other-completions");
const imageArb = fc.constant(IMAGE);
const textBlockArb = textArb.map((text) => ({ type: "text" as const, text }));
const thinkingArb = fc.record({
  type: fc.constant("thinking" as const),
  thinking: textArb,
  thinkingSignature: fc.constantFrom(undefined, "", "reasoning_content", "reasoning", "reasoning_text", "opaque"),
  redacted: fc.constantFrom(undefined, false, true),
});
const toolCallArb = fc.record({
  type: fc.constant("toolCall" as const),
  id: idArb,
  name: fc.constantFrom("read", "bash"),
  arguments: fc.dictionary(fc.constantFrom("path", "n"), fc.oneof(textArb, fc.integer())),
  thoughtSignature: fc.constantFrom(
    undefined,
    "junk",
    JSON.stringify({ type: "reasoning.encrypted", id: "c1", data: "d" }),
  ),
});

type MessageSpec =
  | { kind: "user"; content: string | (TextContentLike | ImageContent)[] }
  | {
      kind: "assistant";
      source: string;
      content: AssistantMessage["content"][number][];
      stopReason: AssistantMessage["stopReason"];
    }
  | { kind: "toolResult"; id: string; content: (TextContentLike | ImageContent)[]; isError: boolean };
type TextContentLike = { type: "text"; text: string };

const specArb: fc.Arbitrary<MessageSpec> = fc.oneof(
  fc.record({
    kind: fc.constant("user" as const),
    content: fc.oneof(textArb, fc.array(fc.oneof(textBlockArb, imageArb), { maxLength: 3 })),
  }),
  fc.record({
    kind: fc.constant("assistant" as const),
    source: sourceArb,
    content: fc.array(fc.oneof(textBlockArb, thinkingArb, toolCallArb), { maxLength: 4 }),
    stopReason: fc.constantFrom("stop", "toolUse", "toolUse", "length", "error", "aborted"),
  }),
  fc.record({
    kind: fc.constant("toolResult" as const),
    id: idArb,
    content: fc.array(fc.oneof(textBlockArb, imageArb), { maxLength: 3 }),
    isError: fc.boolean(),
  }),
);

/** Pins a generated message to the chosen model (for "same model" assistant turns). */
function materialize(spec: MessageSpec, model: ModelInfo): LlmMessage {
  switch (spec.kind) {
    case "user":
      return user(spec.content);
    case "toolResult":
      return result(spec.id, spec.content, spec.isError);
    case "assistant": {
      const source =
        spec.source === "same"
          ? from(model)
          : spec.source === "other-responses"
            ? OTHER
            : { api: "openai-completions", provider: "groq", model: "other" };
      // The JSON round trip drops the generated `undefined` fields, as a session file would not have them.
      const content = JSON.parse(JSON.stringify(spec.content)) as AssistantMessage["content"];
      return assistant(source, content, spec.stopReason);
    }
  }
}

describe("property: random conversations on random openai-completions models", () => {
  it("builds the same body as pi-ai", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...COMPLETIONS_MODELS, ...SYNTHETIC),
        fc.array(specArb, { maxLength: 8 }),
        fc.record({
          reasoning: fc.constantFrom(...THINKING),
          cacheRetention: fc.constantFrom(...RETENTION),
          sessionId: fc.constantFrom(undefined, "s-1"),
          systemPrompt: fc.constantFrom(undefined, "", "sys \uD800"),
          tools: fc.constantFrom(undefined, [], TOOLS),
        }),
        async (model, specs, options) => {
          await expectSameAsPi(model, { ...options, messages: specs.map((s) => materialize(s, model)) });
        },
      ),
      { numRuns: 1000 },
    );
  });
});
