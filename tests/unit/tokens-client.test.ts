/** Token counts through the session client (in-process twin): lazy tokenizers, cached recounts, latest count wins. */
import { describe, expect, it } from "vitest";
import { PI_DEFAULTS, type RuleSettings } from "../../src/core/project/rules.ts";
import type { TokenizerName } from "../../src/core/tokens/tokenizer.ts";
import { loadTokenizer } from "../../src/tokens/load.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import { assistant, header, session, user } from "../support/build.ts";
import { PROMPTS, toolLoopSession } from "./tokens-fixtures.ts";

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
    expect(accuracy.report.anchored.turns).toBe(3);
    const result = await sessions.tokens("s1", 7, pi, undefined);
    expect(result?.tokens.total).toMatchObject({ kind: "calibrated", error: accuracy.report.anchored });
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

describe("a long count", () => {
  it("gives way to the person's other requests while it tokenises", async () => {
    // A tokenizer that takes a millisecond per text stands for a long uncompacted path: 300 turns take ~600 texts
    // to count. A search asked for once counting has begun is answered long before the last text is counted.
    let calls = 0;
    let asked: (() => void) | undefined;
    const slow = async (name: TokenizerName) => {
      const real = await loadTokenizer(name);
      return {
        ...real,
        count: (text: string) => {
          calls += 1;
          asked?.();
          asked = undefined;
          const until = performance.now() + 1;
          while (performance.now() < until);
          return real.count(text);
        },
      };
    };
    const sessions = createInProcessClient({}, slow);
    const lines = [header({ id: "long" })];
    let parent: string | null = null;
    for (let i = 0; i < 300; i++) {
      lines.push(user(`u${i}`, parent, `question ${i}`), assistant(`a${i}`, `u${i}`, `answer ${i}`));
      parent = `a${i}`;
    }
    const summary = await sessions.load("long", new Blob([session(...lines)]), "long.jsonl", () => undefined).done;
    await sessions.tokens("long", 1, pi, undefined); // the tokenizer is loaded: the next count starts at once
    const before = calls;
    let callsWhenSearched: number | undefined;
    asked = () =>
      void sessions.search("long", "question 7", "all", undefined).then(() => (callsWhenSearched = calls - before));
    await sessions.tokens("long", summary.defaultLeaf!, pi, undefined);
    const counted = calls - before;
    expect(counted).toBeGreaterThan(500);
    expect(callsWhenSearched).toBeDefined();
    expect(callsWhenSearched!).toBeLessThan(counted / 2);
  });
});
