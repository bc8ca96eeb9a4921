/**
 * Differential proof for `buildBedrockPayload` and `buildMistralPayload`: for every case our body must deep-equal
 * (strictly: `undefined`-valued keys and `Uint8Array` image bytes count) the body pi-ai 0.73.1 hands to
 * `onPayload` for the same model and request. Both APIs capture offline with the stock harness (pi.ts).
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Api, Context, Model } from "@mariozechner/pi-ai";
import {
  PayloadError,
  type AssistantMessage,
  type CacheRetention,
  type ImageContent,
  type LlmMessage,
  type ModelInfo,
  type PayloadRequest,
  type PayloadResult,
  type TextContent,
  type ThinkingLevel,
  type ToolDefinition,
  type ToolResultMessage,
} from "../../src/core/llm/types.ts";
import { buildBedrockPayload, normalizeBedrockToolCallId } from "../../src/core/providers/amazon-bedrock.ts";
import { buildMistralPayload, mistralToolCallIdNormalizer } from "../../src/core/providers/mistral.ts";
import { buildPayload } from "../../src/core/providers/index.ts";
import { allReferenceModels, referenceModel, referencePayload } from "../reference/pi.ts";

type RefModel = Model<Api>;
type Builder = (model: ModelInfo, request: PayloadRequest) => PayloadResult;

// ---- environment: pi-ai's Bedrock provider reads these before onPayload; the brief says they are unset ----

const PINNED_UNSET = (key: string): boolean =>
  key === "PI_CACHE_RETENTION" || key.startsWith("AWS_") || /^(https?|no)_proxy$/i.test(key);
const savedEnv = new Map(
  Object.keys(process.env)
    .filter(PINNED_UNSET)
    .map((key) => [key, process.env[key]]),
);

/** PI_CACHE_RETENTION, every AWS_* and the proxy variables unset (a proxy makes pi-ai import proxy-agent). */
function pinEnvironment(): void {
  for (const key of Object.keys(process.env)) if (PINNED_UNSET(key)) delete process.env[key];
}

function restoreEnvironment(): void {
  pinEnvironment();
  for (const [key, value] of savedEnv) if (value !== undefined) process.env[key] = value;
}

beforeAll(pinEnvironment);
afterAll(restoreEnvironment);

// ---- models ----

const BEDROCK_MODELS = allReferenceModels().filter((m) => m.api === "bedrock-converse-stream");
const MISTRAL_MODELS = allReferenceModels().filter((m) => m.api === "mistral-conversations");

function model(provider: string, id: string): RefModel {
  const found = referenceModel(provider, id);
  if (!found) throw new Error(`pi-ai has no model ${provider}/${id}`);
  return found;
}

const sonnet45 = model("amazon-bedrock", "anthropic.claude-sonnet-4-5-20250929-v1:0");
const opus46 = model("amazon-bedrock", "global.anthropic.claude-opus-4-6-v1");
const nova = model("amazon-bedrock", "amazon.nova-pro-v1:0");
const mistralSmall = model("mistral", "mistral-small-latest");
const magistral = model("mistral", "magistral-medium-latest");

/** Edge variants of model data a user's models.json could define. */
const BEDROCK_VARIANTS: readonly RefModel[] = [
  { ...sonnet45, id: "us-gov.anthropic.claude-sonnet-4-5-20250929-v1:0" },
  { ...opus46, id: "arn:aws-us-gov:bedrock:us-gov-west-1:1:inference-profile/x" },
  { ...opus46, id: "arn:aws:bedrock:us-east-1:1:application-inference-profile/abc", name: "Claude Opus 4.6 profile" },
  { ...sonnet45, id: "arn:aws:bedrock:us-east-1:1:application-inference-profile/def", name: "my_claude.sonnet:4.5" },
  { ...sonnet45, id: "arn:aws:bedrock:us-east-1:1:application-inference-profile/ghi", name: "Claude 3.5 Haiku" },
  { ...opus46, id: "anthropic.claude-opus-4-7-x", name: "x", thinkingLevelMap: { low: "max", high: null, medium: "" } },
  { ...sonnet45, id: "variant-small-output", name: "Claude small", maxTokens: 1500 },
  { ...sonnet45, id: "variant-tiny-output", name: "Claude tiny", maxTokens: 900 },
  { ...sonnet45, id: "variant-no-output-cap", name: "Claude uncapped", maxTokens: 0 },
  { ...nova, id: "variant-nova-no-cap", maxTokens: 0, reasoning: true },
  { ...sonnet45, id: "anthropic.claude-sonnet-4-5-text-only", input: ["text"] },
  { ...sonnet45, id: "anthropic.claude-3-5-sonnet-not-reasoning", name: "Claude Sonnet 3.5", reasoning: false },
];

