/**
 * The items of the payload's main list as the view reads them: all at hand (a snapshot's body, a short list), or
 * read from the session worker a block at a time as they come into view. A 100 MB session's uncompacted path is
 * 40,000 items and an 800 MB one 250,000: the page holds the blocks near where the person looks, not the list.
 */

/** What `at` gives for an item not read yet. */
export const NOT_READ: unique symbol = Symbol("not read");

export interface PayloadItems {
  /** How many items the list has. */
  readonly length: number;
  /** Item `index`, or `NOT_READ` while it is being read (and for an index out of range). */
  at(index: number): unknown;
  /** Asks for the items `[start, end)` that are not at hand to be read; `at` gives them once they arrive. */
  want(start: number, end: number): void;
  /** Why items could not be read, if some could not. */
  readonly problem: string | undefined;
}

/** A list that is all at hand. */
export class HeldItems implements PayloadItems {
  readonly #list: readonly unknown[];

  constructor(list: readonly unknown[]) {
    this.#list = list;
  }

  get length(): number {
    return this.#list.length;
  }

  at(index: number): unknown {
    return index >= 0 && index < this.#list.length ? this.#list[index] : NOT_READ;
  }

  want(): void {}

  readonly problem = undefined;
}

/** Items are read in blocks of this many (a block of ordinary messages is a few hundred KB of JSON). */
export const ITEM_BLOCK = 128;
/**
 * Blocks kept at most: past this the least recently used go (and are read again if scrolled back to). An unfolded
 * item's block is used each time the rows are made, so it stays while the person scrolls far away from it.
 */
export const MAX_BLOCKS = 256;

/** How `RemoteItems` tells the view: `track` is called by every read, `changed` when items arrive or fail. */
export interface ItemsSignal {
  track(): void;
  changed(): void;
}

/**
 * A list of which the first items came with the projection and the rest are read with `read(start, end)` (the
 * session worker's "payloadItems"), a block at a time, each block asked for once until it arrives or fails.
 */
export class RemoteItems implements PayloadItems {
  readonly length: number;
  readonly #first: readonly unknown[];
  readonly #read: (start: number, end: number) => Promise<readonly unknown[]>;
  readonly #signal: ItemsSignal;
  /** Block number → its items, least recently used first. */
  readonly #blocks = new Map<number, readonly unknown[]>();
  #newest = -1;
  readonly #asked = new Set<number>();
  /** Blocks that could not be read: not asked for again (a new projection makes a new list). */
  readonly #failed = new Set<number>();
  #problem: string | undefined;

  constructor(
    length: number,
    first: readonly unknown[],
    read: (start: number, end: number) => Promise<readonly unknown[]>,
    signal: ItemsSignal,
  ) {
    this.length = length;
    this.#first = first;
    this.#read = read;
    this.#signal = signal;
  }

  get problem(): string | undefined {
    this.#signal.track();
    return this.#problem;
  }

  at(index: number): unknown {
    this.#signal.track();
    if (index < this.#first.length) return index >= 0 ? this.#first[index] : NOT_READ;
    if (index >= this.length) return NOT_READ;
    const number = Math.floor(index / ITEM_BLOCK);
    const block = this.#blocks.get(number);
    if (block === undefined) return NOT_READ;
    if (number !== this.#newest) {
      this.#blocks.delete(number); // to the end: the most recently used
      this.#blocks.set(number, block);
      this.#newest = number;
    }
    return block[index % ITEM_BLOCK];
  }

  want(start: number, end: number): void {
    if (end <= this.#first.length) return;
    const from = Math.floor(Math.max(start, this.#first.length) / ITEM_BLOCK);
    const to = Math.ceil(Math.min(end, this.length) / ITEM_BLOCK);
    // One request per run of blocks neither held nor asked for.
    let run: number | undefined;
    for (let block = from; block <= to; block += 1) {
      const needed = block < to && !this.#blocks.has(block) && !this.#asked.has(block) && !this.#failed.has(block);
      if (needed) {
        this.#asked.add(block);
        run ??= block;
      } else if (run !== undefined) {
        void this.#readBlocks(run, block);
        run = undefined;
      }
    }
  }

  /** Reads blocks `[from, to)`. */
  async #readBlocks(from: number, to: number): Promise<void> {
    const start = from * ITEM_BLOCK;
    const end = Math.min(this.length, to * ITEM_BLOCK);
    try {
      const items = await this.#read(start, end);
      if (items.length !== end - start)
        throw new Error(`asked for ${end - start} items from ${start}, got ${items.length}`);
      for (let block = from; block < to; block += 1) {
        this.#asked.delete(block);
        const at = (block - from) * ITEM_BLOCK;
        this.#blocks.set(block, items.slice(at, at + ITEM_BLOCK));
        this.#newest = block;
      }
      for (const oldest of this.#blocks.keys()) {
        if (this.#blocks.size <= MAX_BLOCKS) break;
        this.#blocks.delete(oldest);
      }
      this.#signal.changed();
    } catch (error) {
      for (let block = from; block < to; block += 1) {
        this.#asked.delete(block);
        this.#failed.add(block);
      }
      const reason = error instanceof Error ? error.message : String(error);
      this.#problem = `Items ${start}–${end - 1} of the payload could not be read: ${reason}`;
      this.#signal.changed();
    }
  }
}
