/**
 * Differential proof for `buildAnthropicPayload`: for every case our body must deep-equal (strictly, so even
 * `undefined`-valued keys count) the body pi-ai 0.73.1 hands to `onPayload` for the same model and request.
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
  type TextContent,
  type ThinkingLevel,
  type ToolDefinition,
  type ToolResultMessage,
} from "../../src/core/llm/types.ts";
import { buildAnthropicPayload, normalizeAnthropicToolCallId } from "../../src/core/providers/anthropic.ts";
import { allReferenceModels, referenceModel, referencePayload } from "../reference/pi.ts";

type RefModel = Model<Api>;

// ---- environment: pi-ai reads these before onPayload; pin them so the reference is deterministic ----

const ENV_KEYS = ["PI_CACHE_RETENTION", "CLOUDFLARE_ACCOUNT_ID", "CLOUDFLARE_GATEWAY_ID"] as const;
const savedEnv = new Map(ENV_KEYS.map((key) => [key, process.env[key]]));

/** PI_CACHE_RETENTION unset (as the brief says); Cloudflare placeholders filled as on a machine that uses it. */
function pinEnvironment(): void {
  delete process.env.PI_CACHE_RETENTION;
  process.env.CLOUDFLARE_ACCOUNT_ID = "acct-test";
  process.env.CLOUDFLARE_GATEWAY_ID = "gateway-test";
}

function restoreEnvironment(): void {
  for (const [key, value] of savedEnv) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}

beforeAll(pinEnvironment);
afterAll(restoreEnvironment);

// ---- models ----

const ANTHROPIC_API_MODELS = allReferenceModels().filter((m) => m.api === "anthropic-messages");

function model(provider: string, id: string): RefModel {
  const found = referenceModel(provider, id);
  if (!found) throw new Error(`pi-ai has no model ${provider}/${id}`);
  return found;
}

const sonnet45 = model("anthropic", "claude-sonnet-4-5");
const opus46 = model("anthropic", "claude-opus-4-6");

/** Real models across every provider using this API, plus edge variants of model data. */
const SCENARIO_MODELS: readonly RefModel[] = [
  sonnet45,
  opus46,
  model("anthropic", "claude-opus-4-7"),
  model("anthropic", "claude-opus-4-1"),
  model("anthropic", "claude-sonnet-4-6"),
  model("anthropic", "claude-3-5-haiku-20241022"),
  model("anthropic", "claude-3-7-sonnet-20250219"),
  model("github-copilot", "claude-sonnet-4.5"),
  model("github-copilot", "claude-opus-4.6"),
  model("kimi-coding", "kimi-k2-thinking"),
  model("kimi-coding", "kimi-for-coding"),
  model("minimax", "MiniMax-M2.7"),
  model("minimax-cn", "MiniMax-M2.7-highspeed"),
  model("cloudflare-ai-gateway", "claude-sonnet-4-6"),
  model("fireworks", "accounts/fireworks/models/glm-5"),
  model("opencode", "claude-opus-4-7"),
  model("vercel-ai-gateway", "anthropic/claude-opus-4.6"),
  model("vercel-ai-gateway", "openai/gpt-5"),
  model("vercel-ai-gateway", "xai/grok-3"),
  model("xiaomi", "mimo-v2-omni"),
  { ...sonnet45, id: "variant-no-long-cache", compat: { supportsLongCacheRetention: false } },
  { ...opus46, id: "variant-opus-4-6-mapped", thinkingLevelMap: { minimal: "max", low: null, high: "", xhigh: "max" } },
  { ...sonnet45, id: "variant-small-output", maxTokens: 1500 },
  { ...sonnet45, id: "variant-tiny-output", maxTokens: 900 },
  { ...sonnet45, id: "variant-no-output-cap", maxTokens: 0 },
  { ...sonnet45, id: "variant-text-only", input: ["text"] },
];

const LEVELS: readonly (ThinkingLevel | undefined)[] = [undefined, "minimal", "low", "medium", "high", "xhigh"];
const RETENTIONS: readonly (CacheRetention | undefined)[] = [undefined, "none", "short", "long"];

// ---- the comparison ----

let comparisons = 0;

/** Ours vs pi-ai's for one model and request; where pi-ai refuses, we must throw PayloadError. */
async function expectSameAsReference(target: RefModel, request: PayloadRequest): Promise<void> {
  comparisons++;
  const context = structuredClone({ ...request }) as unknown as Context;
  const options = {
    reasoning: request.reasoning,
    sessionId: request.sessionId,
    cacheRetention: request.cacheRetention,
  };
  const reference = await referencePayload(target, context, options);
  const info = target as unknown as ModelInfo;
  if ("error" in reference) {
    expect(() => buildAnthropicPayload(info, request), reference.error).toThrow(PayloadError);
    return;
  }
  const ours = buildAnthropicPayload(info, request);
  expect(ours.body).toStrictEqual(reference.payload);
  expect(ours.listKey).toBe("messages");
  expect(ours.origins).toHaveLength((ours.body.messages as unknown[]).length);
}