const MISTRAL_VARIANTS: readonly RefModel[] = [
  { ...mistralSmall, thinkingLevelMap: { minimal: "none", low: "low", medium: null, high: "", xhigh: "max" } },
  {
    ...mistralSmall,
    id: "mistral-medium-3.5",
    thinkingLevelMap: { off: null, minimal: null, low: null, medium: null, high: null },
  },
  { ...mistralSmall, id: "mistral-small-2603", input: ["text"] },
  { ...magistral, id: "magistral-x", thinkingLevelMap: { xhigh: "x", minimal: null } },
  { ...magistral, id: "magistral-no-cap", maxTokens: 0 },
  { ...mistralSmall, id: "mistral-small-latest-no-reasoning", reasoning: false },
];

const LEVELS: readonly (ThinkingLevel | undefined)[] = [undefined, "minimal", "low", "medium", "high", "xhigh"];
const RETENTIONS: readonly (CacheRetention | undefined)[] = [undefined, "none", "short", "long"];

const builderFor = (target: RefModel): Builder =>
  target.api === "bedrock-converse-stream" ? buildBedrockPayload : buildMistralPayload;

// ---- the comparison ----

const comparisons = { bedrock: 0, mistral: 0, refused: 0 };

/** Ours vs pi-ai's for one model and request; where pi-ai refuses, we must throw PayloadError. */
async function expectSameAsReference(target: RefModel, request: PayloadRequest): Promise<void> {
  comparisons[target.api === "bedrock-converse-stream" ? "bedrock" : "mistral"]++;
  const context = structuredClone({ ...request }) as unknown as Context;
  const options = {
    reasoning: request.reasoning,
    sessionId: request.sessionId,
    cacheRetention: request.cacheRetention,
  };
  const reference = await referencePayload(target, context, options);
  const build = builderFor(target);
  const info = target as unknown as ModelInfo;
  if ("error" in reference) {
    comparisons.refused++;
    expect(() => build(info, request), reference.error).toThrow(PayloadError);
    return;
  }
  const ours = build(info, request);
  expect(ours.body).toStrictEqual(reference.payload);
  expect(ours.listKey).toBe("messages");
  expect(ours.origins).toHaveLength((ours.body.messages as unknown[]).length);
}

// ---- tiny builders ----

type Source = Pick<AssistantMessage, "api" | "provider" | "model">;
const sourceOf = (m: RefModel): Source => ({ api: m.api, provider: m.provider, model: m.id });
const OPENAI: Source = { api: "openai-responses", provider: "openai", model: "gpt-5" };
const OTHER_BEDROCK: Source = sourceOf(model("amazon-bedrock", "anthropic.claude-opus-4-1-20250805-v1:0"));
const OTHER_MISTRAL: Source = sourceOf(model("mistral", "devstral-medium-latest"));

const PNG = "iVBORw0KGgo=";
const text = (t: string, textSignature?: string): TextContent => ({
  type: "text",
  text: t,
  ...(textSignature && { textSignature }),
});
const image = (mimeType = "image/png", data = PNG): ImageContent => ({ type: "image", data, mimeType });
const user = (content: string | (TextContent | ImageContent)[]): LlmMessage => ({
  role: "user",
  content,
  timestamp: 1,
});
const call = (id: string, name = "read", args: Record<string, unknown> = { path: "a.ts" }) =>
  ({ type: "toolCall", id, name, arguments: args }) as const;
