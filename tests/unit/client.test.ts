/** The worker seam through its in-process twin: slices, progress, cancel, details, search, latest-wins. */
import { describe, expect, it } from "vitest";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import type { LoadProgress } from "../../src/worker/protocol.ts";
import { VARIANTS } from "../fixtures/variants.ts";

const blob = (text: string) => new Blob([text]);

describe("SessionClient (in-process twin)", () => {
  it("loads a file in slices with progress and summarises it", async () => {
    const client = createInProcessClient(64);
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
    expect(summary.entries.kinds[2]).toBe("user");
  });

  it("cancels a load between slices", async () => {
    const client = createInProcessClient(16);
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

  it("reports a request for an unknown session as an error", async () => {
    const client = createInProcessClient();
    await expect(client.entry("nope", 0)).rejects.toThrow("Session nope is not loaded.");
  });
});
