/** What is prompt text in a payload item, and counting a projection with the content cache. */
import { describe, expect, it } from "vitest";
import { findModel } from "../../src/core/models/registry.ts";
import { projectLeaf, type ProjectionOptions } from "../../src/core/project/project.ts";
import { TokenCountCache } from "../../src/core/tokens/cache.ts";
import { estimateContext } from "../../src/core/tokens/context.ts";
import { countPayload, TokenCounter } from "../../src/core/tokens/count.ts";
import { projectionTokens } from "../../src/core/tokens/projection.ts";
import { itemPieces, systemPieces, toolsText } from "../../src/core/tokens/text.ts";
import { assistant, header, session, thinking, toolCall, toolResult, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";
import { recordingTokenizer, toolLoopSession } from "./tokens-fixtures.ts";

describe("itemPieces", () => {
  it("keeps text, thinking and tool arguments apart and never reads signatures, ids or cache markers", () => {
    const pieces = itemPieces({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Let me look.", signature: "SIG".repeat(50) },
        { type: "text", text: "Reading it.", cache_control: { type: "ephemeral" } },
        { type: "tool_use", id: "toolu_01ABC", name: "read", input: { path: "a.md", limit: 20 } },
      ],
    });
    expect(pieces.text).toEqual(["Reading it.", "read"]);
    expect(pieces.thinking).toEqual(["Let me look."]);
    expect(pieces.toolArgs).toEqual(["path\na.md\nlimit\n20\n"]);
    expect(pieces.opaque).toBe(150);
    expect(JSON.stringify(pieces)).not.toMatch(/toolu_01ABC|ephemeral|SIGSIG/);
  });

  it("measures OpenAI's encrypted reasoning without reading it, and keeps JSON arguments as sent", () => {
    const reasoning = itemPieces({
      type: "reasoning",
      id: "rs_1",
      summary: [{ type: "summary_text", text: "Plan." }],
      encrypted_content: "gAAAA".repeat(40),
    });
    expect(reasoning).toMatchObject({ text: [], thinking: ["Plan."], opaque: 200 });
    const call = itemPieces({
      type: "function_call",
      call_id: "call_9",
      name: "bash",
      arguments: '{"command":"ls -la"}',
    });
    expect(call).toMatchObject({ text: ["bash"], toolArgs: ['{"command":"ls -la"}'] });
  });

  it("finds images in every API's shape and skips redacted thinking", () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk";
    expect(
      itemPieces({ type: "image", source: { type: "base64", media_type: "image/png", data: png } }).images,
    ).toEqual([png]);
    expect(
      itemPieces({ type: "input_image", detail: "auto", image_url: `data:image/png;base64,${png}` }).images,
    ).toHaveLength(1);
    expect(itemPieces({ type: "image_url", image_url: { url: `data:image/png;base64,${png}` } }).images).toHaveLength(
      1,
    );
    expect(itemPieces({ parts: [{ inlineData: { mimeType: "image/png", data: png } }] }).images).toEqual([png]);
    expect(itemPieces({ image: { format: "png", source: { bytes: { 0: 137, 1: 80 } } } }).images).toHaveLength(1);
    expect(itemPieces({ type: "redacted_thinking", data: "x".repeat(300) })).toMatchObject({
      text: [],
      thinking: [],
      opaque: 300,
    });
  });

  it("reads the system prompt and tools wherever the API puts them", () => {
    expect(
      systemPieces({ system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }] }, []).text,
    ).toEqual(["Be brief."]);
    expect(systemPieces({ instructions: "Be brief." }, []).text).toEqual(["Be brief."]);
    expect(systemPieces({ config: { systemInstruction: "Be brief." } }, []).text).toEqual(["Be brief."]);
    expect(systemPieces({}, [{ role: "developer", content: "Be brief." }]).text).toEqual(["Be brief."]);
    expect(toolsText({ tools: [] })).toBe("");
    expect(toolsText({ config: { tools: [{ functionDeclarations: [{ name: "read" }] }] } })).toContain('"read"');
  });
});

