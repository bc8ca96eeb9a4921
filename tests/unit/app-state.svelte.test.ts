/**
 * The app state as the page's components read it (runes compiled: this file's name has `.svelte.`): what a
 * component reads must change only when what it shows does.
 */
import { flushSync } from "svelte";
import { describe, expect, it, vi } from "vitest";
import { AppState } from "../../src/ui/state/app.svelte.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import { pickedSession } from "../support/build.ts";

const stored = new Map<string, unknown>();
vi.mock("idb-keyval", () => ({
  get: async (key: string) => stored.get(key),
  set: async (key: string, value: unknown) => void stored.set(key, value),
  del: async (key: string) => void stored.delete(key),
}));

describe("AppState", () => {
  it("does not tell the session view of sessions listed beside the one it shows", async () => {
    const app = new AppState(createInProcessClient());
    await app.open([pickedSession("shown.jsonl", "a")]);
    const shown: (string | undefined)[] = [];
    const stop = $effect.root(() => {
      $effect(() => {
        shown.push(app.selected?.fileName);
      });
    });
    flushSync();
    expect(shown).toEqual(["shown.jsonl"]);

    await app.library.open([pickedSession("b.jsonl", "b"), pickedSession("c.jsonl", "c")]);
    flushSync();
    expect(app.library.sessions).toHaveLength(3);
    expect(shown).toEqual(["shown.jsonl"]);

    await app.select(app.library.sessions[1]!.key);
    flushSync();
    expect(shown).toEqual(["shown.jsonl", "b.jsonl"]);
    stop();
  });
});