const thinking = (t: string, thinkingSignature?: string, redacted?: boolean) =>
  ({
    type: "thinking",
    thinking: t,
    ...(thinkingSignature !== undefined && { thinkingSignature }),
    ...(redacted && { redacted }),
  }) as const;
const assistant = (
  source: Source,
  content: AssistantMessage["content"],
  stopReason: AssistantMessage["stopReason"] = "stop",
): LlmMessage => ({ role: "assistant", content, ...source, stopReason, timestamp: 2 });
const result = (
  toolCallId: string,
  content: (TextContent | ImageContent)[] = [text("ok")],
  isError = false,
): ToolResultMessage => ({
  role: "toolResult",
  toolCallId,
  toolName: "read",
  content,
  isError,
  timestamp: 3,
});

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
  { name: "noop", description: "", parameters: {} },
];

const LONG_ID = `call_${"x".repeat(80)}|fc_${"y".repeat(300)}`;
const LONE = "\uD83D"; // an unpaired high surrogate
const LONE_LOW = "\uDE48";

type Scenario = (m: RefModel) => Omit<PayloadRequest, "reasoning" | "cacheRetention">;

/** One fixture per variant; each gets the model under test so "same model" turns can be built. */
const SCENARIOS: Record<string, Scenario> = {
  "no messages at all": () => ({ messages: [] }),
  "plain user string, no system, no tools": () => ({ messages: [user("hello")] }),
  "system prompt and tools (one with an empty schema)": () => ({
    systemPrompt: "You are pi.",
    tools: TOOLS,
    messages: [user("hello")],
  }),
  "empty system prompt and empty tools list": () => ({ systemPrompt: "", tools: [], messages: [user("hello")] }),
  "user blocks: text then images of every accepted type": () => ({
    messages: [
      user([text("look"), image("image/jpeg"), image("image/jpg"), image("image/gif"), image("image/webp"), image()]),
    ],
  }),
  "user blocks: image only; empty block list; blank strings": () => ({
    messages: [user([image()]), user([]), user(""), user("  "), user([text(""), text(" \n")])],
  }),
  "base64 without padding and with whitespace": () => ({
    messages: [user([image("image/png", "iVBORw0KGgo"), image("image/png", "iVBO Rw0K\nGgo=")])],
  }),
  "an image pi-ai cannot encode: unknown type": () => ({ messages: [user([text("x"), image("image/bmp")])] }),
  "an image pi-ai cannot encode: not base64": () => ({
    messages: [
      user("q"),
      assistant(OPENAI, [call("b1")], "toolUse"),
      result("b1", [image("image/png", "not*base64!")]),
    ],
  }),
  "cross-model tool call ids with | and > 64 chars are normalised": () => ({
    tools: TOOLS,
    messages: [
      user("go"),
      assistant(OPENAI, [call("call_1|fc_abc"), call(LONG_ID, "bash", { command: "ls" })], "toolUse"),
      result("call_1|fc_abc"),
      result(LONG_ID, [text("files")]),
      user("thanks"),
    ],
  }),
  "cross-model ids that collide after normalising (Mistral re-hashes)": () => ({
    messages: [
      user("go"),
      assistant(
        OPENAI,
        [call("abc|defghi"), call("abcdefghi|"), call("abcdefghi"), call("ABCDEFGHI"), call(""), call("|||")],
        "toolUse",
      ),
      result("abc|defghi"),
      result("abcdefghi|"),
      result("abcdefghi"),
      result(""),
      user("next"),
      assistant(OTHER_MISTRAL, [call("abc|defghi"), call("short")], "toolUse"),
      result("abc|defghi"),
      result("short"),
    ],
  }),
  "same-model tool call ids are kept verbatim": (m) => ({
    messages: [
      user("go"),
      assistant(sourceOf(m), [call("call_1|fc_abc"), call(`lone${LONE}`)], "toolUse"),
      result("call_1|fc_abc"),
      result(`lone${LONE}`),
    ],
  }),
  "tool results: error, images, image only, empty, several texts": (m) => ({
    messages: [
      user("go"),
      assistant(sourceOf(m), [call("t1"), call("t2"), call("t3"), call("t4"), call("t5"), call("t6")], "toolUse"),
      result("t1", [text("boom")], true),
      result("t2", [text("see"), image()]),
      result("t3", [image(), image("image/gif")]),
      result("t4", []),
      result("t5", [text("a"), text(""), text("b")]),
      result("t6", [image("image/webp")], true),
    ],
  }),
  "consecutive tool results merge; a user message breaks the run": (m) => ({
    messages: [
      user("go"),
      assistant(sourceOf(m), [call("a"), call("b")], "toolUse"),
      result("a"),
      result("b"),
      user("  "),
      result("stray"),
    ],
  }),
  "same-model thinking: signed, unsigned, blank signature, blank text": (m) => ({
    messages: [
      user("think"),
      assistant(sourceOf(m), [
        thinking("signed plan", "sig-1"),
        thinking("unsigned plan"),
        thinking("blank-signature plan", "  "),
        thinking("   ", "sig-2"),
        thinking(""),
        text("answer", "ts"),
      ]),
      user("more"),
    ],
  }),
  "other-model thinking becomes text; blank thinking dropped": () => ({
    messages: [
      user("think"),
      assistant(OTHER_BEDROCK, [thinking("plan", "sig"), thinking("  ", "sig"), text("answer")]),
      user("ok"),
    ],
  }),
  "redacted thinking: kept for the same model": (m) => ({
    messages: [
      user("q"),
      assistant(sourceOf(m), [thinking("[Reasoning redacted]", "opaque==", true), text("a")]),
      user("q2"),
    ],
  }),
  "redacted thinking without payload (same model)": (m) => ({
    messages: [user("q"), assistant(sourceOf(m), [thinking("[Reasoning redacted]", undefined, true)]), user("q2")],
  }),
  "redacted thinking: dropped for another model": () => ({
    messages: [
      user("q"),
      assistant(OTHER_MISTRAL, [thinking("[Reasoning redacted]", "opaque==", true), text("a")]),
      user("q2"),
    ],
  }),
  "errored and aborted turns are dropped": (m) => ({
    messages: [
      user("q"),
      assistant(sourceOf(m), [text("partial"), call("e1")], "error"),
      assistant(OPENAI, [text("half")], "aborted"),
      user("again"),
      assistant(sourceOf(m), [text("fine")], "length"),
    ],
  }),
  "orphaned tool call followed by a user message": () => ({
    messages: [user("q"), assistant(OPENAI, [call("o|1")], "toolUse"), user("never mind")],
  }),
  "orphaned tool call at the end": (m) => ({ messages: [user("q"), assistant(sourceOf(m), [call("o1")], "toolUse")] }),
  "orphaned tool calls followed by another assistant, partly answered": () => ({
    messages: [
      user("q"),
      assistant(OPENAI, [call("p|1"), call("p|2"), call("p|3")], "toolUse"),
      result("p|2"),
      assistant(OPENAI, [text("moving on")]),
      user("ok"),
    ],
  }),
  "assistant blank text blocks; all-blank and empty assistants are skipped": (m) => ({
    messages: [
      user("q"),
      assistant(sourceOf(m), [text(""), text("  "), text("real")]),
      assistant(sourceOf(m), [text(" ")]),
      assistant(sourceOf(m), []),
      user("q2"),
    ],
  }),
  "ends with an assistant message: no cache point on messages": (m) => ({
    systemPrompt: "sys",
    tools: TOOLS,
    messages: [user("q"), assistant(sourceOf(m), [text("a")])],
  }),
  "unicode: emoji, CJK, RTL and lone surrogates everywhere": (m) => ({
    systemPrompt: `sys ${LONE} 🙈 ${LONE_LOW}`,
    tools: [
      {
        name: `tool${LONE}`,
        description: `d${LONE_LOW}`,
        parameters: { type: "object", properties: { s: { description: LONE } } },
      },
    ],
    messages: [
      user(`héllo 中文 עברית ${LONE}🙈${LONE_LOW}${LONE}`),
      assistant(
        sourceOf(m),
        [thinking(`plan ${LONE}`, "sig"), text(`ans ${LONE_LOW}x`), call("u1", "read", { s: LONE })],
        "toolUse",
      ),
      result("u1", [text(`out ${LONE}`), text(`🙈${LONE_LOW}`)]),
      result("u1", [text(`img ${LONE}`), image()]),
      user([text(`${LONE}`), text(`last ${LONE}🙈`)]),
    ],
  }),
  "lone surrogates and emoji inside cross-model tool call ids": () => ({
    messages: [user("q"), assistant(OPENAI, [call(`id${LONE}🙈|x`)], "toolUse"), result(`id${LONE}🙈|x`)],
  }),
  "thoughtSignature on tool calls, same and other model": (m) => ({
    messages: [
      user("q"),
      assistant(OPENAI, [{ ...call("g1"), thoughtSignature: "ts" }], "toolUse"),
      result("g1"),
      assistant(sourceOf(m), [{ ...call("g2"), thoughtSignature: "ts" }], "toolUse"),
      result("g2"),
    ],
  }),
  "images for text-only and vision models alike": () => ({
    messages: [
      user([text("a"), image(), image()]),
      user([image()]),
      assistant(OPENAI, [call("i1"), call("i2")], "toolUse"),
      result("i1", [image()]),
      result("i2", [text("t"), image()], true),
    ],
  }),
  "tool call arguments: empty, nested, null": (m) => ({
    messages: [
      user("q"),
      assistant(
        sourceOf(m),
        [
          call("n1", "read", {}),
          call("n2", "bash", { deep: { list: [1, "two", null], flag: true } }),
          { ...call("n3"), arguments: null as never },
        ],
        "toolUse",
      ),
      result("n1"),
      result("n2"),
      result("n3"),
    ],
  }),
  "session id never reaches the body": () => ({ sessionId: "session-123", messages: [user("q")] }),
};

