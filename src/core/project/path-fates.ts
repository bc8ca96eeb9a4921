/**
 * The fate of every entry of one path, held by path position and read by entry index like a map. A long
 * session's path has tens of thousands of entries, and each conversation is kept for reuse (other models,
 * rules, the rules panel's alternatives): an array of shared fate objects costs a third of a `Map` of them,
 * and copying one to change a few fates is a plain array copy.
 */
export class PathFates<F> {
  /** Entry indices, root first. */
  readonly path: readonly number[];
  readonly #fates: readonly F[];
  /** Entry → position, only for a path whose indices do not rise from root to leaf (see `positionOf`). */
  #positions: Map<number, number> | undefined;
  readonly #rising: boolean;

  /** `fates[i]` is the fate of `path[i]`; both are kept, not copied: never mutate them afterwards. */
  constructor(path: readonly number[], fates: readonly F[], rising?: boolean) {
    if (fates.length !== path.length)
      throw new Error(`a path of ${path.length} entries needs as many fates, not ${fates.length}`);
    this.path = path;
    this.#fates = fates;
    this.#rising = rising ?? isRising(path);
  }

  get size(): number {
    return this.path.length;
  }

  /** The fate of the entry at path position `position`. */
  at(position: number): F | undefined {
    return this.#fates[position];
  }

  /**
   * Where `entry` is on the path, or -1. pi appends every entry after its parent, so indices rise along a path
   * and a binary search finds it; a file whose parents come later gets a map, made on first use.
   */
  positionOf(entry: number): number {
    if (!this.#rising) {
      this.#positions ??= new Map(this.path.map((e, i) => [e, i]));
      return this.#positions.get(entry) ?? -1;
    }
    let low = 0;
    let high = this.path.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const at = this.path[mid] as number;
      if (at === entry) return mid;
      if (at < entry) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  get(entry: number): F | undefined {
    const position = this.positionOf(entry);
    return position < 0 ? undefined : this.#fates[position];
  }

  has(entry: number): boolean {
    return this.positionOf(entry) >= 0;
  }

  /** [entry, fate] in path order. */
  *entries(): IterableIterator<[number, F]> {
    for (let i = 0; i < this.path.length; i += 1) yield [this.path[i] as number, this.#fates[i] as F];
  }

  [Symbol.iterator](): IterableIterator<[number, F]> {
    return this.entries();
  }

  keys(): IterableIterator<number> {
    return this.path.values();
  }

  values(): IterableIterator<F> {
    return this.#fates.values();
  }

  /** A copy with the fates of some entries replaced (entries off the path are ignored). */
  with(changes: Iterable<readonly [number, F]>): PathFates<F> {
    const fates = [...this.#fates];
    for (const [entry, fate] of changes) {
      const position = this.positionOf(entry);
      if (position >= 0) fates[position] = fate;
    }
    return new PathFates(this.path, fates, this.#rising);
  }
}

function isRising(path: readonly number[]): boolean {
  for (let i = 1; i < path.length; i += 1) if ((path[i] as number) <= (path[i - 1] as number)) return false;
  return true;
}
