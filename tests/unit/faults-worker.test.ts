/**
 * The worker client when its worker stops: requests in flight fail (loads) or give way (view questions), a new
 * worker reads the loaded sessions again (stored copy first), newer requests wait for it, the interrupted file is
 * named and not read again, a silent worker is found out, and a file that vanishes mid-read is named.
 */
import { afterEach, describe, expect, it } from "vitest";
import { PI_DEFAULTS } from "../../src/core/project/rules.ts";
import { loadTokenizer } from "../../src/tokens/load.ts";
import { WorkerStoppedError } from "../../src/worker/client.ts";
import { SessionEngine } from "../../src/worker/engine.ts";
import type { Ping, Pong, Request, Response } from "../../src/worker/protocol.ts";
import {
  WorkerSessionClient,
  type WorkerPort,
  type WorkerRestart,
  type WorkerSupervisor,
} from "../../src/worker/worker-client.ts";
import { VARIANTS } from "../fixtures/variants.ts";

const BRANCHES = VARIANTS["branches"]!;

/** A worker stand-in: the real engine in this thread, which can crash (an error event) or fall silent. */
class FakeWorker implements WorkerPort {
  onmessage: WorkerPort["onmessage"] = null;
  onerror: WorkerPort["onerror"] = null;
  onmessageerror: WorkerPort["onmessageerror"] = null;
  terminated = false;
  /** Stops answering anything (as a worker that closed itself). */
  silent = false;
  /** Crashes as soon as it is asked to load a file of this name. */
  crashOn: string | undefined;
  /** Crashes as soon as it is asked this kind of question. */
  crashOnType: Request["type"] | undefined;
  /** Crashes before answering anything (a worker whose script does not load). */
  broken = false;
  /** Takes requests in but does not handle them yet (busy). */
  holding = false;
  readonly received: (Request | Ping)[] = [];
  readonly #engine = new SessionEngine((r) => this.#answer(r), loadTokenizer, { sliceBytes: 64 });

  postMessage(message: Request | Ping): void {
    if (this.terminated || this.silent) return;
    this.received.push(message);
    if (this.broken) return void setTimeout(() => this.crash("")); // as when its script is missing: no message
    if (message.type === "ping") return this.#answer({ type: "pong" });
    if (this.holding) return;
    if ((message.type === "load" && message.name === this.crashOn) || message.type === this.crashOnType)
      return void setTimeout(() => this.crash("Uncaught RangeError: simulated"));
    void this.#engine.handle(message);
  }

  terminate(): void {
    this.terminated = true;
  }

  crash(message: string): void {
    if (!this.terminated) this.onerror?.({ message } as ErrorEvent);
  }

  #answer(data: Response | Pong): void {
    queueMicrotask(() => {
      if (!this.terminated && !this.silent) this.onmessage?.({ data } as MessageEvent<Response | Pong>);
    });
  }
}

interface Harness {
  readonly client: WorkerSessionClient;
  readonly workers: FakeWorker[];
  readonly stopped: [string, number][];
  readonly restarts: Promise<WorkerRestart>[];
  readonly stored: Map<string, Blob>;
  readonly asked: string[];
}

const clients: WorkerSessionClient[] = [];
afterEach(() => clients.splice(0).forEach((c) => c.dispose()));

function harness(options: { probeAfterMs?: number; deadAfterMs?: number; make?: (n: number) => FakeWorker } = {}) {
  const workers: FakeWorker[] = [];
  const stopped: [string, number][] = [];
  const waiting: ((r: WorkerRestart) => void)[] = [];
  const restarts: Promise<WorkerRestart>[] = [];
  const next = () => restarts.push(new Promise((resolve) => waiting.push(resolve)));
  next();
  const stored = new Map<string, Blob>();
  const asked: string[] = [];
  const supervisor: WorkerSupervisor = {
    stopped: (reason, reopening) => stopped.push([reason, reopening]),
    storedCopy: async (key) => {
      asked.push(key);
      return stored.get(key);
    },
    restarted: (restart) => {
      next();
      waiting.shift()!(restart);
    },
  };
  const client = new WorkerSessionClient(supervisor, {
    ...options,
    spawn: () => {
      const worker = options.make?.(workers.length) ?? new FakeWorker();
      workers.push(worker);
      return worker;
    },
  });
  clients.push(client);
  return { client, workers, stopped, restarts, stored, asked } satisfies Harness;
}