const SCENARIO_MODELS: readonly RefModel[] = [
  sonnet45,
  opus46,
  model("amazon-bedrock", "anthropic.claude-3-5-haiku-20241022-v1:0"),
  model("amazon-bedrock", "anthropic.claude-3-haiku-20240307-v1:0"),
  model("amazon-bedrock", "us.anthropic.claude-opus-4-7"),
  nova,
  model("amazon-bedrock", "amazon.nova-micro-v1:0"),
  model("amazon-bedrock", "deepseek.r1-v1:0"),
  model("amazon-bedrock", "mistral.magistral-small-2509"),
  ...BEDROCK_VARIANTS.slice(0, 3),
  mistralSmall,
  magistral,
  model("mistral", "codestral-latest"),
  model("mistral", "pixtral-large-latest"),
  model("mistral", "mistral-medium-2604"),
  ...MISTRAL_VARIANTS.slice(0, 3),
];

const label = (m: RefModel): string =>
  `${m.api === "mistral-conversations" ? "mistral" : "bedrock"} ${m.provider}/${m.id}`;

describe("scenarios vs pi-ai streamSimple", () => {
  describe.each(Object.entries(SCENARIOS))("%s", (_name, scenario) => {
    it.each(SCENARIO_MODELS.map((m) => [label(m), m] as const))("%s", async (_label, target) => {
      for (const reasoning of [undefined, "high"] as const) {
        await expectSameAsReference(target, { ...scenario(target), reasoning });
      }
    });
  });
});

