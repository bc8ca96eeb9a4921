/**
 * The library's storage of opened files, with IndexedDB stood in for by a map whose session stores can be held
 * back: what a person does while a file is still being stored must hold when the store lands.
 */
import { describe, expect, it, vi } from "vitest";
import { LibraryState } from "../../src/ui/state/library.svelte.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import { header, session, user } from "../support/build.ts";

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

const file = (name: string, id: string) => ({
  file: new Blob([session(header({ id }), user("u1", null, `From ${name}`))]),
  name,
});

describe("LibraryState", () => {
  it("does not keep for the next visit a session removed while it was being stored", async () => {
    stored.clear();
    let release = () => {};
    storing = new Promise((resolve) => (release = resolve));
    const library = new LibraryState(createInProcessClient(), 1e12);
    const opening = library.open([file("a.jsonl", "a"), file("b.jsonl", "b")]);
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
});
