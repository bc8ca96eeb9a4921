/**
 * The page's snapshot viewer: the session worker reads and holds the snapshot, and the page does the work itself
 * whenever the worker cannot (none runs, or a new one does not hold the snapshot) — the person always gets it.
 */
import { describe, expect, it } from "vitest";
import { PI_DEFAULTS } from "../../src/core/project/rules.ts";
import { createSnapshotFor } from "../../src/core/snapshot/create.ts";
import { DEFAULT_CHOICES, exportWith, reviewSnapshot, snapshotJson } from "../../src/core/snapshot/export.ts";
import type { Snapshot } from "../../src/core/snapshot/schema.ts";
import { SnapshotViewer, type SnapshotHolder } from "../../src/ui/share/opened-snapshot.svelte.ts";
import { WorkerStoppedError } from "../../src/worker/client.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import { SnapshotNotHeldError, WorkerAnswerError } from "../../src/worker/answer-errors.ts";
import { header, image, session, text, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";

function snapshotOf(words: string): Snapshot {
  const screenshot = `iVBORw0KGgo${"A".repeat(3989)}`;
  const tree = ourSession(
    session(header({ id: words }), user("u1", null, [text(words), image(screenshot)])),
    `${words}.jsonl`,
  );
  const made = createSnapshotFor(tree, tree.defaultLeaf!, PI_DEFAULTS, "anthropic/claude-sonnet-4-5", {
    createdAt: "2026-02-03T04:05:06.000Z",
  });
  if (!made.ok) throw new Error(made.error);
  return exportWith(reviewSnapshot(made.value), { ...DEFAULT_CHOICES, keepImages: true });
}

const fileOf = (snapshot: Snapshot, name: string) => ({ file: new Blob([snapshotJson(snapshot)]), name });
const bodyJson = (snapshot: Snapshot) => JSON.stringify(snapshot.payload.body, null, 2);

/**
 * The in-process worker, with a record of what it was asked, a switch that makes it fail as a stopped one, and
 * one that makes it fail as a worker does on a request it cannot answer.
 */
function worker() {
  const client = createInProcessClient();
  const asked: string[] = [];
  let stopped = false;
  let failing: Error | undefined;
  const answer = <T>(name: string, work: () => Promise<T>): Promise<T> => {
    asked.push(name);
    if (stopped) return Promise.reject(new WorkerStoppedError("gone", "The session worker stopped (gone)."));
    return failing ? Promise.reject(failing) : work();
  };
  const holder: SnapshotHolder = {
    openSnapshot: (source) => answer("open", () => client.openSnapshot(source)),
    snapshotItems: (id, start, end) => answer(`items ${id}`, () => client.snapshotItems(id, start, end)),
    snapshotJson: (id, item) => answer(`json ${id}`, () => client.snapshotJson(id, item)),
    snapshotFile: (id) => answer(`file ${id}`, () => client.snapshotFile(id)),
    closeSnapshot: (id) => answer(`close ${id}`, () => client.closeSnapshot(id)),
  };
  return { holder, asked, client, stop: () => (stopped = true), fail: (error: Error) => (failing = error) };
}

describe("SnapshotViewer", () => {
  it("asks the worker for what the view does not hold: items, JSON, the file", async () => {
    const { holder, asked } = worker();
    const viewer = new SnapshotViewer(holder);
    const snapshot = snapshotOf("hello");
    await viewer.openFile(fileOf(snapshot, "hello.json"));
    expect(viewer.current).toMatchObject({ ok: true, source: "hello.json", listLength: 1 });
    expect(await viewer.payloadJson()).toBe(bodyJson(snapshot));
    expect(await (await viewer.payloadFile()).text()).toBe(bodyJson(snapshot));
    expect(await viewer.payloadItems(0, 1)).toHaveLength(1);
    expect(asked).toEqual(["open", "json 1", "file 1", "items 1"]);
    viewer.close();
    expect(viewer.current).toBeUndefined();
    expect(asked.at(-1)).toBe("close 1");
  });

  it("reads the snapshot on the page when no worker answers", async () => {
    const { holder, stop } = worker();
    stop();
    const viewer = new SnapshotViewer(holder);
    const snapshot = snapshotOf("alone");
    await viewer.openFile(fileOf(snapshot, "alone.json"));
    expect(viewer.current).toMatchObject({ ok: true, source: "alone.json" });
    expect(await viewer.payloadJson()).toBe(bodyJson(snapshot));
  });

  it("reads the snapshot again on the page when the worker that held it is gone", async () => {
    const { holder, stop } = worker();
    const viewer = new SnapshotViewer(holder);
    const snapshot = snapshotOf("restarted");
    await viewer.openFile(fileOf(snapshot, "restarted.json"));
    stop();
    expect(await (await viewer.payloadFile()).text()).toBe(bodyJson(snapshot));
    expect(await viewer.payloadJson(0)).toBe(
      JSON.stringify((snapshot.payload.body[snapshot.payload.listKey] as unknown[])[0], null, 2),
    );
  });

  it("reads the snapshot again on the page when a new worker does not hold it", async () => {
    const { holder, client } = worker();
    const viewer = new SnapshotViewer(holder);
    const snapshot = snapshotOf("forgotten");
    await viewer.openFile(fileOf(snapshot, "forgotten.json"));
    await client.closeSnapshot(1); // as a restarted worker: it holds nothing
    await expect(client.snapshotJson(1, undefined)).rejects.toThrow(SnapshotNotHeldError);
    expect(await viewer.payloadJson()).toBe(bodyJson(snapshot));
  });

  it("reads the snapshot on the page when no worker can be started any more", async () => {
    const { holder, fail } = worker();
    const viewer = new SnapshotViewer(holder);
    const snapshot = snapshotOf("no worker");
    await viewer.openFile(fileOf(snapshot, "no-worker.json"));
    fail(new Error("The session worker could not be started (x). Reload the page to try again."));
    expect(await viewer.payloadJson()).toBe(bodyJson(snapshot));
  });

  it("reports any other failure of the worker as it is, without reading the snapshot again on the page", async () => {
    const { holder, asked, fail } = worker();
    const viewer = new SnapshotViewer(holder);
    await viewer.openFile(fileOf(snapshotOf("too big"), "big.json"));
    fail(new WorkerAnswerError("Invalid string length"));
    await expect(viewer.payloadJson()).rejects.toThrow("Invalid string length");
    await expect(viewer.payloadFile()).rejects.toThrow("Invalid string length");
    // Asked of the worker each time, never of the page (whose holder is not recorded here): no "open" again.
    expect(asked).toEqual(["open", "json 1", "file 1"]);
  });

  it("shows the snapshot opened last when two are opened at once, and lets the other go", async () => {
    const { holder, asked } = worker();
    // The first file's answer lands after the second's (a larger file, read for longer).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: SnapshotHolder = {
      ...holder,
      openSnapshot: async (source) => {
        const read = holder.openSnapshot(source);
        if ("name" in source && source.name === "first.json") await held;
        return read;
      },
    };
    const viewer = new SnapshotViewer(slow);
    const first = snapshotOf("first");
    const second = snapshotOf("second");
    const opening = viewer.openFile(fileOf(first, "first.json"));
    await viewer.openFile(fileOf(second, "second.json"));
    release();
    await opening;
    expect(viewer.current).toMatchObject({ ok: true, source: "second.json" });
    expect(await viewer.payloadJson()).toBe(bodyJson(second));
    expect(viewer.opening).toBe(false);
    // The first one's answer came too late to be shown: the worker is told it may let it go.
    expect(asked).toContain("close 1");
  });

  it("says why a file is not a snapshot", async () => {
    const viewer = new SnapshotViewer(worker().holder);
    await viewer.openFile({ file: new Blob(["{}"]), name: "empty.json" });
    expect(viewer.current).toMatchObject({ ok: false, source: "empty.json" });
    await expect(viewer.payloadJson()).rejects.toThrow("there is no snapshot open");
  });
});