// ---- tiny builders ----

type Source = Pick<AssistantMessage, "api" | "provider" | "model">;
const sourceOf = (m: RefModel): Source => ({ api: m.api, provider: m.provider, model: m.id });
const OPENAI: Source = { api: "openai-responses", provider: "openai", model: "gpt-5" };
const OTHER_CLAUDE: Source = { api: "anthropic-messages", provider: "anthropic", model: "claude-opus-4-1" };

const text = (t: string, textSignature?: string): TextContent => ({
  type: "text",
  text: t,
  ...(textSignature && { textSignature }),
});
const image = (mimeType = "image/png"): ImageContent => ({ type: "image", data: "iVBORw0KGgo=", mimeType });
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
  "system prompt and tools (one without properties/required)": () => ({
    systemPrompt: "You are pi.",
    tools: TOOLS,
    messages: [user("hello")],
  }),
  "empty system prompt and empty tools list": () => ({ systemPrompt: "", tools: [], messages: [user("hello")] }),
  "user blocks: text then image": () => ({ messages: [user([text("look"), image("image/jpeg")])] }),
  "user blocks: image only, last block gets the cache marker": () => ({ messages: [user([image()])] }),
  "blank user messages are skipped": () => ({
    messages: [user("   "), user([text(""), text(" \n")]), user("hi"), user([text("\t"), image()])],
  }),
  "only blank messages: empty list": () => ({ systemPrompt: "s", messages: [user(" "), user([])] }),
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
  "same-model tool call ids are kept verbatim": (m) => ({
    messages: [user("go"), assistant(sourceOf(m), [call("call_1|fc_abc")], "toolUse"), result("call_1|fc_abc")],
  }),
  "tool results: error, images, image only, empty, several texts": (m) => ({
    messages: [
      user("go"),
      assistant(sourceOf(m), [call("t1"), call("t2"), call("t3"), call("t4"), call("t5")], "toolUse"),
      result("t1", [text("boom")], true),
      result("t2", [text("see"), image()]),
      result("t3", [image(), image("image/gif")]),
      result("t4", []),
      result("t5", [text("a"), text(""), text("b")]),
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
      assistant(OTHER_CLAUDE, [thinking("plan", "sig"), thinking("  ", "sig"), text("answer")]),
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
      assistant(OTHER_CLAUDE, [thinking("[Reasoning redacted]", "opaque==", true), text("a")]),
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
  "assistant blank text blocks; an all-blank assistant is skipped": (m) => ({
    messages: [
      user("q"),
      assistant(sourceOf(m), [text(""), text("  "), text("real")]),
      assistant(sourceOf(m), [text(" ")]),
      user("q2"),
    ],
  }),
  "ends with an assistant message: no cache marker on messages": (m) => ({
    systemPrompt: "sys",
    tools: TOOLS,
    messages: [user("q"), assistant(sourceOf(m), [text("a")])],
  }),
  "unicode: emoji, CJK, RTL and lone surrogates everywhere": (m) => ({
    systemPrompt: `sys ${LONE} 🙈 ${LONE_LOW}`,
    tools: [{ name: `tool${LONE}`, description: `d${LONE_LOW}`, parameters: { type: "object", properties: {} } }],
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
      assistant(OPENAI, [call("i1")], "toolUse"),
      result("i1", [image()]),
    ],
  }),
  "tool call arguments: empty and nested": (m) => ({
    messages: [
      user("q"),
      assistant(
        sourceOf(m),
        [call("n1", "read", {}), call("n2", "bash", { deep: { list: [1, "two", null], flag: true } })],
        "toolUse",
      ),
      result("n1"),
      result("n2"),
    ],
  }),
  "session id never reaches the body": () => ({ sessionId: "session-123", messages: [user("q")] }),
};

describe("buildAnthropicPayload vs pi-ai streamSimple (anthropic-messages)", () => {
  describe.each(Object.entries(SCENARIOS))("%s", (_name, scenario) => {
    it.each(SCENARIO_MODELS.map((m) => [`${m.provider}/${m.id}`, m] as const))("%s", async (_label, target) => {
      for (const reasoning of [undefined, "high"] as const) {
        await expectSameAsReference(target, { ...scenario(target), reasoning });
      }
    });
  });

  const rich: Scenario = (m) => ({
    systemPrompt: "You are pi.",
    tools: TOOLS,
    messages: [
      user("start"),
      assistant(sourceOf(m), [thinking("plan", "sig"), text("calling"), call("toolu_01|x")], "toolUse"),
      result("toolu_01|x", [text("done"), image()]),
      assistant(OPENAI, [thinking("other plan"), call(LONG_ID)], "toolUse"),
      result(LONG_ID, [text("ok")], true),
      user([text("next"), image()]),
    ],
  });

  it.each(ANTHROPIC_API_MODELS.map((m) => [`${m.provider}/${m.id}`, m] as const))(
    "every thinking level and cache retention on %s",
    async (_label, target) => {
      for (const reasoning of LEVELS) await expectSameAsReference(target, { ...rich(target), reasoning });
      for (const cacheRetention of RETENTIONS) {
        await expectSameAsReference(target, { ...rich(target), reasoning: "medium", cacheRetention });
      }
    },
  );

  it.each(SCENARIO_MODELS.filter((m) => m.id.startsWith("variant")).map((m) => [m.id, m] as const))(
    "every thinking level and cache retention on model-data edge %s",
    async (_label, target) => {
      for (const reasoning of LEVELS) {
        for (const cacheRetention of RETENTIONS)
          await expectSameAsReference(target, { ...rich(target), reasoning, cacheRetention });
      }
    },
  );
});

// ---- property: random conversations over every anthropic-messages model ----

const textArb = fc.oneof(
  fc.string({
    unit: fc.constantFrom("a", "Z", "0", " ", "\n", "\t", "|", "-", "_", "é", "中", "🙈", LONE, LONE_LOW, "\u200F"),
    maxLength: 10,
  }),
  fc.constantFrom("", "  ", "(image omitted: model does not support images)", "(see attached image)"),
);
const idArb = fc.constantFrom(
  "toolu_01",
  "call_1|fc_2",
  "call_1|fc_3",
  LONG_ID,
  "id with space",
  `🙈${LONE}`,
  "x".repeat(64),
);
const imageArb = fc.constantFrom(image(), image("image/jpeg"));
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
      fc.constantFrom(sourceOf(target), OPENAI, OTHER_CLAUDE),
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

const caseArb = fc.constantFrom(...ANTHROPIC_API_MODELS).chain((target) =>
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

describe("property: random requests over every anthropic-messages model", () => {
  it("our body deep-equals pi-ai's", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ target, request }) =>
        expectSameAsReference(target, request as PayloadRequest),
      ),
      { numRuns: 1500 },
    );
  });
});

