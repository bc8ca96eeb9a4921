/**
 * What the browser benchmark measures inside the page: long tasks (PerformanceObserver, from the first script on),
 * animation frames while a gesture runs, the JS heap of the page and each of its workers (CDP), and the gestures
 * themselves — wheel and drag pans as devices send them, at most one event a frame.
 */
import type { CDPSession, Page } from "@playwright/test";

export interface LongTask {
  readonly start: number;
  readonly duration: number;
}

interface Probe {
  longTasks: LongTask[];
  /** When a change event fired (page time): files set into the file input. */
  changes: number[];
  frames: number[] | undefined;
}

/** Installs the long-task observer and the frame recorder before any script of the page runs. */
export async function installProbe(page: Page): Promise<void> {
  // tsx compiles with esbuild's keepNames, which wraps named functions in `__name(…)`; give the page that helper.
  await page.addInitScript({ content: "globalThis.__name = (f) => f;" });
  await page.addInitScript(() => {
    const probe: Probe = { longTasks: [], changes: [], frames: undefined };
    (window as unknown as { __probe: Probe }).__probe = probe;
    document.addEventListener("change", () => probe.changes.push(performance.now()), { capture: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  });
}

export const pageNow = (page: Page): Promise<number> => page.evaluate(() => performance.now());

/** Long tasks that started at or after `from` (page time, ms). */
export function longTasksSince(page: Page, from: number): Promise<LongTask[]> {
  return page.evaluate(
    (t0) => (window as unknown as { __probe: Probe }).__probe.longTasks.filter((t) => t.start >= t0),
    from,
  );
}

/**
 * Long tasks since `from`, less the one in which files were set into the file input: Playwright builds the files in
 * the page in that task (for 300 files, ~100 ms on a bare page), and the app's change handler that runs in it takes
 * a few ms. `harness` is that task's length (0 when it was not a long task).
 */
export async function appTasksSince(page: Page, from: number): Promise<{ tasks: LongTask[]; harness: number }> {
  const { tasks, changes } = await page.evaluate((t0) => {
    const probe = (window as unknown as { __probe: Probe }).__probe;
    return { tasks: probe.longTasks.filter((t) => t.start >= t0), changes: probe.changes.filter((c) => c >= t0) };
  }, from);
  const setting = (t: LongTask) => changes.some((at) => at >= t.start && at <= t.start + t.duration);
  return {
    tasks: tasks.filter((t) => !setting(t)),
    harness: Math.max(0, ...tasks.filter(setting).map((t) => t.duration)),
  };
}

/** Waits until no long task has started for `quietMs`, at most `maxMs`. */
export async function waitForQuiet(page: Page, quietMs: number, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const now = await pageNow(page);
    const recent = await longTasksSince(page, now - quietMs);
    if (recent.length === 0) return;
    await page.waitForTimeout(quietMs / 2);
  }
}

export interface FrameFigures {
  /** Animation frames seen. */
  readonly frames: number;
  /** Frames missed: each gap between two frames counts its whole vsync intervals beyond the first. */
  readonly dropped: number;
  /** Longest gap between two frames, ms. */
  readonly longestFrame: number;
  readonly longTasks: number;
  readonly longestTask: number;
}

/** Runs `work` while recording every animation frame and long task. */
export async function recordFrames(page: Page, work: () => Promise<void>): Promise<FrameFigures> {
  await page.evaluate(() => {
    const probe = (window as unknown as { __probe: Probe }).__probe;
    const frames: number[] = (probe.frames = []);
    const tick = (t: number) => {
      if (probe.frames !== frames) return;
      frames.push(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const start = await pageNow(page);
  await work();
  const frames = await page.evaluate(() => {
    const probe = (window as unknown as { __probe: Probe }).__probe;
    const recorded = probe.frames ?? [];
    probe.frames = undefined;
    return recorded;
  });
  const tasks = await longTasksSince(page, start);
  const gaps = frames.slice(1).map((t, i) => t - frames[i]!);
  const vsync = Math.min(...gaps.filter((g) => g > 8), 1000 / 60);
  return {
    frames: frames.length,
    dropped: gaps.reduce((sum, g) => sum + Math.max(0, Math.round(g / vsync) - 1), 0),
    longestFrame: Math.max(0, ...gaps),
    longTasks: tasks.length,
    longestTask: Math.max(0, ...tasks.map((t) => t.duration)),
  };
}

/** One animation frame of the page. */
export const nextFrame = (page: Page): Promise<number> =>
  page.evaluate(() => new Promise<number>(requestAnimationFrame));

/**
 * Pan number `i` over the element centred at (cx, cy): even pans are three wheel notches (120 px, some sideways),
 * odd pans a 12-step drag of about 280 px; every four pans come back to where they started.
 */
export async function pan(page: Page, i: number, cx: number, cy: number): Promise<void> {
  if (i % 2 === 0) {
    for (let n = 0; n < 3; n++) {
      await page.mouse.wheel(i % 8 < 4 ? 50 : -50, i % 4 === 0 ? 120 : -120);
      await nextFrame(page);
    }
    return;
  }
  const dx = i % 4 === 1 ? -120 : 120;
  const dy = i % 4 === 1 ? -250 : 250;
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  for (let step = 1; step <= 12; step++) {
    await page.mouse.move(cx + (dx * step) / 12, cy + (dy * step) / 12);
    await nextFrame(page);
  }
  await page.mouse.up();
}

/** Scroll number `i` of the element under the pointer: three wheel notches, 300 px down (every other four, 200 px up). */
export async function scroll(page: Page, i: number): Promise<void> {
  for (let n = 0; n < 3; n++) {
    await page.mouse.wheel(0, i % 8 < 4 ? 300 : -200);
    await nextFrame(page);
  }
}

/** ctrl + wheel at the pointer, as a trackpad pinch sends it (`deltaY` < 0 zooms in), one notch a frame. */
export async function pinch(page: Page, steps: number, deltaY: number): Promise<void> {
  await page.keyboard.down("Control");
  for (let s = 0; s < steps; s++) {
    await page.mouse.wheel(0, deltaY);
    await nextFrame(page);
  }
  await page.keyboard.up("Control");
}

export interface HeapFigures {
  readonly page: number;
  /** Each dedicated worker's heap, by the name of its script ("session.worker", …). */
  readonly workers: readonly { readonly name: string; readonly bytes: number }[];
  readonly total: number;
}

interface HeapUsage {
  readonly usedSize?: number;
  /** ArrayBuffers and external strings (text a TextDecoder made lives outside the heap proper). */
  readonly backingStorageSize?: number;
}

interface TargetMessage {
  readonly id?: number;
  readonly result?: HeapUsage;
}

/** What JS holds: the heap in use, and the memory behind its ArrayBuffers and external strings. */
const held = (usage: HeapUsage | undefined): number | undefined =>
  usage?.usedSize === undefined ? undefined : usage.usedSize + (usage.backingStorageSize ?? 0);

/** A worker that does not answer in this long (busy, or gone) is left out of the heap figures, and named so. */
const WORKER_ANSWER_MS = 15_000;

/**
 * JS heap in use after a full collection, in bytes, in the page and in each of its dedicated workers (each has a
 * heap of its own, which `performance.memory` does not see): CDP, attaching to the workers without flattening.
 * Counted with the backing storage of ArrayBuffers and external strings: a file's text decoded in slices is
 * held there (and so, through it, the strings parsed from it), not in the heap proper.
 */
export async function heapUsage(page: Page): Promise<HeapFigures> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  try {
    await cdp.send("HeapProfiler.collectGarbage");
    const main = held(await cdp.send("Runtime.getHeapUsage")) ?? 0;
    const attached: { sessionId: string; name: string }[] = [];
    const waiting = new Map<number, (message: TargetMessage | undefined) => void>();
    cdp.on("Target.attachedToTarget", (e) => {
      if (e.targetInfo.type !== "worker") return;
      const script = e.targetInfo.url.split("/").pop() ?? e.targetInfo.url;
      attached.push({ sessionId: e.sessionId, name: script.replace(/-[\w-]+\.js$|\.[jt]s$/, "") });
    });
    cdp.on("Target.receivedMessageFromTarget", (e) => {
      const message = JSON.parse(e.message) as TargetMessage;
      if (message.id !== undefined) waiting.get(message.id)?.(message);
    });
    await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    await page.waitForTimeout(300);
    let nextId = 1;
    const ask = (sessionId: string, method: string) =>
      new Promise<TargetMessage | undefined>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        setTimeout(() => resolve(undefined), WORKER_ANSWER_MS);
        cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method }) }).catch(() => {
          resolve(undefined);
        });
      });
    const workers: { name: string; bytes: number }[] = [];
    for (const { sessionId, name } of attached) {
      await ask(sessionId, "HeapProfiler.collectGarbage");
      const used = held((await ask(sessionId, "Runtime.getHeapUsage"))?.result);
      workers.push({ name: used === undefined ? `${name} (no answer, not counted)` : name, bytes: used ?? 0 });
    }
    return { page: main, workers, total: main + workers.reduce((sum, w) => sum + w.bytes, 0) };
  } finally {
    await cdp.detach();
  }
}

/**
 * The baseline for loading: what a viewer that parses on the main thread would block for — the same file read as
 * text and every line `JSON.parse`d, in one task (ms). Run last: it leaves a large heap behind.
 */
export async function mainThreadParse(page: Page, path: string): Promise<number> {
  const handle = await page.evaluateHandle(() => {
    const input = document.createElement("input");
    input.type = "file";
    input.hidden = true;
    document.body.append(input);
    return input;
  });
  await handle.asElement()!.setInputFiles(path);
  const ms = await handle.evaluate(async (input: HTMLInputElement) => {
    const text = await input.files![0]!.text();
    const start = performance.now();
    let count = 0;
    for (const line of text.split("\n")) if (line) count += JSON.parse(line) ? 1 : 0;
    const took = performance.now() - start;
    input.remove();
    return count > 0 ? took : -1;
  });
  return ms;
}
