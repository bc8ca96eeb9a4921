/**
 * The page's projection state against a worker whose answers land in any order: what it shows always belongs to
 * the session and leaf the person chose last.
 */
import { describe, expect, it } from "vitest";
import { ProjectionState } from "../../src/ui/state/projection.svelte.ts";
import type { SessionClient } from "../../src/worker/client.ts";
import type { SessionTokenAccuracy } from "../../src/worker/tokens-engine.ts";

/** A promise and the hand that settles it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const flush = async () => {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
};

const accuracyOf = (median: number) =>
  ({ turns: [], report: { anchored: { median } } }) as unknown as SessionTokenAccuracy;

/** Answers that the test releases one by one: `answers.get("tokens A")` is A's token count. */
function fakeClient() {
  const calls = new Map<string, ReturnType<typeof deferred<unknown>>>();
  const ask = (name: string) => {
    const d = deferred<unknown>();
    calls.set(name, d);
    return d.promise;
  };
  const client = {
    project: (key: string) => ask(`project ${key}`),
    tokens: (key: string) => ask(`tokens ${key}`),
    accuracy: (key: string) => ask(`accuracy ${key}`),
    ruleEffects: (key: string) => ask(`effects ${key}`),
  } as unknown as SessionClient;
  const answer = async (name: string, value: unknown) => {
    const call = calls.get(name);
    if (!call) throw new Error(`nothing asked ${name}; asked: ${[...calls.keys()].join(", ")}`);
    call.resolve(value);
    await flush();
  };
  return { client, calls, answer };
}

const projection = (key: string) => ({ ok: true, key });
const tokens = (key: string) => ({ key });

describe("ProjectionState", () => {
  it("shows the accuracy of the session chosen last, whatever order the worker answers in", async () => {
    const { client, calls, answer } = fakeClient();
    const state = new ProjectionState(client, () => {});
    void state.refresh("A", 1);
    await answer("project A", projection("A"));
    // The person opens B while A's count is still on its way; B's comes first.
    void state.refresh("B", 1);
    await answer("project B", projection("B"));
    await answer("tokens B", tokens("B"));
    expect(calls.has("accuracy B")).toBe(true);
    await answer("tokens A", tokens("A"));
    // A's late count neither measures A nor asks for A's rule effects over B's.
    expect(calls.has("accuracy A")).toBe(false);
    expect(calls.has("effects A")).toBe(false);
    await answer("accuracy B", accuracyOf(0.02));
    expect(state.accuracy).toEqual(accuracyOf(0.02));
  });

  it("drops a measurement that lands after the person moved to another session", async () => {
    const { client, answer } = fakeClient();
    const state = new ProjectionState(client, () => {});
    void state.refresh("A", 1);
    await answer("project A", projection("A"));
    await answer("tokens A", tokens("A"));
    void state.refresh("B", 1);
    await answer("project B", projection("B"));
    await answer("accuracy A", accuracyOf(0.05));
    expect(state.accuracy).toBeUndefined();
    await answer("tokens B", tokens("B"));
    expect(state.tokens).toEqual(tokens("B"));
    expect(state.accuracy).toBeUndefined();
    await answer("accuracy B", accuracyOf(0.02));
    expect(state.accuracy).toEqual(accuracyOf(0.02));
  });

  it("does not show one session's accuracy beside another's tokens", async () => {
    const { client, answer } = fakeClient();
    const state = new ProjectionState(client, () => {});
    void state.refresh("A", 1);
    await answer("project A", projection("A"));
    await answer("tokens A", tokens("A"));
    await answer("accuracy A", accuracyOf(0.05));
    expect(state.accuracy).toEqual(accuracyOf(0.05));
    // B is opened, and the person moves on to another leaf of B before B's first count lands.
    void state.refresh("B", 1);
    await answer("project B", projection("B"));
    void state.refresh("B", 2);
    await answer("tokens B", tokens("B"));
    expect(state.tokens).toEqual(tokens("B"));
    expect(state.accuracy).toBeUndefined();
  });
});
