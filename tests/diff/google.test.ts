/**
 * Differential tests: `buildGooglePayload` against pi-ai's own `streamSimple` for every Google model
 * (google-generative-ai and google-vertex), captured through `onPayload`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Api, Context, Model } from "@mariozechner/pi-ai";
import type {
  AssistantMessage,
  CacheRetention,
  ImageContent,
  LlmMessage,
  ModelInfo,
  PayloadRequest,
  TextContent,
  ThinkingLevel,
  ToolDefinition,
  ToolResultMessage,
} from "../../src/core/llm/types.ts";
import { PayloadError } from "../../src/core/llm/types.ts";
import { buildGooglePayload } from "../../src/core/providers/google.ts";
import { allReferenceModels, referenceModel, referencePayload } from "../reference/pi.ts";

const GOOGLE_APIS = new Set(["google-generative-ai", "google-vertex"]);
const registryModels = allReferenceModels().filter((m) => GOOGLE_APIS.has(m.api)) as unknown as ModelInfo[];
const base = referenceModel("google", "gemini-2.5-flash") as unknown as ModelInfo;

/** Models a user's models.json could define: id-bearing backends, text-only, an xhigh level, no output cap. */
const customModels: ModelInfo[] = [
  { ...base, id: "claude-sonnet-4-5", name: "claude via google" },
  { ...base, id: "gpt-oss-120b", name: "gpt-oss via google" },
  { ...base, id: "gemini-2.5-pro-x", input: ["text"], thinkingLevelMap: { xhigh: "x" } },
  { ...base, id: "gemini-3-flash-x", thinkingLevelMap: { xhigh: "x", minimal: null } },
  { ...base, api: "google-vertex", provider: "google-vertex", id: "gemma-4-x", thinkingLevelMap: { xhigh: "x" } },
  {
    ...base,
    id: "gemma-4-y",
    maxTokens: 0,
    thinkingLevelMap: { off: null, minimal: null, low: null, medium: null, high: null },
  },
  { ...base, id: "gemini-2.5-flash-lite-x", api: "google-vertex", provider: "google-vertex" },
];
const models = [...registryModels, ...customModels];
const LEVELS: readonly (ThinkingLevel | undefined)[] = [undefined, "minimal", "low", "medium", "high", "xhigh"];
const RETENTIONS: readonly (CacheRetention | undefined)[] = [undefined, "none", "short", "long"];

async function expectSameAsPi(model: ModelInfo, request: PayloadRequest): Promise<void> {
  const context = { systemPrompt: request.systemPrompt, messages: request.messages, tools: request.tools } as Context;
  const options = {
    reasoning: request.reasoning,
    sessionId: request.sessionId,
    cacheRetention: request.cacheRetention,
  };
  const reference = await referencePayload(model as unknown as Model<Api>, context, options);
  if ("error" in reference) {
    expect(() => buildGooglePayload(model, request)).toThrow(PayloadError);
    return;
  }
  const result = buildGooglePayload(model, request);
  expect(result.body).toStrictEqual(reference.payload);
  expect(result.listKey).toBe("contents");
  expect(result.origins.length).toBe((result.body.contents as unknown[]).length);
}

// Tiny builders.
const user = (content: string | (TextContent | ImageContent)[]): LlmMessage => ({
  role: "user",
  content,
  timestamp: 1,
});
const text = (t: string, textSignature?: string): TextContent => ({
  type: "text",
  text: t,
  ...(textSignature && { textSignature }),
});
const image = (data = "aGVsbG8=", mimeType = "image/png"): ImageContent => ({ type: "image", data, mimeType });
const from = (provider: string, api: string, model: string) => ({ provider, api, model });
const gpt = from("openai", "openai-responses", "gpt-5");
const assistant = (
  content: AssistantMessage["content"],
  source: { provider: string; api: string; model: string },
  stopReason: AssistantMessage["stopReason"] = "toolUse",
): LlmMessage => ({ role: "assistant", content, ...source, stopReason, timestamp: 2 });
const call = (id: string, name = "read", thoughtSignature?: string) =>
  ({
    type: "toolCall",
    id,
    name,
    arguments: { path: "a.ts", n: 1 },
    ...(thoughtSignature && { thoughtSignature }),
  }) as const;
const result = (
  toolCallId: string,
  content: (TextContent | ImageContent)[],
  isError = false,
  toolName = "read",
): ToolResultMessage => ({ role: "toolResult", toolCallId, toolName, content, isError, timestamp: 3 });

