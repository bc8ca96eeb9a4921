/**
 * The library's storage of opened files, with IndexedDB stood in for by a map whose session stores can be held
 * back: what a person does while a file is still being stored must hold when the store lands.
 */
import { describe, expect, it, vi } from "vitest";
import { JOB_ROW_DELAY_MS, LibraryState } from "../../src/ui/state/library.svelte.ts";
import type { SessionClient } from "../../src/worker/client.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import { pickedSession } from "../support/build.ts";

const stored = new Map<string, unknown>();
let storing: Promise<void> = Promise.resolve();

vi.mock("idb-keyval", () => ({
  get: async (key: string) => stored.get(key),
  set: async (key: string, value: unknown) => {
    if (key.startsWith("context-lens/session/")) await storing;
    stored.set(key, value);
  },
  del: async (key: string) => void stored.delete(key),
}));

describe("LibraryState", () => {
  it("does not keep for the next visit a session removed while it was being stored", async () => {
    stored.clear();
    let release = () => {};
    storing = new Promise((resolve) => (release = resolve));
    const library = new LibraryState(createInProcessClient(), 1e12);
    const opening = library.open([pickedSession("a.jsonl", "a"), pickedSession("b.jsonl", "b")]);
    await vi.waitFor(() => expect(library.sessions).toHaveLength(2));
    const removed = library.sessions.find((s) => s.fileName === "a.jsonl")!.key;
    const kept = library.sessions.find((s) => s.fileName === "b.jsonl")!.key;
    await library.remove(removed);
    release();
    await opening;
    const saved = stored.get("context-lens/library") as { sessions: { key: string }[] };
    expect(saved.sessions.map((s) => s.key)).toEqual([kept]);
    expect(stored.has(`context-lens/session/${removed}`)).toBe(false);
    expect(stored.has(`context-lens/session/${kept}`)).toBe(true);
  });

  it("gives a file a progress row only once it has been loading a while, and cancels those without one", async () => {
    stored.clear();
    storing = Promise.resolve();
    const client = createInProcessClient();
    const held: (() => void)[] = [];
    let cancelled = 0;
    // Loads of files named slow-* wait until released (or cancelled); the others go straight through.
    const slowed: SessionClient = Object.create(client, {
      load: {
        value: (...args: Parameters<SessionClient["load"]>) => {
          const handle = client.load(...args);
          if (!args[2].startsWith("slow")) return handle;
          let fail = (_: Error) => {};
          const gate = new Promise<void>((resolve, reject) => {
            held.push(resolve);
            fail = reject;
          });
          return {
            done: gate.then(() => handle.done),
            cancel: () => {
              cancelled += 1;
              fail(new Error("cancelled"));
            },
          };
        },
      },
    });
    const library = new LibraryState(slowed, 1e12);

    await library.open([pickedSession("quick.jsonl", "q")]);
    expect(library.sessions.map((s) => s.fileName)).toEqual(["quick.jsonl"]);
    expect(library.jobs).toEqual([]);

    const opening = library.open([pickedSession("slow-a.jsonl", "a"), pickedSession("slow-b.jsonl", "b")]);
    expect(library.jobs).toEqual([]);
    await vi.waitFor(() => expect(library.jobs.map((j) => j.name)).toEqual(["slow-a.jsonl", "slow-b.jsonl"]), {
      timeout: JOB_ROW_DELAY_MS * 10,
    });
    held.shift()!();
    await vi.waitFor(() => expect(library.jobs.map((j) => j.name)).toEqual(["slow-b.jsonl"]));
    library.batches[0]!.cancel();
    await opening;
    expect(cancelled).toBe(1);
    expect(library.jobs).toEqual([]);
    expect(library.sessions.map((s) => s.fileName)).toEqual(["quick.jsonl", "slow-a.jsonl"]);
  });

  it("cancels every file of a batch, also those too new to have a row", async () => {
    stored.clear();
    storing = Promise.resolve();
    const client = createInProcessClient();
    let cancelled = 0;
    const stuck: SessionClient = Object.create(client, {
      load: {
        value: () => {
          let fail = (_: Error) => {};
          const done = new Promise<never>((_, reject) => (fail = reject));
          return {
            done,
            cancel: () => {
              cancelled += 1;
              fail(new Error("cancelled"));
            },
          };
        },
      },
    });
    const library = new LibraryState(stuck, 1e12);
    const opening = library.open(
      [pickedSession("a.jsonl", "a"), pickedSession("b.jsonl", "b"), pickedSession("c.jsonl", "c")],
      2,
    );
    await vi.waitFor(() => expect(library.batches).toHaveLength(1));
    expect(library.jobs).toEqual([]);
    library.batches[0]!.cancel();
    await opening;
    expect(cancelled).toBe(2);
    expect(library.sessions).toEqual([]);
    expect(library.notices.map((n) => n.text).join("\n")).toMatch(/cancel/i);
  });
});
