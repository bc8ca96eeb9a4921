/** Token counts through the session client (in-process twin): lazy tokenizers, cached recounts, latest count wins. */
import { describe, expect, it } from "vitest";
import { PI_DEFAULTS, type RuleSettings } from "../../src/core/project/rules.ts";
import { MEASURED_TURNS, measuredTurns, sessionAccuracy } from "../../src/core/tokens/accuracy.ts";
import { sessionTurns } from "../../src/core/tokens/anchors.ts";
import { TokenCounter } from "../../src/core/tokens/count.ts";
import { estimateFromFeatures, turnFeatures } from "../../src/core/tokens/estimate.ts";
import type { TokenizerName } from "../../src/core/tokens/tokenizer.ts";
import { loadTokenizer } from "../../src/tokens/load.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import { assistant, header, session, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";
import { longSession, PROMPTS, toolLoopSession, usage } from "./tokens-fixtures.ts";

async function client() {
  const loaded: TokenizerName[] = [];
  const sessions = createInProcessClient({}, (name) => (loaded.push(name), loadTokenizer(name)));
  await sessions.load("s1", new Blob([toolLoopSession()]), "loop.jsonl", () => undefined).done;
  return { sessions, loaded };
}

const pi: RuleSettings = PI_DEFAULTS;

describe("token counts through the session client", () => {
  it("loads only the tokenizer the model's family needs, once", async () => {
    const { sessions, loaded } = await client();
    expect(loaded).toEqual([]);
    const result = await sessions.tokens("s1", 6, pi, undefined);
    expect(loaded).toEqual(["claude"]);
    expect(result?.tokens.total).toMatchObject({ kind: "exact", value: PROMPTS[3] });
    // One number per payload item, packed for the page: together they are the messages' estimate.
    expect(result?.tokens.itemTokens).toHaveLength(7);
    expect([...result!.tokens.itemTokens].reduce((sum, t) => sum + t, 0)).toBeCloseTo(result!.tokens.messages, 6);
    await sessions.tokens("s1", 7, pi, "openai/gpt-5.2");
    expect(loaded).toEqual(["claude", "o200k"]);
  });

  it("re-counts from the cache: a second count tokenises nothing, a changed rule only what changed", async () => {
    const { sessions } = await client();
    const first = (await sessions.tokens("s1", 7, pi, undefined))!.cache;
    const second = (await sessions.tokens("s1", 7, pi, undefined))!.cache;
    expect(first.tokenizedChars).toBeGreaterThan(0);
    expect(second.misses).toBe(first.misses);
    expect(second.tokenizedChars).toBe(first.tokenizedChars);
    const changed = (await sessions.tokens("s1", 7, { ...pi, truncateToolResults: 100 }, undefined))!;
    expect(changed.cache.misses).toBeGreaterThan(second.misses);
    expect(changed.cache.misses - second.misses).toBeLessThanOrEqual(2); // the two shortened tool results
    expect(changed.tokens.total.kind).not.toBe("exact"); // no longer what pi sent
  });

  it("lets the latest count win", async () => {
    const { sessions } = await client();
    const older = sessions.tokens("s1", 5, pi, undefined);
    const newer = sessions.tokens("s1", 7, pi, undefined);
    expect(await older).toBeUndefined();
    expect((await newer)?.tokens.itemTokens).toHaveLength(8);
  });

  it("measures both estimators on the session's turns, and uses that error for calibrated totals", async () => {
    const { sessions } = await client();
    const accuracy = await sessions.accuracy("s1");
    expect(accuracy.turns.map((t) => t.actual)).toEqual([...PROMPTS]);
    // Measured a turn at a time in the worker, as the core measures them all at once.
    const counter = new TokenCounter({});
    for (const name of ["o200k", "claude"] as const) counter.add(await loadTokenizer(name));
    const tree = ourSession(toolLoopSession());
    expect(accuracy.turns).toEqual(estimateFromFeatures(turnFeatures(tree, counter)));
    expect(accuracy.report.anchored.turns).toBe(3);
    const result = await sessions.tokens("s1", 7, pi, undefined);
    expect(result?.tokens.total).toMatchObject({ kind: "calibrated", error: accuracy.report.anchored });
  });

  it("measures a spread of a long session's turns, each as measuring all of them would", async () => {
    const text = longSession(2 * MEASURED_TURNS + 7);
    const sessions = createInProcessClient({}, loadTokenizer);
    await sessions.load("long", new Blob([text]), "long.jsonl", () => undefined).done;
    const accuracy = await sessions.accuracy("long");
    const counter = new TokenCounter({});
    for (const name of ["o200k", "claude"] as const) counter.add(await loadTokenizer(name));
    const tree = ourSession(text);
    const picked = measuredTurns(sessionTurns(tree).length);
    const all = estimateFromFeatures(turnFeatures(tree, counter));
    expect(accuracy.turns).toEqual(picked.map((p) => all[p]));
    expect(accuracy.report).toEqual(sessionAccuracy(tree, counter));
    expect(accuracy.report.anchored.of).toBe(2 * MEASURED_TURNS + 7);
  });

  it("gives rule effects in tokens", async () => {
    const { sessions } = await client();
    const effects = await sessions.ruleEffects("s1", 7, pi, undefined);
    const truncate = effects?.find((e) => e.rule === "truncate-tool-results");
    expect(truncate?.tokenDelta).toBeLessThanOrEqual(0);
    expect(effects?.every((e) => typeof e.tokenDelta === "number")).toBe(true);
  });

  it("reports what is wrong", async () => {
    const { sessions } = await client();
    await expect(sessions.tokens("nope", 0, pi, undefined)).rejects.toThrow(/nope is not loaded/);
    await expect(sessions.tokens("s1", 0, pi, "acme/x")).rejects.toThrow(/acme\/x is not a model/);
    await sessions.remove("s1");
    await expect(sessions.accuracy("s1")).rejects.toThrow(/not loaded/);
  });
});