const tools: ToolDefinition[] = [
  {
    name: "read",
    description: "Read a file",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  {
    name: "edit",
    description: "Edit with $defs, refs, unions",
    parameters: {
      $schema: "http://json-schema.org/draft-07/schema#",
      $id: "edit",
      type: "object",
      $defs: { range: { type: "array", items: { type: "integer", minimum: 0 }, minItems: 2, maxItems: 2 } },
      definitions: { mode: { enum: ["a", "b"] } },
      properties: {
        range: { $ref: "#/$defs/range" },
        mode: { anyOf: [{ const: "x" }, { type: "null" }] },
        value: {
          oneOf: [
            { type: "string", format: "uri" },
            { type: ["number", "null"], default: 0 },
          ],
        },
        meta: { type: "object", additionalProperties: { type: "boolean" }, $comment: "free-form" },
      },
      additionalProperties: false,
    },
  },
];

/** Conversations for one target model: same-model parts use its provider/api/id. */
function scenarios(
  model: ModelInfo,
): Record<string, { messages: LlmMessage[]; systemPrompt?: string; tools?: ToolDefinition[] }> {
  const same = from(model.provider, model.api, model.id);
  const sig = "c2lnbmF0dXJl";
  return {
    "plain string": { messages: [user("hello")] },
    "system prompt and tools": { messages: [user("hi")], systemPrompt: "You are pi.", tools },
    "empty system prompt, empty tools": { messages: [user("hi")], systemPrompt: "", tools: [] },
    "array content with images": {
      messages: [user([text("look"), image(), text(""), image("AAAA", "image/jpeg")]), user([])],
    },
    "same-model turn with signatures": {
      messages: [
        user("go"),
        assistant(
          [{ type: "thinking", thinking: "plan", thinkingSignature: sig }, text("ok", sig), call("c1", "read", sig)],
          same,
        ),
        result("c1", [text("file")]),
        assistant(
          [{ type: "thinking", thinking: "no sig" }, text("bad sig", "abc"), call("c2", "read", "not base64!")],
          same,
        ),
        result("c2", [text("again")]),
        assistant(
          [
            { type: "thinking", thinking: "", thinkingSignature: sig },
            { type: "thinking", thinking: "x", redacted: true, thinkingSignature: "AAAA" },
            text("done"),
          ],
          same,
          "stop",
        ),
      ],
      tools,
    },
    "foreign tool calls and thinking": {
      messages: [
        user("go"),
        assistant(
          [
            { type: "thinking", thinking: "foreign plan", thinkingSignature: "rs_1" },
            call("call_1|fc_1", "read", sig),
            call("call 2!", "edit"),
          ],
          gpt,
        ),
        result("call_1|fc_1", [text("one")]),
        result("call 2!", [text("two")], true, "edit"),
        assistant(
          [text("same provider, other api", sig), { type: "thinking", thinking: "t", thinkingSignature: sig }],
          from(model.provider, "other-api", model.id),
          "stop",
        ),
      ],
      tools,
    },
    "tool results with images and errors": {
      messages: [
        user("shoot"),
        assistant([call("a"), call("b"), call("c"), call("d")], same),
        result("a", [text("x"), image(), text("y")]),
        result("b", [image()], true),
        result("c", [], false),
        result("d", [text("boom")], true),
        user("next"),
      ],
    },
    "errored, aborted and orphaned turns": {
      messages: [
        user("start"),
        assistant([text("partial"), call("e1")], same, "error"),
        assistant([call("o1"), call("o2")], gpt),
        result("o2", [text("only one")]),
        user("interrupt"),
        assistant([call("o3")], same, "aborted"),
        assistant([call("o4")], same),
      ],
    },
    "empty texts": {
      messages: [
        user(""),
        assistant([text(""), text("   "), { type: "thinking", thinking: "  " }], same, "stop"),
        user([text("")]),
        assistant([], gpt, "stop"),
      ],
    },
    unicode: {
      messages: [
        user("emoji 🙈 lone \uD83D high and \uDE48 low"),
        assistant([text("\uD800"), { type: "thinking", thinking: "think \uDFFF" }, call("u1", "read")], gpt),
        result("u1", [text("\uD83D"), text("ok 🙈")]),
        result("u2", [text("\uDC00")]),
      ],
      systemPrompt: "sys \uD83D",
    },
    "lone-surrogate system prompt": { messages: [user("hi")], systemPrompt: "\uDC00" },
  };
}

describe("buildGooglePayload thinking config", () => {
  for (const model of models) {
    it(`${model.api} ${model.id}: every level and cache retention`, async () => {
      for (const reasoning of LEVELS) {
        for (const cacheRetention of RETENTIONS) {
          await expectSameAsPi(model, { messages: [user("hi")], tools, reasoning, cacheRetention, sessionId: "s-1" });
        }
      }
    });
  }
});

describe("buildGooglePayload messages", () => {
  for (const model of models) {
    it(`${model.api} ${model.id}: every scenario`, async () => {
      for (const [name, scenario] of Object.entries(scenarios(model))) {
        for (const reasoning of [undefined, "medium"] as const) {
          await expectSameAsPi(model, { ...scenario, reasoning }).catch((e: unknown) => {
            throw new Error(`${name} (${reasoning}): ${String(e)}`, { cause: e });
          });
        }
      }
    });
  }
});

describe("buildGooglePayload origins", () => {
  const model = referenceModel("google", "gemini-2.5-flash") as unknown as ModelInfo;

  it("lists every merged function response and none for synthetic results", () => {
    const messages = [
      user("go"),
      assistant([call("a"), call("b"), call("c")], gpt),
      result("a", [text("1")]),
      result("c", [text("3")]),
      user("next"),
    ];
    const { origins } = buildGooglePayload(model, { messages });
    expect(origins).toEqual([[0], [1], [2, 3], [4]]);
    const { origins: synthetic } = buildGooglePayload(model, { messages: [user("go"), assistant([call("a")], gpt)] });
    expect(synthetic).toEqual([[0], [1], []]);
  });

  it("attributes Gemini 2 tool-result image turns to their tool result", () => {
    const messages = [
      user("go"),
      assistant([call("a"), call("b")], gpt),
      result("a", [image()]),
      result("b", [text("x")]),
    ];
    expect(buildGooglePayload(model, { messages }).origins).toEqual([[0], [1], [2], [2], [3]]);
  });

  it("refuses a model of another API", () => {
    expect(() => buildGooglePayload({ ...model, api: "anthropic-messages" }, { messages: [] })).toThrow(PayloadError);
  });
});

// Random conversations. Assistant sources are resolved per target model so "same model" turns are common.
const chars = fc.constantFrom("a", "b", " ", "\n", "é", "🙈", "\uD83D", "\uDE48", "|", "_", "-", "!");
const str = fc.array(chars, { maxLength: 6 }).map((cs) => cs.join(""));
const signature = fc.option(fc.constantFrom("", "c2ln", "AAAA==", "AAA=", "abc", "no base64!"), { nil: undefined });
const ids = fc.constantFrom("c1", "c2", "call_1|fc_1", "call 2!", "x".repeat(70));
const textBlock = fc.tuple(str, signature).map(([t, s]) => text(t, s));
const imageBlock = fc.constantFrom(image(), image("AAAA", "image/jpeg"));
const userArb = fc.oneof(str, fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 })).map(user);
const thinkingArb = fc
  .record({ thinking: str, thinkingSignature: signature, redacted: fc.option(fc.boolean(), { nil: undefined }) })
  .map((t) => ({
    type: "thinking" as const,
    thinking: t.thinking,
    ...(t.thinkingSignature !== undefined && { thinkingSignature: t.thinkingSignature }),
    ...(t.redacted !== undefined && { redacted: t.redacted }),
  }));
