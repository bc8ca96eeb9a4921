/**
 * The library's storage of opened files, with IndexedDB stood in for by a map whose session stores can be held
 * back: what a person does while a file is still being stored must hold when the store lands.
 */
import { describe, expect, it, vi } from "vitest";
import { JOB_ROW_DELAY_MS, LIST_EVERY_MS, LibraryState } from "../../src/ui/state/library.svelte.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import { pickedSession } from "../support/build.ts";
import { holdLoads } from "../support/held-loads.ts";

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
    const { client: slowed, held, cancelled } = holdLoads(createInProcessClient(), (name) => name.startsWith("slow"));
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
    expect(cancelled()).toBe(1);
    expect(library.jobs).toEqual([]);
    expect(library.sessions.map((s) => s.fileName)).toEqual(["quick.jsonl", "slow-a.jsonl"]);
  });

  it("lists a batch's first session at once and the next ones together, a few times a second", async () => {
    stored.clear();
    storing = Promise.resolve();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const { client, held } = holdLoads(createInProcessClient(), () => true);
      const library = new LibraryState(client, 1e12);
      const names = ["a", "b", "c", "d"].map((n) => `${n}.jsonl`);
      const opening = library.open(names.map((name) => pickedSession(name, name)));
      const listed = () => library.sessions.map((s) => s.fileName);
      const step = () => vi.advanceTimersByTimeAsync(1);
      await step();
      expect(held).toHaveLength(4);
      held.shift()!();
      await step();
      expect(listed()).toEqual(["a.jsonl"]);
      expect(library.batches[0]!.done).toBe(1);
      held.shift()!();
      held.shift()!();
      await step();
      expect(listed()).toEqual(["a.jsonl"]); // opened, held back with the count until the list's next turn
      expect(library.batches[0]!.done).toBe(1);
      await vi.advanceTimersByTimeAsync(LIST_EVERY_MS);
      expect(listed()).toEqual(["a.jsonl", "b.jsonl", "c.jsonl"]);
      expect(library.batches[0]!.done).toBe(3);
      held.shift()!();
      await step();
      const opened = await opening;
      expect(opened.map((s) => s.fileName)).toEqual(names);
      expect(listed()).toEqual(names);
    } finally {
      vi.useRealTimers();
    }
  });

  it("cancels every file of a batch, also those too new to have a row", async () => {
    stored.clear();
    storing = Promise.resolve();
    const { client: stuck, cancelled } = holdLoads(createInProcessClient(), () => true); // never released
    const library = new LibraryState(stuck, 1e12);
    const opening = library.open(
      [pickedSession("a.jsonl", "a"), pickedSession("b.jsonl", "b"), pickedSession("c.jsonl", "c")],
      2,
    );
    await vi.waitFor(() => expect(library.batches).toHaveLength(1));
    expect(library.jobs).toEqual([]);
    library.batches[0]!.cancel();
    await opening;
    expect(cancelled()).toBe(2);
    expect(library.sessions).toEqual([]);
    expect(library.notices.map((n) => n.text).join("\n")).toMatch(/cancel/i);
  });
});