describe("counting a projection", () => {
  const tree = ourSession(toolLoopSession());

  it("counts every payload item, maps it to its entries, and prices the model's own replies at their output", () => {
    const projection = projectLeaf(tree, tree.defaultLeaf!);
    if (!projection.ok) throw new Error(projection.error);
    const tokenizer = recordingTokenizer("claude");
    const counts = countPayload(projection.value, new TokenCounter({ claude: tokenizer }));
    expect(counts.items.map((i) => i.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
      "toolResult",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(counts.items[2]!.sources.map((s) => tree.entries[s]!.id)).toEqual(["r1"]);
    const context = estimateContext(projection.value, counts, { replayRecordedOutput: true });
    // Sonnet 4.5 drops thinking before the last user message, but these replies had none: all are read whole.
    expect(context.items.filter((i) => i.basis === "recorded-output").map((i) => Math.round(i.tokens))).toEqual([
      60, 40, 30, 20,
    ]);
    expect(context.messages).toBeCloseTo(context.items.reduce((s, i) => s + i.tokens, 0));
    expect(tokenizer.seen.join("\n")).not.toMatch(/toolu_|"c1"/);
  });

  it("drops earlier turns' thinking for models that do not keep it, and keeps it for those that do", () => {
    const text = session(
      header(),
      user("u1", null, "hi"),
      assistant("a1", "u1", [
        thinking("a long chain of thought ".repeat(20), "S".repeat(400)),
        { type: "text", text: "hello" },
      ]),
      user("u2", "a1", "again"),
    );
    const t = ourSession(text);
    const count = (model: string) => {
      const [provider, id] = model.split("/") as [string, string];
      const p = projectLeaf(t, t.defaultLeaf!, { model: findModel(provider, id)! });
      if (!p.ok) throw new Error(p.error);
      const counts = countPayload(p.value, new TokenCounter({ claude: recordingTokenizer("claude") }));
      return estimateContext(p.value, counts).items[1]!.tokens;
    };
    expect(count("anthropic/claude-opus-4-5")).toBeGreaterThan(count("anthropic/claude-sonnet-4-5") + 50);
  });

  it("re-tokenises only what changed when counted again (cache hits after a small change)", () => {
    const cache = new TokenCountCache();
    const tokenizer = recordingTokenizer("claude");
    const counter = new TokenCounter({ claude: tokenizer }, cache);
    const count = (leafId: string, options = {}) => {
      const p = projectLeaf(tree, tree.byId.get(leafId)!, options);
      if (!p.ok) throw new Error(p.error);
      return estimateContext(p.value, countPayload(p.value, counter));
    };
    count("u2");
    const first = cache.stats;
    tokenizer.seen.length = 0;
    count("u2"); // the same items again: counted from what is kept per item, or from the cache
    expect(cache.stats.misses).toBe(first.misses);
    expect(tokenizer.seen).toEqual([]);
    // One more message on the path: only its text is new.
    tokenizer.seen.length = 0;
    count("a4");
    expect(tokenizer.seen).toEqual(["The tree view fix."]);
    // A changed rule: only the changed text is tokenised again.
    tokenizer.seen.length = 0;
    count("a4", { truncateToolResults: 100 });
    expect(tokenizer.seen.length).toBeGreaterThan(0);
    expect(tokenizer.seen.every((t) => t.length < 400)).toBe(true);
  });

  it("keeps each set of vocabularies' counts per item, for counts of other families taking turns", () => {
    const counter = new TokenCounter({ claude: recordingTokenizer("claude"), o200k: recordingTokenizer("o200k") });
    const p = projectLeaf(tree, tree.byId.get("a4")!);
    if (!p.ok) throw new Error(p.error);
    countPayload(p.value, counter, ["claude"]);
    countPayload(p.value, counter, ["o200k"]);
    const walked = counter.misses;
    countPayload(p.value, counter, ["claude"]);
    countPayload(p.value, counter, ["o200k"]);
    expect(counter.misses).toBe(walked); // every item's counts found again, under both
  });

  it("keeps the cache bounded, dropping the least recently used counts", () => {
    const cache = new TokenCountCache(2);
    const tokenizer = recordingTokenizer("o200k");
    cache.count(tokenizer, "one");
    cache.count(tokenizer, "two");
    cache.count(tokenizer, "one");
    cache.count(tokenizer, "three");
    expect(cache.stats.size).toBe(2);
    cache.count(tokenizer, "one");
    cache.count(tokenizer, "two");
    expect(tokenizer.seen).toEqual(["one", "two", "three", "two"]);
    expect(() => new TokenCountCache(0)).toThrow(/positive capacity/);
  });

  it("counts an image whose data is not a string (pi writes none) as the URL the body holds, of unknown size", () => {
    const odd = ourSession(
      session(header(), toolResult("e0", null, "toolu_01", [{ type: "image", data: {}, mimeType: "image/png" }])),
    );
    const model = findModel("openai", "gpt-5.1-codex")!;
    const p = projectLeaf(odd, odd.defaultLeaf!, { model });
    if (!p.ok) throw new Error(p.error);
    expect(JSON.stringify(p.value.payload.body)).toContain("data:image/png;base64,[object Object]");
    const counts = countPayload(p.value, new TokenCounter({ o200k: recordingTokenizer("o200k") }), ["o200k"]);
    expect(counts.items.flatMap((item) => item.images)).toEqual([undefined]);
  });

  it("says which tokenizer is missing instead of counting without it", () => {
    const p = projectLeaf(tree, tree.defaultLeaf!);
    if (!p.ok) throw new Error(p.error);
    expect(() => countPayload(p.value, new TokenCounter({}), ["claude"])).toThrow(/claude tokenizer is not loaded/);
  });
});

describe("a calibrated total", () => {
  // Recorded prompts far smaller than the messages (usage that is not a prompt size): a rule that cuts the tool
  // results leaves out more tokens than the anchor recorded.
  const tree = ourSession(toolLoopSession([40, 50, 60, 70]));
  const counter = new TokenCounter({ claude: recordingTokenizer("claude") });
  const total = (options: ProjectionOptions) => {
    const projection = projectLeaf(tree, tree.defaultLeaf!, options);
    if (!projection.ok) throw new Error(projection.error);
    return projectionTokens(tree, projection.value, counter, { options }).total;
  };

  it("is anchored on the previous request when that holds what this one leaves out", () => {
    expect(total({})).toMatchObject({ kind: "calibrated", basis: "anchored on the recorded request on line 9" });
  });

  it("is never below zero: the request is counted on its own when the anchor holds less than it leaves out", () => {
    const cut = total({ truncateToolResults: 10 });
    expect(cut.value).toBeGreaterThan(0);
    expect(cut).toMatchObject({ kind: "estimated" });
    expect(cut.basis).toBe(
      "tokenizer; the recorded request on line 9 (70 tokens) holds less than this request is estimated to leave " +
        "out of it, so it cannot anchor this estimate",
    );
  });
});

describe("tool results of another model", () => {
  it("are counted through the tokenizer, never replayed", () => {
    const text = session(
      header(),
      user("u1", null, "list files"),
      assistant("a1", "u1", [toolCall("c1", "bash", { command: "ls" })], {
        provider: "openai",
        model: "gpt-5.2",
        api: "openai-responses",
      }),
      toolResult("r1", "a1", "c1", "a.md\nb.md"),
    );
    const t = ourSession(text);
    const p = projectLeaf(t, t.defaultLeaf!, { model: findModel("anthropic", "claude-sonnet-4-5")! });
    if (!p.ok) throw new Error(p.error);
    const context = estimateContext(
      p.value,
      countPayload(p.value, new TokenCounter({ claude: recordingTokenizer("claude") })),
      { replayRecordedOutput: true },
    );
    expect(context.items.every((i) => i.basis === "tokenizer")).toBe(true);
  });
});
