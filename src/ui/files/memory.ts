/**
 * How much session a browser tab can hold. The session worker keeps every open session parsed (about two bytes of
 * JavaScript heap per byte of file; figure 3 of the benchmark), and the payload view with compaction off holds the
 * whole path's payload besides, on both sides of the worker seam. The worker lives in the tab's renderer process:
 * when a heap runs out, Chromium closes the whole tab, every open session with it. Measured in Chromium with a
 * 4.4 GB heap limit on generated sessions: one of 2.0 billion bytes crashed the tab while loading; one of 1.4
 * billion loads and shows its uncompacted payload (it crashed the tab before the page got long strings as
 * stand-ins). So a file is read only when the sessions open, those being read and it fit in a quarter of the heap
 * limit (1.1 GB there), leaving room for sessions that weigh more per byte than generated ones; others are refused,
 * saying why.
 */
import { formatBytes } from "../shell/format.ts";

/** Bytes of heap limit to allow per byte of session file (see above). */
export const HEAP_PER_SESSION_BYTE = 4;

/** Heap limit assumed where the browser does not say (Chromium reports its own, 4 GB on a desktop). */
const DEFAULT_HEAP_LIMIT = 4 * 1024 ** 3;

/** The heap limit of this tab, as Chromium reports it (`performance.memory` is Chromium's own). */
export function heapLimit(): number {
  const memory = (globalThis.performance as { memory?: { jsHeapSizeLimit?: unknown } } | undefined)?.memory;
  const limit = memory?.jsHeapSizeLimit;
  return typeof limit === "number" && Number.isFinite(limit) && limit > 0 ? limit : DEFAULT_HEAP_LIMIT;
}

/** Bytes of session files a tab with heap limit `limit` can hold open at once. */
export const sessionRoom = (limit: number = heapLimit()): number => Math.floor(limit / HEAP_PER_SESSION_BYTE);

/**
 * Why a file of `size` bytes cannot be read beside `held` bytes of sessions already open (or being read), in a
 * tab with room for `room`; undefined when it fits.
 */
export function tooBigToHold(name: string, size: number, held: number, room: number): string | undefined {
  if (held + size <= room) return undefined;
  const why =
    `${name} (${formatBytes(size)}) was not opened: a browser tab has room for about ${formatBytes(room)} of ` +
    "sessions (showing a session and its whole payload takes up to four times its size in memory, and a tab " +
    "that runs out of memory is closed with everything in it)";
  const cli = "the command line (npm run cli), which is not bound by a tab's memory";
  if (size > room) return `${why}. Read it with ${cli}.`;
  return `${why}; the open sessions take ${formatBytes(held)} of it. Close some to make room, or read it with ${cli}.`;
}