/** A client whose tokenizers take a millisecond per text (standing for a long session), counting the texts. */
function slowClient() {
  const state = { calls: 0, asked: undefined as (() => void) | undefined };
  const slow = async (name: TokenizerName) => {
    const real = await loadTokenizer(name);
    return {
      ...real,
      count: (text: string) => {
        state.calls += 1;
        const asked = state.asked;
        state.asked = undefined;
        asked?.();
        const until = performance.now() + 1;
        while (performance.now() < until);
        return real.count(text);
      },
    };
  };
  return { sessions: createInProcessClient({}, slow), state };
}

describe("a long count", () => {
  it("gives way to the person's other requests while it tokenises", async () => {
    // 300 turns take ~600 texts to count. A search asked for once counting has begun is answered long before the
    // last text is counted.
    const { sessions, state } = slowClient();
    const lines = [header({ id: "long" })];
    let parent: string | null = null;
    for (let i = 0; i < 300; i++) {
      lines.push(user(`u${i}`, parent, `question ${i}`), assistant(`a${i}`, `u${i}`, `answer ${i}`));
      parent = `a${i}`;
    }
    const summary = await sessions.load("long", new Blob([session(...lines)]), "long.jsonl", () => undefined).done;
    await sessions.tokens("long", 1, pi, undefined); // the tokenizer is loaded: the next count starts at once
    const before = state.calls;
    let callsWhenSearched: number | undefined;
    state.asked = () =>
      void sessions
        .search("long", "question 7", "all", undefined)
        .then(() => (callsWhenSearched = state.calls - before));
    await sessions.tokens("long", summary.defaultLeaf!, pi, undefined);
    const counted = state.calls - before;
    expect(counted).toBeGreaterThan(500);
    expect(callsWhenSearched).toBeDefined();
    expect(callsWhenSearched!).toBeLessThan(counted / 2);
  });

  it("gives way while it measures the estimators, within a turn", async () => {
    // Ten recorded turns, each after 40 new messages: one turn's request takes 40 new texts or more to count.
    const { sessions, state } = slowClient();
    const lines = [header({ id: "turns" })];
    let parent: string | null = null;
    for (let turn = 0; turn < 10; turn++) {
      for (let i = 0; i < 40; i++) {
        lines.push(user(`u${turn}-${i}`, parent, `question ${turn} ${i}`));
        parent = `u${turn}-${i}`;
      }
      lines.push(assistant(`a${turn}`, parent, `answer ${turn}`, { usage: usage(1000 + 100 * turn, 10) }));
      parent = `a${turn}`;
    }
    await sessions.load("turns", new Blob([session(...lines)]), "turns.jsonl", () => undefined).done;
    await sessions.tokens("turns", 0, pi, "anthropic/claude-sonnet-4-5"); // the tokenizers are loaded
    await sessions.tokens("turns", 0, pi, "openai/gpt-5.2"); // so the measuring starts at once
    const before = state.calls;
    let callsWhenSearched: number | undefined;
    state.asked = () =>
      void sessions.search("turns", "answer", "all", undefined).then(() => (callsWhenSearched = state.calls - before));
    const accuracy = await sessions.accuracy("turns");
    const counted = state.calls - before;
    expect(accuracy.turns).toHaveLength(10);
    expect(counted).toBeGreaterThan(400);
    expect(callsWhenSearched).toBeDefined();
    expect(callsWhenSearched!).toBeLessThan(counted / 4);
  });
});