const load = (client: WorkerSessionClient, key: string, text: string, name = `${key}.jsonl`) =>
  client.load(key, new Blob([text]), name, () => undefined).done;

describe("WorkerSessionClient when the worker stops", () => {
  it("names the file being read, re-reads the loaded sessions into a new worker, and answers again", async () => {
    const h = harness();
    await load(h.client, "a", BRANCHES);
    await load(h.client, "b", VARIANTS["failed-turns"]!);
    h.stored.set("a", new Blob([BRANCHES]));
    h.workers[0]!.crashOn = "boom.jsonl";

    const boom = load(h.client, "c", BRANCHES, "boom.jsonl");
    await expect(boom).rejects.toThrow(WorkerStoppedError);
    await expect(boom).rejects.toThrow("The session worker stopped while reading boom.jsonl (Uncaught RangeError");
    // Asked while the new worker is reading the sessions again: it waits instead of failing ("not loaded").
    const during = h.client.search("a", "approach", "user-only", undefined);
    const restart = await h.restarts[0]!;

    expect(h.stopped).toEqual([["Uncaught RangeError: simulated", 2]]);
    expect(restart).toMatchObject({
      reason: "Uncaught RangeError: simulated",
      interrupted: [{ key: "c", name: "boom.jsonl" }],
      reopened: ["a", "b"],
      lost: [],
      repeated: false,
      running: true,
    });
    expect(h.workers).toHaveLength(2);
    expect(h.workers[0]!.terminated).toBe(true);
    expect(h.asked).toEqual(["a", "b"]);
    expect([...(await during)!]).toEqual([6, 8, 11]);
    expect((await h.client.entry("b", 11))?.toolCalls).toHaveLength(2);
    // The interrupted file was not sent to the new worker.
    const loads = h.workers[1]!.received.filter((r) => r.type === "load").map((r) => (r as { name: string }).name);
    expect(loads).toEqual(["a.jsonl", "b.jsonl"]);
  });

  it("tells a new worker the models.json in use before it reads the sessions again", async () => {
    const h = harness();
    const models = `{"providers": {"ollama": {"baseUrl": "http://localhost:11434/v1", "api": "openai-completions",
      "apiKey": "ollama", "models": [{"id": "qwen3.5:latest"}]}}}`;
    try {
      expect(await h.client.models(models)).toMatchObject({ ok: true, value: { overridden: 0 } });
      // A file the worker refuses is not the one a new worker is told.
      expect((await h.client.models("{")).ok).toBe(false);
      await load(h.client, "a", BRANCHES);
      h.workers[0]!.crash("Uncaught Error: simulated");
      expect(await h.restarts[0]!).toMatchObject({ reopened: ["a"], running: true });
      const told = h.workers[1]!.received.filter((r) => r.type !== "ping");
      expect(told.map((r) => r.type)).toEqual(["models", "load"]);
      expect(told[0]).toMatchObject({ type: "models", text: models });
    } finally {
      await h.client.models(undefined); // the registry is shared by this file's workers
    }
  });

  it("lets view questions in flight give way, and fails the others with the reason", async () => {
    const h = harness();
    await load(h.client, "a", BRANCHES);
    h.workers[0]!.holding = true;
    const accuracy = h.client.accuracy("a");
    const project = h.client.project("a", 5, PI_DEFAULTS, undefined);
    await new Promise((resolve) => setTimeout(resolve, 0)); // both are sent
    h.workers[0]!.crash("Uncaught RangeError: simulated");
    await expect(accuracy).rejects.toThrow("The session worker stopped before it answered (Uncaught RangeError");
    expect(await project).toBeUndefined(); // the app asks again once the new worker is up
    expect((await h.restarts[0]!).reopened).toEqual(["a"]);
    expect((await h.client.project("a", 5, PI_DEFAULTS, undefined))?.ok).toBe(true);
  });

  it("says when the same view question was in flight at two stops in a row", async () => {
    const h = harness();
    await load(h.client, "a", BRANCHES);
    h.workers[0]!.crashOnType = "project";
    void h.client.project("a", 5, PI_DEFAULTS, undefined);
    expect((await h.restarts[0]!).repeated).toBe(false);
    h.workers[1]!.crashOnType = "project";
    void h.client.project("a", 5, PI_DEFAULTS, undefined);
    expect((await h.restarts[1]!).repeated).toBe(true);
  });

  it("finds out a worker that falls silent while it owes an answer", async () => {
    const h = harness({ probeAfterMs: 10, deadAfterMs: 60 });
    await load(h.client, "a", BRANCHES);
    h.workers[0]!.silent = true;
    const pending = h.client.entry("a", 3);
    const restart = await h.restarts[0]!;
    expect(restart.reason).toMatch(/^it did not answer for \d+ s$/);
    expect(restart.reopened).toEqual(["a"]);
    expect(await pending).toBeUndefined();
    expect((await h.client.entry("a", 3))?.index).toBe(3);
  });

  it("reads a session again from its stored copy, and drops one it cannot read again, with why", async () => {
    const h = harness();
    // Both files change on disk after they were opened (pi is still writing them); only "a" was stored.
    const a = vanishingFile(BRANCHES, Infinity);
    const b = vanishingFile(VARIANTS["failed-turns"]!, Infinity);
    await h.client.load("a", a.blob, "a.jsonl", () => undefined).done;
    await h.client.load("b", b.blob, "b.jsonl", () => undefined).done;
    h.stored.set("a", new Blob([BRANCHES]));
    a.remove();
    b.remove();
    h.workers[0]!.crash("Uncaught Error: simulated");
    const restart = await h.restarts[0]!;
    expect(restart.reopened).toEqual(["a"]);
    expect(restart.lost).toEqual([
      { key: "b", name: "b.jsonl", why: expect.stringMatching(/^b\.jsonl could not be read \(NotFoundError\)/) },
    ]);
    expect((await h.client.entry("a", 12))?.id).toBe("a5");
    await expect(h.client.entry("b", 0)).rejects.toThrow("Session b is not loaded.");
  });

  it("gives up on a worker that stops twice before answering anything, and says so", async () => {
    const h = harness({ make: (n) => Object.assign(new FakeWorker(), { broken: n > 0 }) });
    await load(h.client, "a", BRANCHES);
    h.workers[0]!.crash("Uncaught Error: simulated");
    // The second worker stops while reading the session again; the third before it answers anything.
    const first = await h.restarts[0]!;
    expect(first).toMatchObject({ running: true, reopened: [] });
    expect(first.lost).toEqual([
      {
        key: "a",
        name: "a.jsonl",
        why: "the session worker stopped again while reading it (its script could not be loaded)",
      },
    ]);
    expect(await h.restarts[1]!).toMatchObject({ running: false, reason: "its script could not be loaded" });
    expect(h.workers).toHaveLength(3); // no fourth
    await expect(load(h.client, "b", BRANCHES)).rejects.toThrow(
      "The session worker could not be started (its script could not be loaded). Reload the page to try again.",
    );
    await h.client.remove("a"); // closing a session still works
  });
});

