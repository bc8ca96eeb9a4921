/**
 * Myers' O(ND) difference algorithm ("An O(ND) Difference Algorithm and Its Variations", 1986) over sequences of
 * integers (interned tokens), with a work budget: past it the caller gets `undefined` and falls back to a coarser
 * answer instead of spending seconds on two long, unrelated texts.
 */

/** One step of an edit script: keep a[i] (= b[j]), remove a[i], or add b[j]. */
export type Edit =
  | { readonly op: "same"; readonly a: number; readonly b: number }
  | { readonly op: "removed"; readonly a: number }
  | { readonly op: "added"; readonly b: number };

/** Snake steps plus diagonals visited before giving up (a few milliseconds of work). */
export const DEFAULT_BUDGET = 4_000_000;

/**
 * The shortest edit script from `a` to `b`, or undefined when finding it would take more than `budget` steps.
 * Common prefixes and suffixes cost one step per element.
 */
export function shortestEdit(a: ArrayLike<number>, b: ArrayLike<number>, budget = DEFAULT_BUDGET): Edit[] | undefined {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const middle = middleEdit(a, b, start, endA, start, endB, budget);
  if (!middle) return undefined;
  const edits: Edit[] = [];
  for (let i = 0; i < start; i += 1) edits.push({ op: "same", a: i, b: i });
  for (const edit of middle) edits.push(edit);
  for (let k = 0; endA + k < a.length; k += 1) edits.push({ op: "same", a: endA + k, b: endB + k });
  return edits;
}

function middleEdit(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  a0: number,
  a1: number,
  b0: number,
  b1: number,
  budget: number,
): Edit[] | undefined {
  const n = a1 - a0;
  const m = b1 - b0;
  if (n === 0 || m === 0) {
    const edits: Edit[] = [];
    for (let i = a0; i < a1; i += 1) edits.push({ op: "removed", a: i });
    for (let j = b0; j < b1; j += 1) edits.push({ op: "added", b: j });
    return edits;
  }
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds v[-d-1 … d+1] as it was before step d: enough to walk the path back.
  const trace: Int32Array[] = [];
  let work = 0;
  for (let d = 0; d <= max; d += 1) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[a0 + x] === b[b0 + y]) {
        x += 1;
        y += 1;
        work += 1;
      }
      v[offset + k] = x;
      work += 1;
      if (x >= n && y >= m) return backtrack(trace, n, m, a0, b0);
    }
    if (work > budget) return undefined;
  }
  return undefined;
}

function backtrack(trace: readonly Int32Array[], n: number, m: number, a0: number, b0: number): Edit[] {
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d -= 1) {
    const v = trace[d] as Int32Array;
    const at = (k: number) => v[k + d + 1] as number;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      x -= 1;
      y -= 1;
      edits.push({ op: "same", a: a0 + x, b: b0 + y });
    }
    if (d > 0) {
      if (x === prevX) edits.push({ op: "added", b: b0 + prevY });
      else edits.push({ op: "removed", a: a0 + prevX });
    }
    x = prevX;
    y = prevY;
  }
  return edits.reverse();
}

/** Maps equal values to equal small integers, so sequences of strings can be compared as numbers. */
export class Interner {
  readonly #ids = new Map<string, number>();

  id(value: string): number {
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.#ids.size;
      this.#ids.set(value, id);
    }
    return id;
  }

  ids(values: readonly string[]): Int32Array {
    const out = new Int32Array(values.length);
    values.forEach((value, i) => (out[i] = this.id(value)));
    return out;
  }
}
