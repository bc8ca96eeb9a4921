/**
 * The worker seam through its in-process twin: slices, progress, cancel, details, search, latest-wins; and a long
 * payload list, of which the answer carries the first items and the page reads the rest by range.
 */
import { describe, expect, it } from "vitest";
import { PI_DEFAULTS } from "../../src/core/project/rules.ts";
import { searchEntries } from "../../src/core/session/filter.ts";
import { codedString } from "../../src/worker/coded-strings.ts";
import { ProtocolClient } from "../../src/worker/client.ts";
import { SessionEngine } from "../../src/worker/engine.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import { TEXT_STAND_IN_CHARS } from "../../src/core/text-stand-in.ts";
import { pageItemsOf, payloadForPage } from "../../src/worker/page-payload.ts";
import { projectFor } from "../../src/worker/projection.ts";
import type { LoadProgress, Response } from "../../src/worker/protocol.ts";
import { VARIANTS } from "../fixtures/variants.ts";
import { assistant, header, session, toolCall, toolResult, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";

const blob = (text: string) => new Blob([text]);

describe("SessionClient (in-process twin)", () => {
  it("loads a file in slices with progress and summarises it", async () => {
    const client = createInProcessClient({ sliceBytes: 64 });
    const progress: LoadProgress[] = [];
    const summary = await client.load("s1", blob(VARIANTS["branches"]!), "branches.jsonl", (p) => progress.push(p))
      .done;
    expect(progress.length).toBeGreaterThan(5);
    expect(progress.at(-1)!.bytesRead).toBe(progress.at(-1)!.bytesTotal);
    expect(summary).toMatchObject({
      key: "s1",
      fileName: "branches.jsonl",
      kind: "pi-session",
      sessionId: "sess-0001",
      cwd: "/work/demo",
      title: "Read the README please",
    });
    expect(summary.models).toEqual(["anthropic/claude-sonnet-4-5", "openai/gpt-5.1-codex"]);
    expect(summary.entries.count).toBe(13);
    expect([...summary.entries.parents].slice(0, 3)).toEqual([-1, 0, 1]);
    expect(codedString(summary.entries.kinds, 2)).toBe("user");
  });

  it("cancels a load between slices", async () => {
    const client = createInProcessClient({ sliceBytes: 16 });
    const handle = client.load("s1", blob(VARIANTS["branches"]!), "b.jsonl", () => undefined);
    handle.cancel();
    await expect(handle.done).rejects.toThrow("Loading b.jsonl was cancelled.");
  });

  it("pairs tool calls with results in entry details", async () => {
    const client = createInProcessClient();
    await client.load("s1", blob(VARIANTS["failed-turns"]!), "f.jsonl", () => undefined).done;
    const call = await client.entry("s1", 11); // a5: two tool calls, one answered
    expect(call?.toolCalls).toEqual([
      { callId: "toolu_04", name: "read", result: 12 },
      { callId: "toolu_05", name: "read", result: undefined },
    ]);
    expect((await client.entry("s1", 12))?.callEntry).toBe(11);
  });

  it("lets the latest search win and applies pi's filters", async () => {
    const client = createInProcessClient();
    await client.load("s1", blob(VARIANTS["branches"]!), "b.jsonl", () => undefined).done;
    const first = client.search("s1", "approach", "default", undefined);
    const second = client.search("s1", "approach", "user-only", undefined);
    expect(await first).toBeUndefined();
    expect([...(await second)!]).toEqual([6, 8, 11]);
    expect([...(await client.search("s1", "", "default", undefined))!]).not.toContain(0); // model_change hidden
  });

  it("skips a search that a newer one overtook while it waited", async () => {
    const posted = new Map<number, Extract<Response, { type: "search" }>>();
    const engine = new SessionEngine(
      (response) => {
        if (response.type === "search") posted.set(response.requestId, response);
      },
      () => Promise.reject(new Error("no tokenizer here")),
    );
    await engine.handle({ type: "load", requestId: 1, key: "s1", file: blob(VARIANTS["branches"]!), name: "b.jsonl" });
    const search = (requestId: number, query: string) =>
      engine.handle({ type: "search", requestId, key: "s1", query, filter: "default", leaf: undefined });
    // Typed one key after the other: the searches arrive together, and only the newest reads the session.
    await Promise.all([search(2, "a"), search(3, "ap"), search(4, "approach")]);
    expect(posted.get(2)).toMatchObject({ superseded: true });
    expect(posted.get(3)).toMatchObject({ superseded: true });
    expect(posted.get(4)?.superseded).toBeUndefined();
    const whole = searchEntries(ourSession(VARIANTS["branches"]!), "approach", "default", undefined);
    expect(whole.length).toBeGreaterThan(1);
    expect([...posted.get(4)!.matches]).toEqual([...whole]);
    // One at a time, each is answered.
    await search(5, "read");
    expect(posted.get(5)?.superseded).toBeUndefined();
    expect(posted.get(5)!.matches.length).toBeGreaterThan(0);
  });

  it("reports a request for an unknown session as an error", async () => {
    const client = createInProcessClient();
    await expect(client.entry("nope", 0)).rejects.toThrow("Session nope is not loaded.");
  });

  it("makes the payload's file in the worker: the JSON the copy gets, as a JSON Blob", async () => {
    const client = createInProcessClient();
    const summary = await client.load("s1", blob(VARIANTS["branches"]!), "branches.jsonl", () => undefined).done;
    const leaf = summary.defaultLeaf!;
    const file = await client.payloadFile("s1", leaf, PI_DEFAULTS, undefined);
    expect(file.type).toBe("application/json");
    expect(await file.text()).toBe(await client.payloadJson("s1", leaf, PI_DEFAULTS, undefined, undefined));
    await expect(client.payloadFile("s1", leaf, PI_DEFAULTS, "acme/rocket")).rejects.toThrow(
      "There is no payload here: acme/rocket is not a model",
    );
  });
});

describe("a long payload list", () => {
  // 5,000 tool results of 512 characters each (just short enough to be sent whole, not as a stand-in): about
  // 2.6 million characters of text in the main list.
  const RESULTS = 5_000;
  const long = session(
    header({ id: "long-list" }),
    user("u1", null, "read the logs"),
    ...Array.from({ length: RESULTS }, (_, i) => i + 1).flatMap((n) => [
      assistant(`a${n}`, n === 1 ? "u1" : `r${n - 1}`, [toolCall(`call_${n}`, "read", { path: `log${n}.txt` })]),
      toolResult(`r${n}`, `a${n}`, `call_${n}`, [{ type: "text", text: `${n}:`.padEnd(TEXT_STAND_IN_CHARS, "x") }]),
    ]),
    assistant("a_last", `r${RESULTS}`, "All logs read."),
  );

  it("comes with its first items, and the page reads the others by range, as the worker projected them", async () => {
    const posted: Response[] = [];
    let client: ProtocolClient | undefined = undefined;
    const engine = new SessionEngine(
      (response) => {
        posted.push(response);
        client?.receive(response);
      },
      () => Promise.reject(new Error("no tokenizer here")),
    );
    client = new ProtocolClient((request) => void engine.handle(request));
    const summary = await client.load("s", blob(long), "long.jsonl", () => undefined).done;
    const leaf = summary.defaultLeaf!;
    const model = "openai/gpt-5.1-codex";
    const answer = await client.project("s", leaf, PI_DEFAULTS, model);
    if (!answer?.ok) throw new Error("no projection");
    const { payload } = answer.view;
    const first = payload.body[payload.listKey] as unknown[];
    // 2.6 million characters of items: the answer carries the first million or so, and says how many there are.
    expect(payload.listLength).toBe(RESULTS * 2 + 2);
    expect(first.length).toBeGreaterThan(100);
    expect(first.length).toBeLessThan(payload.listLength / 2);

    const tree = ourSession(long);
    const projected = projectFor(tree, leaf, PI_DEFAULTS, model);
    if (!projected.ok) throw new Error(projected.error);
    const whole = projected.value.payload;
    const all = pageItemsOf(whole, 0, payload.listLength);
    expect(first).toEqual(all.slice(0, first.length));
    // Any range reads the same items; the rest of the body is all there.
    const end = payload.listLength;
    expect(await client.payloadItems("s", leaf, PI_DEFAULTS, model, end - 300, end)).toEqual(all.slice(end - 300));
    expect(await client.payloadItems("s", leaf, PI_DEFAULTS, model, 5, 5)).toEqual([]);
    const { [payload.listKey]: _list, ...rest } = payload.body;
    const { [payload.listKey]: _wholeList, ...wholeRest } = payloadForPage(whole, Infinity).body;
    expect(rest).toEqual(wholeRest);
    await expect(client.payloadItems("s", leaf, PI_DEFAULTS, model, end - 1, end + 1)).rejects.toThrow(
      `The payload has no items ${end - 1}–${end + 1} (it has ${end}).`,
    );
    expect(posted.filter((r) => r.type === "project")).toHaveLength(1);
  });

  it("comes whole when it is short", () => {
    const tree = ourSession(long);
    const projected = projectFor(tree, tree.defaultLeaf!, PI_DEFAULTS, "openai/gpt-5.1-codex");
    if (!projected.ok) throw new Error(projected.error);
    const page = payloadForPage(projected.value.payload, Infinity);
    expect((page.body[page.listKey] as unknown[]).length).toBe(page.listLength);
  });
});