/** A representative conversation: tools, system prompt, thinking, images, cross-model calls, an error result. */
const rich: Scenario = (m) => ({
  systemPrompt: "You are pi.",
  tools: TOOLS,
  messages: [
    user("start"),
    assistant(sourceOf(m), [thinking("plan", "sig"), text("calling"), call("toolu_01|x")], "toolUse"),
    result("toolu_01|x", [text("done"), image()]),
    assistant(OPENAI, [thinking("other plan"), call(LONG_ID)], "toolUse"),
    result(LONG_ID, [text("ok")], true),
    user([text("next"), image("image/jpeg")]),
  ],
});

describe.each([
  ["bedrock-converse-stream", BEDROCK_MODELS, BEDROCK_VARIANTS],
  ["mistral-conversations", MISTRAL_MODELS, MISTRAL_VARIANTS],
] as const)("%s: every model, thinking level and cache retention", (_api, registry, variants) => {
  it.each(registry.map((m) => [m.id, m] as const))("%s", async (_label, target) => {
    for (const reasoning of LEVELS) {
      await expectSameAsReference(target, { ...rich(target), reasoning });
      await expectSameAsReference(target, { messages: rich(target).messages, reasoning });
    }
    for (const cacheRetention of RETENTIONS) {
      await expectSameAsReference(target, { ...rich(target), reasoning: "medium", cacheRetention });
    }
  });

  it.each(variants.map((m) => [`${m.id} (${m.name})`, m] as const))("model-data edge %s", async (_label, target) => {
    for (const reasoning of LEVELS) {
      for (const cacheRetention of RETENTIONS)
        await expectSameAsReference(target, { ...rich(target), reasoning, cacheRetention });
    }
  });
});

