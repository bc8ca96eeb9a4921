/**
 * Work remembered per object. Every payload built along a session meets the same message objects again (each
 * leaf repeats its path, each rule toggle re-projects it); what a stage makes of one of them is kept with the
 * object, so an unchanged message comes out as the very object it came out as last time, and the stages after it
 * (payload items, token counts) can remember their own work per object too. Results are shared: never mutate them.
 */
export class PerObject<K extends object, V> {
  readonly #values = new WeakMap<K, { readonly key: unknown; readonly value: V }>();

  /** What `compute` made of `object` last time, if `key` (the other inputs, compared with ===) is the same. */
  get(object: K, key: unknown, compute: () => V): V {
    const known = this.#values.get(object);
    if (known !== undefined && known.key === key) return known.value;
    const value = compute();
    this.#values.set(object, { key, value });
    return value;
  }
}