/** A file whose reads fail once it is "removed from disk", as Chromium's do (NotFoundError). */
function vanishingFile(text: string, readsBeforeRemoval: number): { blob: Blob; remove: () => void } {
  let reads = 0;
  let removed = false;
  const gone = () =>
    ({
      arrayBuffer: () =>
        Promise.reject(
          new DOMException(
            "A requested file or directory could not be found at the time an operation was processed.",
            "NotFoundError",
          ),
        ),
    }) as Blob;
  class Vanishing extends Blob {
    override slice(start?: number, end?: number): Blob {
      reads += 1;
      return removed || reads > readsBeforeRemoval ? gone() : super.slice(start, end);
    }
  }
  return { blob: new Vanishing([text]), remove: () => (removed = true) };
}

describe("a file removed from disk while it is read", () => {
  it("is named with how far it was read; nothing of it is loaded and the other sessions stay", async () => {
    const h = harness();
    await load(h.client, "a", BRANCHES);
    const { blob } = vanishingFile(BRANCHES, 2); // the engine reads 64-byte slices: the third read fails
    const done = h.client.load("b", blob, "gone.jsonl", () => undefined).done;
    await expect(done).rejects.toThrow(
      "gone.jsonl could not be read past 128 bytes of 3.7 KB (NotFoundError): it was moved, deleted or changed on disk while it was being read. It was not opened; open it again to read it as it is now.",
    );
    await expect(h.client.entry("b", 0)).rejects.toThrow("Session b is not loaded.");
    expect((await h.client.entry("a", 0))?.index).toBe(0);
  });
});