// ---- property: random conversations over every model of both APIs ----

const textArb = fc.oneof(
  fc.string({
    unit: fc.constantFrom(
      "a",
      "Z",
      "0",
      " ",
      "\n",
      "\t",
      "|",
      "-",
      "_",
      ":",
      "é",
      "中",
      "🙈",
      LONE,
      LONE_LOW,
      "\u200F",
    ),
    maxLength: 10,
  }),
  fc.constantFrom("", "  ", "(image omitted: model does not support images)", "(see attached image)"),
);
const idArb = fc.oneof(
  fc.constantFrom(
    "toolu_01",
    "call_1|fc_2",
    "call_1|fc_3",
    LONG_ID,
    "id with space",
    `🙈${LONE}`,
    "x".repeat(64),
    "abcdefghi",
    "abc|defghi",
    "",
  ),
  fc.string({ unit: fc.constantFrom("a", "b", "1", "|", "_"), maxLength: 12 }),
);
const imageArb = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom(
      image(),
      image("image/jpeg"),
      image("image/webp", "UklGRg=="),
      image("image/gif", "R0lGOD lh"),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(image("image/bmp"), image("image/png", "%%%"), image("image/png", "abcde")) },
);
const textBlockArb = fc.record(
  { type: fc.constant("text" as const), text: textArb, textSignature: fc.constantFrom("sig") },
  { requiredKeys: ["type", "text"] },
);
const thinkingArb = fc.record(
  {
    type: fc.constant("thinking" as const),
    thinking: textArb,
    thinkingSignature: fc.constantFrom("sig", "", " "),
    redacted: fc.boolean(),
  },
  { requiredKeys: ["type", "thinking"] },
);
const toolCallArb = fc.record(
  {
    type: fc.constant("toolCall" as const),
    id: idArb,
    name: fc.constantFrom("read", "Bash", "bash"),
    arguments: fc.constantFrom({}, { path: "a" }, { n: [1, 2], s: LONE }),
    thoughtSignature: fc.constant("ts"),
  },
  { requiredKeys: ["type", "id", "name", "arguments"] },
);