// ---- origins, ids, and the browser-bundle rule ----

describe("origins", () => {
  it("lists every source of a merged tool-result message and none for a synthetic result", () => {
    const messages: LlmMessage[] = [
      user("hi"),
      assistant(OPENAI, [call("c|1"), call("c|2"), call("c|3")], "toolUse"),
      result("c|1"),
      result("c|3"),
      assistant(OPENAI, [text("partial")], "aborted"),
      user("  "),
      user("next"),
    ];
    const { body, origins } = buildAnthropicPayload(sonnet45 as unknown as ModelInfo, { messages });
    expect(origins).toEqual([[0], [1], [2, 3], [6]]);
    const merged = (body.messages as { content: { tool_use_id: string; content: string }[] }[])[2]!.content;
    expect(merged.map((b) => [b.tool_use_id, b.content])).toEqual([
      ["c_1", "ok"],
      ["c_3", "ok"],
      ["c_2", "No result provided"],
    ]);
  });

  it("gives a message made only of synthetic results no origin", () => {
    const messages: LlmMessage[] = [user("hi"), assistant(OPENAI, [call("s1")], "toolUse")];
    const { origins } = buildAnthropicPayload(sonnet45 as unknown as ModelInfo, { messages });
    expect(origins).toEqual([[0], [1], []]);
  });
});

describe("normalizeAnthropicToolCallId", () => {
  it("replaces characters outside [A-Za-z0-9_-] per UTF-16 unit and keeps 64 of them", () => {
    expect(normalizeAnthropicToolCallId("call_1|fc_2")).toBe("call_1_fc_2");
    expect(normalizeAnthropicToolCallId("a🙈b")).toBe("a__b");
    expect(normalizeAnthropicToolCallId(LONG_ID)).toHaveLength(64);
  });
});

describe("Cloudflare AI Gateway without its environment", () => {
  it("pi-ai refuses before onPayload; we still build the body, which does not depend on the URL", async () => {
    const target = model("cloudflare-ai-gateway", "claude-sonnet-4-5");
    delete process.env.CLOUDFLARE_ACCOUNT_ID;
    try {
      const reference = await referencePayload(target, { messages: [user("q")] } as unknown as Context);
      expect(reference).toEqual({ error: expect.stringContaining("CLOUDFLARE_ACCOUNT_ID") });
    } finally {
      pinEnvironment();
    }
    const ours = buildAnthropicPayload(target as unknown as ModelInfo, { messages: [user("q")] });
    expect(ours.body.model).toBe("claude-sonnet-4-5");
  });
});

describe("browser bundle", () => {
  it("the provider modules import nothing from pi or a provider SDK", () => {
    for (const file of ["anthropic.ts", "anthropic-messages.ts"]) {
      const source = readFileSync(new URL(`../../src/core/providers/${file}`, import.meta.url), "utf8");
      expect(source).not.toMatch(/from\s+["'](@mariozechner|@anthropic-ai)\//);
    }
  });
});

afterAll(() => {
  // Visible in the run log: how many model/request pairs were compared with pi-ai.
  console.info(`anthropic differential: ${comparisons} comparisons with pi-ai`);
});
