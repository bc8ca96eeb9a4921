/**
 * Long work in the worker, paced in slices: after each slice it lets the messages already waiting in (the person's
 * search, click or newer view) before it goes on. One pacer may be shared by several steps of one piece of work
 * (the turns of a measurement and the counting within each), so they take turns by the same clock.
 *
 * While the person pans, zooms or scrolls, paced work also waits until they stop (`Gestures`): on a machine with
 * two cores, a worker measuring flat out takes one, and the page's frames then share the other with the browser's
 * raster and compositor threads, and miss their deadline now and then.
 */

/** A slice lasts about this long: short enough that a waiting request is hardly noticed. */
export const SLICE_MS = 30;

/** Paced work goes on once no gesture has been seen for this long. */
export const GESTURE_HOLD_MS = 250;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When the page last said the person is moving something; one per engine. */
export class Gestures {
  #until = -Infinity;

  /** A gesture is under way (the page says so a few times a second while it lasts). */
  seen(): void {
    this.#until = performance.now() + GESTURE_HOLD_MS;
  }

  /** Resolves once no gesture has been seen for `GESTURE_HOLD_MS`: at once when none is under way. */
  async still(): Promise<void> {
    for (let left = this.#until - performance.now(); left > 0; left = this.#until - performance.now()) await wait(left);
  }
}

export class Slices {
  readonly #gestures: Gestures | undefined;
  #start = performance.now();

  constructor(gestures?: Gestures) {
    this.#gestures = gestures;
  }

  /** Whether the current slice has run its time (cheap: ask it in a hot loop, and `pause` only when it says so). */
  due(): boolean {
    return performance.now() - this.#start >= SLICE_MS;
  }

  /** Lets the waiting messages in (and waits out a gesture), and starts a new slice. */
  async pause(): Promise<void> {
    await wait(0);
    await this.#gestures?.still();
    this.#start = performance.now();
  }
}
