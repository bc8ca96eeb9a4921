/**
 * Long work in the worker, paced in slices: after each slice it lets the messages already waiting in (the person's
 * search, click or newer view) before it goes on. One pacer may be shared by several steps of one piece of work
 * (the turns of a measurement and the counting within each), so they take turns by the same clock.
 */

/** A slice lasts about this long: short enough that a waiting request is hardly noticed. */
export const SLICE_MS = 30;

export class Slices {
  #start = performance.now();

  /** Whether the current slice has run its time (cheap: ask it in a hot loop, and `pause` only when it says so). */
  due(): boolean {
    return performance.now() - this.#start >= SLICE_MS;
  }

  /** Lets the waiting messages in, and starts a new slice. */
  async pause(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 0));
    this.#start = performance.now();
  }
}
