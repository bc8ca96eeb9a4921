/**
 * Differential tests: our OpenAI Responses builders (openai-responses, openai-codex-responses,
 * azure-openai-responses) against the body pi-ai 0.73.1 hands to `onPayload`.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Api, Context, Model } from "@mariozechner/pi-ai";
import type {
  AssistantMessage,
  CacheRetention,
  LlmMessage,
  ModelInfo,
  PayloadRequest,
  PayloadResult,
  ThinkingLevel,
  ToolDefinition,
  ToolResultMessage,
} from "../../src/core/llm/types.ts";
import { PayloadError } from "../../src/core/llm/types.ts";
import { buildAzureOpenAIResponsesPayload } from "../../src/core/providers/azure-openai-responses.ts";
import { buildOpenAICodexResponsesPayload } from "../../src/core/providers/openai-codex-responses.ts";
import { buildOpenAIResponsesPayload } from "../../src/core/providers/openai-responses.ts";
import { allReferenceModels, referenceModel, referencePayload } from "../reference/pi.ts";

/** pi-ai reads these; our builders assume they are unset, so the reference must not see them either. */
const PI_AI_ENV = [
  "PI_CACHE_RETENTION",
  "AZURE_OPENAI_BASE_URL",
  "AZURE_OPENAI_RESOURCE_NAME",
  "AZURE_OPENAI_DEPLOYMENT_NAME_MAP",
  "AZURE_OPENAI_API_VERSION",
  "CLOUDFLARE_ACCOUNT_ID",
  "CLOUDFLARE_GATEWAY_ID",
];
beforeAll(() => {
  for (const name of PI_AI_ENV) vi.stubEnv(name, undefined);
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const APIS = ["openai-responses", "openai-codex-responses", "azure-openai-responses"] as const;

function build(model: ModelInfo, request: PayloadRequest): PayloadResult {
  switch (model.api) {
    case "openai-responses":
      return buildOpenAIResponsesPayload(model, request);
    case "openai-codex-responses":
      return buildOpenAICodexResponsesPayload(model, request);
    case "azure-openai-responses":
      return buildAzureOpenAIResponsesPayload(model, request);
    default:
      throw new Error(`not a Responses model: ${model.api}`);
  }
}

/** How many comparisons saw a body and how many an error, per API (so a test cannot pass on errors alone). */
const outcomes = new Map<string, { bodies: number; errors: number }>();

function countOutcome(api: string, kind: "bodies" | "errors"): void {
  const entry = outcomes.get(api) ?? { bodies: 0, errors: 0 };
  entry[kind]++;
  outcomes.set(api, entry);
}

/** Asserts our body deep-equals pi-ai's (or that we throw PayloadError where it fails) and origins line up. */
async function expectSameAsPi(model: ModelInfo, request: PayloadRequest): Promise<void> {
  const context = { systemPrompt: request.systemPrompt, messages: request.messages, tools: request.tools } as Context;
  const options = {
    reasoning: request.reasoning,
    sessionId: request.sessionId,
    cacheRetention: request.cacheRetention,
  };
  const reference = await referencePayload(model as Model<Api>, context, options);
  if ("error" in reference) {
    expect(() => build(model, request), `pi-ai failed: ${reference.error}`).toThrow(PayloadError);
    countOutcome(model.api, "errors");
    return;
  }
  const ours = build(model, request);
  expect(ours.body).toStrictEqual(reference.payload);
  expect(ours.listKey).toBe("input");
  const input = ours.body["input"] as unknown[];
  expect(ours.origins.length).toBe(input.length);
  for (const origin of ours.origins) for (const i of origin) expect(i).toBeLessThan(request.messages.length);
  countOutcome(model.api, "bodies");
}

function model(provider: string, id: string): ModelInfo {
  const found = referenceModel(provider, id);
  if (!found) throw new Error(`no pi-ai model ${provider}/${id}`);
  return found as unknown as ModelInfo;
}

/** A built-in model with a usable base URL, so pi-ai gets as far as the body. */
const withBaseUrl = (m: ModelInfo, baseUrl: string): ModelInfo => ({ ...m, baseUrl });

const responsesModels = allReferenceModels().filter((m) =>
  (APIS as readonly string[]).includes(m.api),
) as unknown as ModelInfo[];

// ----- tiny builders -----
type Source = Pick<AssistantMessage, "api" | "provider" | "model">;
const sourceOf = (m: ModelInfo): Source => ({ api: m.api, provider: m.provider, model: m.id });
const ANTHROPIC: Source = { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" };
const CODEX: Source = { api: "openai-codex-responses", provider: "openai-codex", model: "gpt-5.2" };
const OPENAI_GPT5: Source = { api: "openai-responses", provider: "openai", model: "gpt-5" };

const user = (content: string | LlmMessage["content"]): LlmMessage =>
  ({ role: "user", content, timestamp: 1 }) as LlmMessage;
const assistant = (
  source: Source,
  content: AssistantMessage["content"],
  stopReason: AssistantMessage["stopReason"] = "stop",
): LlmMessage => ({
  role: "assistant",
  ...source,
  content,
  stopReason,
  timestamp: 2,
});
const text = (t: string, textSignature?: string) => ({
  type: "text" as const,
  text: t,
  ...(textSignature !== undefined ? { textSignature } : {}),
});
const thinking = (t: string, thinkingSignature?: string, redacted?: boolean) => ({
  type: "thinking" as const,
  thinking: t,
  ...(thinkingSignature !== undefined ? { thinkingSignature } : {}),
  ...(redacted ? { redacted } : {}),
});
const call = (id: string, name = "read", args: Record<string, unknown> = { path: "a.ts" }) => ({
  type: "toolCall" as const,
  id,
  name,
  arguments: args,
});
const result = (toolCallId: string, content: ToolResultMessage["content"], isError = false): LlmMessage => ({
  role: "toolResult",
  toolCallId,
  toolName: "read",
  content,
  isError,
  timestamp: 3,
});
const image = (data = "iVBORw0KGgo=", mimeType = "image/png") => ({ type: "image" as const, data, mimeType });
const reasoningItem = (id: string) =>
  JSON.stringify({
    type: "reasoning",
    id,
    summary: [{ type: "summary_text", text: "plan" }],
    encrypted_content: "enc",
  });
const v1 = (id: string, phase?: string) => JSON.stringify({ v: 1, id, ...(phase ? { phase } : {}) });

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

/** Conversations as seen by a given target model (so "same model" can be expressed). */
const CONVERSATIONS: Record<string, (target: ModelInfo) => LlmMessage[]> = {
  "plain string user": () => [user("hello")],
  "array user content with images": () => [
    user([text("look"), image(), image("R0lGOD", "image/gif"), text("")]),
    user([]),
  ],
  "same-model turn with reasoning, v1 text signature and paired call": (t) => [
    user("fix it"),
    assistant(
      sourceOf(t),
      [thinking("plan", reasoningItem("rs_1")), text("on it", v1("msg_abc", "commentary")), call("call_1|fc_1")],
      "toolUse",
    ),
    result("call_1|fc_1", [text("file body")]),
    assistant(sourceOf(t), [text("done", v1("msg_def", "final_answer")), text("more", v1("msg_x", "weird"))]),
    user("thanks"),
  ],
  "legacy, long, malformed and empty text signatures": (t) => [
    user("hi"),
    assistant(sourceOf(t), [
      text("a", "msg_legacy"),
      text("b", "m".repeat(80)),
      text("c", "{not json"),
      text("d", ""),
      text("e", '{"v":2,"id":"x"}'),
      text("f", v1("i".repeat(70))),
    ]),
    user([]),
    assistant(sourceOf(t), [text("unsigned"), thinking("no signature"), thinking("", "")]),
  ],
  "ids without a pipe and with odd characters": (t) => [
    user("go"),
    assistant(
      sourceOf(t),
      [
        call("plain_id"),
        call("call.with spaces!|fc_item/1"),
        call(`${"x".repeat(70)}|${"y".repeat(70)}`),
        call("a|b|c"),
      ],
      "toolUse",
    ),
    result("plain_id", [text("one")]),
    result("call.with spaces!|fc_item/1", [text("two")]),
    result(`${"x".repeat(70)}|${"y".repeat(70)}`, [text("three")]),
    result("a|b|c", [text("four")]),
  ],
  "calls from another provider (anthropic ids)": () => [
    user("go"),
    assistant(
      ANTHROPIC,
      [thinking("claude thought", "sig-anthropic"), text("calling"), call("toolu_01ABC"), call("toolu_02.weird!___")],
      "toolUse",
    ),
    result("toolu_01ABC", [text("ok")]),
    result("toolu_02.weird!___", [text("bad")], true),
  ],
  "calls from another model of the same API and from Codex": (t) => [
    user("go"),
    assistant(
      { ...sourceOf(t), model: `${t.id}-older` },
      [thinking("old", reasoningItem("rs_old")), call("call_9|fc_9"), call("call_8|item_8"), call("call_7|fc")],
      "toolUse",
    ),
    result("call_9|fc_9", [text("r9")]),
    result("call_8|item_8", [text("r8")]),
    result("call_7|fc", [text("r7")]),
    assistant(CODEX, [text("codex says", v1("msg_c")), call("call_c|fc_codex"), call("call_d|")], "toolUse"),
    result("call_c|fc_codex", [text("rc")]),
    assistant(OPENAI_GPT5, [call("call_e|fc_e"), thinking("", undefined, true)], "toolUse"),
    result("call_e|fc_e", [text("re")]),
  ],
  "tool results: error, images, image only, empty": (t) => [
    user("go"),
    assistant(sourceOf(t), [call("c1|fc_1"), call("c2|fc_2"), call("c3|fc_3"), call("c4|fc_4")], "toolUse"),
    result("c1|fc_1", [text("failed"), text("twice")], true),
    result("c2|fc_2", [text("see"), image(), image("AAAA", "image/jpeg")]),
    result("c3|fc_3", [image()]),
    result("c4|fc_4", []),
  ],
  "thinking from other models, redacted and empty": (t) => [
    user("q"),
    assistant(ANTHROPIC, [
      thinking("deep thought"),
      thinking("   "),
      thinking("secret", "opaque", true),
      text("answer", "sig"),
    ]),
    assistant(sourceOf(t), [thinking("", reasoningItem("rs_2")), thinking("x", reasoningItem("rs_3"), true), text("")]),
  ],
  "errored and aborted turns, orphaned calls": (t) => [
    user("go"),
    assistant(sourceOf(t), [text("partial"), call("c_err|fc_err")], "error"),
    assistant(sourceOf(t), [call("c_orphan|fc_orphan"), call("c_done|fc_done")], "toolUse"),
    result("c_done|fc_done", [text("fine")]),
    user("interrupt"),
    assistant(sourceOf(t), [thinking("t", reasoningItem("rs_a"))], "aborted"),
    assistant(ANTHROPIC, [call("toolu_end")], "toolUse"),
  ],
  "empty assistant and empty texts": (t) => [
    user(""),
    assistant(sourceOf(t), []),
    assistant(ANTHROPIC, [text("")]),
    user([text("")]),
  ],
  unicode: (t) => [
    user("emoji 😀 é \uD83D lone high, lone low \uDE00 end"),
    user([text("\uDFFF\uD800\uDC00 pair after lone")]),
    assistant(sourceOf(t), [text("reply \uD83D", v1("msg_u")), call("c_u|fc_u", "read", { s: "\uD83D😀" })], "toolUse"),
    result("c_u|fc_u", [text("out \uDC00"), image()]),
    result("c_missing", [text("stray result \uD83D")]),
  ],
  "thinking signature that is not JSON": (t) => [
    user("q"),
    assistant(sourceOf(t), [thinking("t", "not-json"), text("a")]),
  ],
};

const LEVELS: readonly (ThinkingLevel | undefined)[] = [undefined, "minimal", "low", "medium", "high", "xhigh"];
const RETENTIONS: readonly (CacheRetention | undefined)[] = [undefined, "none", "short", "long"];

const AZURE_URL = "https://example-resource.openai.azure.com/openai/v1";
const CF_URL = "https://gateway.ai.cloudflare.com/v1/acct/gw/openai";
const CASE_MODELS: readonly ModelInfo[] = [
  model("openai", "gpt-5.1-codex"),
  model("openai", "gpt-5"),
  model("openai", "gpt-4o"),
  model("openai", "o3"),
  model("openai", "gpt-4"),
  model("openai", "o3-mini"),
  model("openai", "gpt-5.2"),
  model("openai", "gpt-5-chat-latest"),
  ...responsesModels.filter((m) => m.provider === "openai-codex"),
  model("azure-openai-responses", "gpt-5.1"),
  model("azure-openai-responses", "gpt-4o"),
  withBaseUrl(model("azure-openai-responses", "gpt-5.1"), AZURE_URL),
  withBaseUrl(model("azure-openai-responses", "gpt-5.2-codex"), AZURE_URL),
  withBaseUrl(model("azure-openai-responses", "gpt-4"), "https://my.cognitiveservices.azure.com/"),
  withBaseUrl(model("azure-openai-responses", "o3-mini"), "not a url"),
  model("github-copilot", "gpt-5"),
  model("github-copilot", "gpt-5.2"),
  model("opencode", "gpt-5.1-codex"),
  model("cloudflare-ai-gateway", "gpt-4o"),
  withBaseUrl(model("cloudflare-ai-gateway", "gpt-5.4"), CF_URL),
  withBaseUrl(model("cloudflare-ai-gateway", "o3-mini"), CF_URL),
];

const label = (m: ModelInfo): string => `${m.provider}/${m.id}${m.baseUrl ? "" : " (no baseUrl)"}`;

describe("OpenAI Responses payloads match pi-ai", () => {
  describe.each(CASE_MODELS.map((m) => [label(m), m] as const))("%s", (_name, m) => {
    it("every thinking level × cache retention × session id, with system prompt and tools", async () => {
      for (const reasoning of LEVELS) {
        for (const cacheRetention of RETENTIONS) {
          for (const sessionId of [undefined, "session-1"]) {
            await expectSameAsPi(m, {
              systemPrompt: "You are pi.",
              messages: [user("hi")],
              tools: TOOLS,
              reasoning,
              sessionId,
              cacheRetention,
            });
          }
        }
      }
    });

    it.each(Object.keys(CONVERSATIONS))("conversation: %s", async (name) => {
      const messages = CONVERSATIONS[name]!(m);
      for (const systemPrompt of [undefined, "", "System \uD83D prompt 😀"]) {
        for (const tools of [undefined, [], TOOLS]) {
          await expectSameAsPi(m, { systemPrompt, messages, tools, reasoning: "high", sessionId: "s" });
        }
      }
      await expectSameAsPi(m, { messages, reasoning: "minimal", cacheRetention: "long", sessionId: "s" });
    });
  });

  it("records which request message produced each input item", () => {
    const m = model("openai", "gpt-5");
    const messages = CONVERSATIONS["errored and aborted turns, orphaned calls"]!(m);
    const { origins } = buildOpenAIResponsesPayload(m, { systemPrompt: "sys", messages });
    // system; user 0; assistant 2's two calls; result 3; synthetic result for c_orphan; user 4;
    // the anthropic call from 6 and its synthetic result (errored 1 and aborted 5 are dropped).
    expect(origins).toEqual([[], [0], [2], [2], [3], [], [4], [6], []]);
  });
});

// ----- property test -----
const unit = fc.constantFrom("a", "Z", "0", "_", "-", "|", " ", ".", "é", "😀", "\uD83D", "\uDE00", "\n", "{", '"');
const str = fc.string({ unit, maxLength: 12 });
const sourceArb = (target: ModelInfo) =>
  fc.constantFrom<Source>(
    sourceOf(target),
    { ...sourceOf(target), model: "other-model" },
    ANTHROPIC,
    CODEX,
    OPENAI_GPT5,
    {
      api: "azure-openai-responses",
      provider: "azure-openai-responses",
      model: target.id,
    },
  );
const idArb = fc.oneof(
  fc
    .tuple(
      str,
      fc.oneof(
        str,
        str.map((s) => `fc_${s}`),
      ),
    )
    .map(([a, b]) => `${a}|${b}`),
  str,
  fc.constantFrom("call_1|fc_1", "toolu_01X", "call_2|fc_2"),
);
const textSigArb = fc.option(
  fc.oneof(
    str,
    str.map((id) => v1(id)),
    fc.tuple(str, fc.constantFrom("commentary", "final_answer", "x")).map(([id, p]) => v1(id, p)),
    fc.constant("s".repeat(70)),
  ),
  { nil: undefined },
);
const thinkingSigArb = fc.option(fc.oneof(str.map(reasoningItem), fc.constant(""), fc.constant("{bad")), {
  nil: undefined,
  freq: 3,
});
const blockArb = fc.oneof(
  fc.tuple(str, textSigArb).map(([t, s]) => text(t, s)),
  fc.tuple(str, thinkingSigArb, fc.boolean()).map(([t, s, r]) => thinking(t, s, r && s !== undefined)),
  fc.tuple(idArb, fc.dictionary(str, str, { maxKeys: 2 })).map(([id, args]) => call(id, "read", args)),
);
const partArb = fc.oneof(
  str.map((t) => text(t)),
  fc.constant(image()),
);

function messageArb(
  target: ModelInfo,
): fc.Arbitrary<LlmMessage | { idRef: number; content: ToolResultMessage["content"]; isError: boolean }> {
  return fc.oneof(
    fc.oneof(str, fc.array(partArb, { maxLength: 3 })).map((c) => user(c as LlmMessage["content"])),
    fc
      .tuple(
        sourceArb(target),
        fc.array(blockArb, { maxLength: 4 }),
        fc.constantFrom<AssistantMessage["stopReason"]>("stop", "toolUse", "error", "aborted", "length"),
      )
      .map(([s, c, r]) => assistant(s, c, r)),
    fc.record({ idRef: fc.nat(), content: fc.array(partArb, { maxLength: 3 }), isError: fc.boolean() }),
  );
}

/** Turns `idRef` placeholders into results for a tool call seen earlier (or a stray id when there is none). */
function resolveResults(
  raw: readonly (LlmMessage | { idRef: number; content: ToolResultMessage["content"]; isError: boolean })[],
): LlmMessage[] {
  const ids: string[] = [];
  return raw.map((m) => {
    if ("role" in m) {
      if (m.role === "assistant") for (const b of m.content) if (b.type === "toolCall") ids.push(b.id);
      return m;
    }
    return result(ids.length > 0 ? ids[m.idRef % ids.length]! : "stray", m.content, m.isError);
  });
}

const targetArb = fc
  .constantFrom(...responsesModels)
  .chain((m) =>
    m.api === "azure-openai-responses" || m.provider === "cloudflare-ai-gateway"
      ? fc.constantFrom(m, withBaseUrl(m, m.api === "azure-openai-responses" ? AZURE_URL : CF_URL))
      : fc.constant(m),
  );

const requestArb = targetArb.chain((target) =>
  fc.record({
    target: fc.constant(target),
    messages: fc.array(messageArb(target), { maxLength: 8 }).map(resolveResults),
    systemPrompt: fc.option(str, { nil: undefined }),
    tools: fc.constantFrom(undefined, [], TOOLS),
    reasoning: fc.constantFrom(...LEVELS),
    cacheRetention: fc.constantFrom(...RETENTIONS),
    sessionId: fc.constantFrom(undefined, "sess-42"),
  }),
);

describe("property: random conversations over every Responses model", () => {
  it("our body deep-equals pi-ai's", async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async ({ target, ...request }) => {
        await expectSameAsPi(target, request);
      }),
      { numRuns: 1500 },
    );
  });

  it("compared real bodies for every API, not only errors", () => {
    for (const api of APIS) {
      const seen = outcomes.get(api);
      expect(seen?.bodies, api).toBeGreaterThan(100);
      expect(seen?.errors, api).toBeGreaterThan(0);
    }
    console.info("outcomes", Object.fromEntries(outcomes));
  });
});