const callArb = fc.tuple(ids, fc.constantFrom("read", "edit"), signature).map(([id, name, s]) => call(id, name, s));
const sourceArb = fc.constantFrom("same", "same-provider-other-api", "gpt", "other-gemini");
const stopArb = fc.constantFrom<AssistantMessage["stopReason"]>("stop", "toolUse", "length", "error", "aborted");
const assistantArb = fc.record({
  content: fc.array(fc.oneof(textBlock, thinkingArb, callArb), { maxLength: 4 }),
  source: sourceArb,
  stopReason: stopArb,
});
const resultArb = fc
  .tuple(ids, fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 }), fc.boolean())
  .map(([id, content, isError]) => result(id, content, isError));
type Draft =
  LlmMessage | { content: AssistantMessage["content"]; source: string; stopReason: AssistantMessage["stopReason"] };
const draftsArb = fc.array(fc.oneof(userArb, assistantArb, resultArb), { maxLength: 8 }) as fc.Arbitrary<Draft[]>;

function resolve(draft: Draft, model: ModelInfo): LlmMessage {
  if ("role" in draft) return draft;
  const sources: Record<string, ReturnType<typeof from>> = {
    same: from(model.provider, model.api, model.id),
    "same-provider-other-api": from(model.provider, "openai-completions", model.id),
    gpt,
    "other-gemini": from("google", "google-generative-ai", "gemini-2.0-flash"),
  };
  return assistant(draft.content, sources[draft.source] ?? gpt, draft.stopReason);
}

describe("buildGooglePayload property", () => {
  it("deep-equals pi-ai for random conversations and Google models", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...models),
        draftsArb,
        fc.constantFrom(...LEVELS),
        fc.option(str, { nil: undefined }),
        fc.subarray(tools),
        async (model, drafts, reasoning, systemPrompt, toolList) => {
          const messages = drafts.map((d) => resolve(d, model));
          await expectSameAsPi(model, { messages, reasoning, systemPrompt, tools: toolList });
        },
      ),
      { numRuns: 1000 },
    );
  });
});
