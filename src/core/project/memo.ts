/**
 * Work remembered per object. Every payload built along a session meets the same message objects again (each
 * leaf repeats its path, each rule toggle re-projects it); what a stage makes of one of them is kept with the
 * object, so an unchanged message comes out as the very object it came out as last time, and the stages after it
 * (payload items, token counts) can remember their own work per object too. Results are shared: never mutate them.
 */
interface Known<V, Key> {
  readonly key: Key;
  readonly value: V;
  /** The result kept before this one, while fewer than the limit are kept. */
  older: Known<V, Key> | undefined;
}

export class PerObject<K extends object, V, Key = unknown> {
  readonly #values = new WeakMap<K, Known<V, Key>>();
  readonly #kept: number;
  readonly #same: ((a: Key, b: Key) => boolean) | undefined;

  /**
   * `kept`: how many results to keep per object, the newest, for other inputs that take turns (a path projected
   * for several models one after another meets each message once per model: a single result kept would be
   * replaced at every turn and found at none). `same` compares keys; === when not given.
   */
  constructor(kept = 1, same?: (a: Key, b: Key) => boolean) {
    this.#kept = kept;
    this.#same = same;
  }

  /** What `compute` made of `object` with the same `key` (the other inputs), if it is still kept. */
  get(object: K, key: Key, compute: () => V): V {
    const newest = this.#values.get(object);
    const same = this.#same;
    for (let known = newest; known !== undefined; known = known.older)
      if (same === undefined ? known.key === key : same(known.key, key)) return known.value;
    const value = compute();
    if (this.#kept === 1 || newest === undefined) {
      this.#values.set(object, { key, value, older: undefined });
      return value;
    }
    this.#values.set(object, { key, value, older: newest });
    let last = newest; // the result that is now the limit's last: it keeps nothing older
    for (let n = 2; n < this.#kept && last.older !== undefined; n += 1) last = last.older;
    last.older = undefined;
    return value;
  }
}

/**
 * How many targets' results a stage that depends on the target model keeps per object: a path projected for
 * several models in turn (the Compare tab's two sides, or every leaf for each model compared) finds each model's
 * results again.
 */
export const TARGETS_KEPT = 4;

const NO_INDEX: readonly number[] = Object.freeze([]);
const singleIndices: (readonly number[])[] = [];

/**
 * `[index]` (or `[]`), one frozen array per index for every projection: a long path's payload items each name the
 * message and entry they came from, and would otherwise each get a fresh array at every view.
 */
export function singleIndex(index: number | undefined): readonly number[] {
  if (index === undefined) return NO_INDEX;
  return (singleIndices[index] ??= Object.freeze([index]));
}
