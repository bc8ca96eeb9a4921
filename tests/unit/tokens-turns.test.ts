/**
 * The `tokens --turns` estimators: neither may read the turn's own usage or anything after it; standalone uses
 * recorded usage only for the system prompt and tools (from the earliest request of the same model).
 */
import { describe, expect, it } from "vitest";
import { TokenCounter } from "../../src/core/tokens/count.ts";
import { estimateTurns, turnEstimates, turnFeatures } from "../../src/core/tokens/estimate.ts";
import { FAMILY_COEFFICIENTS } from "../../src/core/tokens/family.ts";
import { recordedTurns } from "../../src/core/tokens/turns.ts";
import { assistant, header, session, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";
import { PROMPTS, recordingTokenizer, toolLoopSession, usage } from "./tokens-fixtures.ts";

const counter = () => new TokenCounter({ claude: recordingTokenizer("claude"), o200k: recordingTokenizer("o200k") });
const estimates = (text: string) => estimateTurns(ourSession(text), counter());

describe("estimateTurns", () => {
  it("lists every recorded turn with its exact prompt size, and nothing for the first request of a model", () => {
    const turns = estimates(toolLoopSession());
    expect(turns.map((t) => [t.turn.id, t.actual])).toEqual([
      ["a1", PROMPTS[0]],
      ["a2", PROMPTS[1]],
      ["a3", PROMPTS[2]],
      ["a4", PROMPTS[3]],
    ]);
    expect(turns[0]).toMatchObject({ standalone: null, anchored: null });
    for (const t of turns.slice(1)) {
      expect(t.standalone).not.toBeNull();
      expect(t.anchored).not.toBeNull();
    }
  });

  it("gives each turn as soon as it is measured, before the later turns' requests are counted", () => {
    const claude = recordingTokenizer("claude");
    const turns = turnEstimates(ourSession(toolLoopSession()), new TokenCounter({ claude }));
    expect(turns.next().value).toMatchObject({ actual: PROMPTS[0] });
    const lastQuestion = "Thanks. Which fix matters most?";
    expect(claude.seen.some((text) => text.includes(lastQuestion))).toBe(false);
    expect([...turns].map((t) => t.actual)).toEqual(PROMPTS.slice(1));
    expect(claude.seen.some((text) => text.includes(lastQuestion))).toBe(true);
  });

  it("never reads a turn's own usage or any later one", () => {
    const base = estimates(toolLoopSession());
    for (let k = 0; k < PROMPTS.length; k += 1) {
      const changed = PROMPTS.map((p, i) => (i >= k ? p * 3 + 17 : p));
      const other = estimates(toolLoopSession(changed));
      for (let i = 0; i <= k; i += 1) {
        expect(other[i]!.standalone).toBe(base[i]!.standalone);
        expect(other[i]!.anchored).toBe(base[i]!.anchored);
      }
    }
  });

  it("anchors on the previous request: its size, its reply at the recorded output, and the estimated rest", () => {
    const turns = estimates(toolLoopSession());
    const c = FAMILY_COEFFICIENTS.claude;
    // a2's request = a1's request + a1's reply (60 output tokens, recorded) + the tool result r1.
    const resultText = "# Demo\n" + "The demo project shows how a session is projected. ".repeat(40);
    const expected = PROMPTS[0] + 60 + c.claude * Math.ceil(resultText.length / 4) + c.framing;
    expect(turns[1]!.anchored).toBe(Math.round(expected));
    // Standalone prices a1's reply through the tokenizer instead, so it differs.
    expect(turns[1]!.standalone).not.toBe(turns[1]!.anchored);
  });

  it("uses earlier usage: a different first request moves every later estimate by the same amount", () => {
    const base = estimates(toolLoopSession());
    const shifted = estimates(toolLoopSession([PROMPTS[0] + 500, ...PROMPTS.slice(1)]));
    expect(shifted[1]!.standalone! - base[1]!.standalone!).toBe(500);
    expect(shifted[3]!.standalone! - base[3]!.standalone!).toBe(500);
    expect(shifted[1]!.anchored! - base[1]!.anchored!).toBe(500);
    expect(shifted[3]!.anchored).toBe(base[3]!.anchored); // anchored on a3, which did not move
  });

  it("does not anchor across a compaction (falls back to the earliest request of the model)", () => {
    const tree = ourSession(toolLoopSession(PROMPTS, true));
    const features = turnFeatures(tree, counter());
    const a4 = features.find((f) => f.turn.id === "a4")!;
    expect(a4.previous).toBeUndefined();
    expect(a4.first).toBe(0);
  });

  it("takes the system prompt and tools from the first request since a resume (a pause of over 30 minutes)", () => {
    const resumed = (timestamp: string) =>
      session(
        header(),
        user("u1", null, "hi"),
        assistant("a1", "u1", "hello", { usage: usage(3000, 10) }),
        { ...user("u2", "a1", "back again"), timestamp },
        assistant("a2", "u2", "welcome back", { usage: usage(3500, 10) }),
        user("u3", "a2", "go on"),
        assistant("a3", "u3", "going", { usage: usage(3600, 10) }),
      );
    const a3 = (text: string) => turnFeatures(ourSession(text), counter()).find((f) => f.turn.id === "a3")!;
    // Hours after a1: pi was restarted before u2, so a2 is the first request with the system prompt a3 was sent.
    expect(a3(resumed("2026-06-01T12:00:00.000Z"))).toMatchObject({ first: 1, previous: 1 });
    // A timestamp that does not parse is no pause.
    expect(a3(resumed("noon, the next day"))).toMatchObject({ first: 0, previous: 1 });
  });

  it("takes the system prompt size only from a request of the same model", () => {
    const text = session(
      header(),
      user("u1", null, "hi"),
      assistant("a1", "u1", "hello", {
        provider: "openai",
        model: "gpt-5.2",
        api: "openai-responses",
        usage: usage(3000, 10),
      }),
      user("u2", "a1", "and now?"),
      assistant("a2", "u2", "still here", { usage: usage(4000, 10) }),
      user("u3", "a2", "once more"),
      assistant("a3", "u3", "yes", { usage: usage(4100, 10) }),
    );
    const turns = estimates(text);
    expect(turns.map((t) => t.standalone === null)).toEqual([true, true, false]);
    expect(turns.map((t) => t.anchored === null)).toEqual([true, true, false]);
  });

  it("skips turns whose usage measures no request", () => {
    const text = session(
      header(),
      user("u1", null, "hi"),
      assistant("a1", "u1", "oops", { stopReason: "error", usage: usage(900, 1) }),
      user("u2", "a1", "hi again"),
      assistant("a2", "u2", "hello", { usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 } }),
      assistant("a3", "a2", "hello", {
        provider: "ollama",
        model: "qwen3",
        api: "openai-completions",
        usage: usage(4096, 10),
      }),
    );
    expect(recordedTurns(ourSession(text))).toEqual([]);
  });
});
