/**
 * The app state as the page's components read it (runes compiled: this file's name has `.svelte.`): what a
 * component reads must change only when what it shows does.
 */
import { flushSync } from "svelte";
import { describe, expect, it, vi } from "vitest";
import { AppState } from "../../src/ui/state/app.svelte.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import { pickedSession } from "../support/build.ts";
import { holdLoads } from "../support/held-loads.ts";

const stored = new Map<string, unknown>();
vi.mock("idb-keyval", () => ({
  get: async (key: string) => stored.get(key),
  getMany: async (keys: string[]) => keys.map((key) => stored.get(key)),
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

  /** Three sessions saved with c.jsonl shown; the page starts again at `hash` while a and b are still being read. */
  async function restartWithCShown(hash: string) {
    stored.clear();
    const before = new AppState(createInProcessClient());
    await before.open(["a", "b", "c"].map((n) => pickedSession(`${n}.jsonl`, n)));
    // The page saves what it shows (App.svelte); here it is saved by hand.
    await before.library.saveSelection({ key: before.library.sessions.find((s) => s.fileName === "c.jsonl")!.key });
    const { client, held } = holdLoads(createInProcessClient(), (name) => name !== "c.jsonl");
    const app = new AppState(client);
    const starting = app.start(hash, () => Promise.reject(new Error("not a first visit")));
    await vi.waitFor(() => expect(held).toHaveLength(2));
    const listed = () => app.library.sessions.map((s) => s.fileName);
    const readTheRest = async () => {
      held.splice(0).forEach((release) => release());
      await starting;
      expect(listed()).toEqual(["a.jsonl", "b.jsonl", "c.jsonl"]); // in the order they were listed before
    };
    return { app, listed, readTheRest };
  }

  it.each(["", "#session=c.jsonl"])(
    "shows the session shown last time before the other saved sessions are read (link %j)",
    async (hash) => {
      const { app, listed, readTheRest } = await restartWithCShown(hash);
      await vi.waitFor(() => expect(app.selected?.fileName).toBe("c.jsonl"));
      expect(listed()).toEqual(["c.jsonl"]);
      await readTheRest();
      expect(app.selected?.fileName).toBe("c.jsonl");
    },
  );

  it("follows a link to another session once every saved session is read", async () => {
    const { app, listed, readTheRest } = await restartWithCShown("#session=a.jsonl");
    expect(listed()).toEqual(["c.jsonl"]);
    expect(app.selected).toBeUndefined();
    await readTheRest();
    expect(app.selected?.fileName).toBe("a.jsonl");
  });
});