function messageArb(target: RefModel): fc.Arbitrary<LlmMessage> {
  const userArb = fc.record({
    role: fc.constant("user" as const),
    content: fc.oneof(textArb, fc.array(fc.oneof(textBlockArb, imageArb), { maxLength: 3 })),
    timestamp: fc.constant(1),
  });
  const assistantArb = fc
    .tuple(
      fc.constantFrom(sourceOf(target), OPENAI, OTHER_BEDROCK, OTHER_MISTRAL),
      fc.array(fc.oneof(textBlockArb, thinkingArb, toolCallArb), { maxLength: 4 }),
      fc.constantFrom("stop", "toolUse", "length", "error", "aborted" as const),
    )
    .map(([source, content, stopReason]) => assistant(source, content, stopReason));
  const resultArb = fc
    .tuple(idArb, fc.array(fc.oneof(textBlockArb, imageArb), { maxLength: 3 }), fc.boolean())
    .map(([id, content, isError]) => result(id, content, isError));
  return fc.oneof(userArb, assistantArb, resultArb);
}

const toolDefArb = fc.record({
  name: fc.constantFrom("read", "bash", "Edit"),
  description: textArb,
  parameters: fc.constantFrom(
    { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
    { type: "object" },
    {},
  ),
});

const caseArb = (targets: readonly RefModel[]) =>
  fc.constantFrom(...targets).chain((target) =>
    fc.record({
      target: fc.constant(target),
      request: fc.record({
        systemPrompt: fc.option(textArb, { nil: undefined }),
        messages: fc.array(messageArb(target), { maxLength: 8 }),
        tools: fc.option(fc.array(toolDefArb, { maxLength: 3 }), { nil: undefined }),
        reasoning: fc.constantFrom(...LEVELS),
        sessionId: fc.option(fc.constant("session-1"), { nil: undefined }),
        cacheRetention: fc.constantFrom(...RETENTIONS),
      }),
    }),
  );

describe("property: random requests, body deep-equals pi-ai's", () => {
  it.each([
    ["bedrock-converse-stream", [...BEDROCK_MODELS, ...BEDROCK_VARIANTS]],
    ["mistral-conversations", [...MISTRAL_MODELS, ...MISTRAL_VARIANTS]],
  ] as const)("%s", async (_api, targets) => {
    await fc.assert(
      fc.asyncProperty(caseArb(targets), async ({ target, request }) =>
        expectSameAsReference(target, request as PayloadRequest),
      ),
      { numRuns: 1500 },
    );
  });
});

// ---- origins, ids, refusal text, registration and the browser-bundle rule ----

describe("origins", () => {
  const messages: LlmMessage[] = [
    user("hi"),
    assistant(OPENAI, [call("c|1"), call("c|2"), call("c|3")], "toolUse"),
    result("c|1"),
    result("c|3"),
    assistant(OPENAI, [text("partial")], "aborted"),
    assistant(OPENAI, [text("  ")]),
    user("next"),
  ];

  it("Bedrock: a merged tool-result message lists every source; skipped turns leave no item", () => {
    const { body, origins } = buildBedrockPayload(sonnet45 as unknown as ModelInfo, { messages });
    expect(origins).toEqual([[0], [1], [2, 3], [6]]);
    const merged = (body.messages as { content: { toolResult: { toolUseId: string; status: string } }[] }[])[2]!
      .content;
    expect(merged.map((b) => [b.toolResult.toolUseId, b.toolResult.status])).toEqual([
      ["c_1", "success"],
      ["c_3", "success"],
      ["c_2", "error"],
    ]);
  });

  it("Mistral: the system prompt and a synthetic result have no origin", () => {
    const { origins } = buildMistralPayload(mistralSmall as unknown as ModelInfo, { systemPrompt: "s", messages });
    expect(origins).toEqual([[], [0], [1], [2], [3], [], [6]]);
  });
});

describe("tool call ids", () => {
  it("Bedrock keeps [A-Za-z0-9_-] per UTF-16 unit and 64 of them", () => {
    expect(normalizeBedrockToolCallId("call_1|fc_2")).toBe("call_1_fc_2");
    expect(normalizeBedrockToolCallId(LONG_ID)).toHaveLength(64);
  });

  it("Mistral gives nine alphanumerics, stable per id, distinct on collision", () => {
    const normalize = mistralToolCallIdNormalizer();
    const info = mistralSmall as unknown as ModelInfo;
    const source = assistant(OPENAI, []) as AssistantMessage;
    const first = normalize("abc|defghi", info, source);
    const second = normalize("abcdefghi|", info, source);
    expect(first).toBe("abcdefghi");
    expect(second).toMatch(/^[a-zA-Z0-9]{1,9}$/);
    expect(second).not.toBe(first);
    expect(normalize("abc|defghi", info, source)).toBe(first);
  });
});

describe("refusals", () => {
  it("say why, and reach the user through buildPayload", () => {
    const request = { messages: [user([image("image/bmp")])] };
    expect(() => buildBedrockPayload(sonnet45 as unknown as ModelInfo, request)).toThrow(/not "image\/bmp"/);
    const outcome = buildPayload(sonnet45 as unknown as ModelInfo, request);
    expect(outcome.ok).toBe(false);
  });

  it("both APIs are registered", () => {
    expect(buildPayload(sonnet45 as unknown as ModelInfo, { messages: [user("q")] }).ok).toBe(true);
    expect(buildPayload(mistralSmall as unknown as ModelInfo, { messages: [user("q")] }).ok).toBe(true);
  });
});

describe("environment pi-ai reads (we assume it unset, as pi's users mostly have it)", () => {
  async function withEnv(vars: Record<string, string>, run: () => Promise<void>): Promise<void> {
    Object.assign(process.env, vars);
    try {
      await run();
    } finally {
      pinEnvironment();
    }
  }

  it("PI_CACHE_RETENTION=long makes the default retention long", async () => {
    const request = { systemPrompt: "s", messages: [user("q")] };
    await withEnv({ PI_CACHE_RETENTION: "long" }, async () => {
      const reference = await referencePayload(sonnet45, request as unknown as Context);
      const ours = buildBedrockPayload(sonnet45 as unknown as ModelInfo, { ...request, cacheRetention: "long" });
      expect("payload" in reference && reference.payload).toStrictEqual(ours.body);
    });
  });

  it("a us-gov region drops the thinking display field", async () => {
    const request = { messages: [user("q")] };
    await withEnv({ AWS_REGION: "us-gov-west-1" }, async () => {
      const reference = await referencePayload(sonnet45, request as unknown as Context, { reasoning: "low" });
      const ours = buildBedrockPayload(sonnet45 as unknown as ModelInfo, { ...request, reasoning: "low" });
      const fields = (body: unknown) =>
        (body as { additionalModelRequestFields: { thinking: object } }).additionalModelRequestFields.thinking;
      expect(fields("payload" in reference && reference.payload)).toEqual({ type: "enabled", budget_tokens: 2048 });
      expect(fields(ours.body)).toEqual({ type: "enabled", budget_tokens: 2048, display: "summarized" });
    });
  });
});

describe("browser bundle", () => {
  it("the provider modules import nothing from pi or an SDK, and do not use Buffer", () => {
    for (const file of ["amazon-bedrock.ts", "amazon-bedrock-messages.ts", "mistral.ts"]) {
      const source = readFileSync(new URL(`../../src/core/providers/${file}`, import.meta.url), "utf8");
      expect(source).not.toMatch(/from\s+["'](@mariozechner|@aws-sdk|@mistralai|@smithy)\//);
      expect(source).not.toMatch(/\bBuffer\b/);
    }
  });
});

afterAll(() => {
  // Visible in the run log: how many model/request pairs were compared with pi-ai.
  console.info(
    `bedrock/mistral differential: ${comparisons.bedrock} bedrock + ${comparisons.mistral} mistral comparisons with pi-ai (${comparisons.refused} where pi-ai refused)`,
  );
});
