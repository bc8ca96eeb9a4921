/**
 * Paced work waits while the person pans, zooms or scrolls: the pacer holds until no gesture has been seen for
 * `GESTURE_HOLD_MS`, the engine's rule effects wait it out, and the page's client tells the worker at most every
 * `GESTURE_NOTICE_MS` however many events a gesture fires.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { PI_DEFAULTS } from "../../src/core/project/rules.ts";
import { loadTokenizer } from "../../src/tokens/load.ts";
import { ProtocolClient } from "../../src/worker/client.ts";
import { SessionEngine } from "../../src/worker/engine.ts";
import type { Gesture, Ping, Request, Response } from "../../src/worker/protocol.ts";
import { GESTURE_HOLD_MS, Gestures, Slices } from "../../src/worker/slices.ts";
import { GESTURE_NOTICE_MS, WorkerSessionClient, type WorkerPort } from "../../src/worker/worker-client.ts";
import { toolLoopSession } from "./tokens-fixtures.ts";

afterEach(() => vi.useRealTimers());

const fakeClock = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "performance"] });

/** Whether the watched promise has settled once the clock moves on `ms`. */
async function settledAfter(ms: number, state: { done: boolean }): Promise<boolean> {
  await vi.advanceTimersByTimeAsync(ms);
  return state.done;
}

function watch<T>(promise: Promise<T>): { promise: Promise<T>; state: { done: boolean } } {
  const state = { done: false };
  return { promise: promise.finally(() => (state.done = true)), state };
}

describe("the pacer and gestures", () => {
  it("pauses for a turn of the event loop when no gesture is under way", async () => {
    fakeClock();
    const { state } = watch(new Slices(new Gestures()).pause());
    expect(await settledAfter(1, state)).toBe(true);
  });

  it("waits until no gesture has been seen for the hold, each gesture extending it", async () => {
    fakeClock();
    const gestures = new Gestures();
    gestures.seen();
    const { state } = watch(new Slices(gestures).pause());
    expect(await settledAfter(GESTURE_HOLD_MS - 50, state)).toBe(false);
    gestures.seen(); // the gesture goes on
    expect(await settledAfter(GESTURE_HOLD_MS - 50, state)).toBe(false);
    expect(await settledAfter(60, state)).toBe(true);
  });

  it("holds the engine's rule effects until the gesture ends", async () => {
    const responses: Response[] = [];
    let client: ProtocolClient | undefined = undefined;
    const engine = new SessionEngine(
      (response) => (responses.push(response), queueMicrotask(() => client?.receive(response))),
      loadTokenizer,
    );
    client = new ProtocolClient((request) => void engine.handle(request));
    await client.load("s", new Blob([toolLoopSession()]), "loop.jsonl", () => undefined).done;
    const first = await client.ruleEffects("s", 7, PI_DEFAULTS, undefined); // tokenizer loaded, counts made

    fakeClock();
    engine.gesture();
    const { promise, state } = watch(client.ruleEffects("s", 7, PI_DEFAULTS, undefined));
    expect(await settledAfter(GESTURE_HOLD_MS - 50, state)).toBe(false);
    expect(await settledAfter(100, state)).toBe(true);
    expect(await promise).toEqual(first);
  });
});

class Port implements WorkerPort {
  onmessage: WorkerPort["onmessage"] = null;
  onerror: WorkerPort["onerror"] = null;
  onmessageerror: WorkerPort["onmessageerror"] = null;
  readonly gestures: number[] = [];

  postMessage(message: Request | Ping | Gesture): void {
    if (message.type === "gesture") this.gestures.push(performance.now());
    if (message.type === "ping") queueMicrotask(() => this.onmessage?.({ data: { type: "pong" } } as MessageEvent));
  }

  terminate(): void {}
}

describe("the page's client", () => {
  it("tells the worker of a gesture at most every GESTURE_NOTICE_MS", async () => {
    fakeClock();
    const port = new Port();
    const supervisor = { stopped: () => undefined, storedCopy: async () => undefined, restarted: () => undefined };
    const client = new WorkerSessionClient(supervisor, { spawn: () => port });
    try {
      const start = performance.now();
      for (let t = 0; t < 5 * GESTURE_NOTICE_MS; t += 10) {
        client.gesture(); // a wheel event a frame, and more
        client.gesture();
        await vi.advanceTimersByTimeAsync(10);
      }
      expect(port.gestures.map((t) => t - start)).toEqual([0, 1, 2, 3, 4].map((n) => n * GESTURE_NOTICE_MS));
    } finally {
      client.dispose();
    }
  });
});
