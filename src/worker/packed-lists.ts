/**
 * Many short lists of numbers (the entries each payload item came from) sent across the worker seam as two
 * typed arrays, transferred: as arrays of arrays, the 246,000 item sources of an 800 MB session's uncompacted
 * path cost the page about 240 ms to deserialise and a small array each to hold and collect.
 */
export interface PackedLists {
  /** All lists, one after the other. */
  readonly values: Int32Array;
  /** Where list `i` ends in `values`; it starts where list `i - 1` ends (or at 0). */
  readonly ends: Int32Array;
}

export function packLists(lists: readonly (readonly number[])[]): PackedLists {
  const ends = new Int32Array(lists.length);
  let length = 0;
  lists.forEach((list, i) => (ends[i] = length += list.length));
  const values = new Int32Array(length);
  let at = 0;
  for (const list of lists) for (const value of list) values[at++] = value;
  return { values, ends };
}

/** How many lists there are. */
export const listCount = (packed: PackedLists): number => packed.ends.length;

const start = (packed: PackedLists, i: number): number => (i === 0 ? 0 : (packed.ends[i - 1] as number));

/** List `i` (empty past the end). */
export function listAt(packed: PackedLists, i: number): number[] {
  if (!(i >= 0 && i < packed.ends.length)) return [];
  return Array.from(packed.values.subarray(start(packed, i), packed.ends[i]));
}

/** The first list that holds `value`, or undefined when none does. */
export function firstListHolding(packed: PackedLists, value: number): number | undefined {
  const at = packed.values.indexOf(value);
  if (at === -1) return undefined;
  // The list whose end is the first past `at` (lists may be empty, so several may end at the same place).
  let low = 0;
  let high = packed.ends.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((packed.ends[middle] as number) > at) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The buffers `packed` owns, to transfer rather than copy when posting it. */
export const packedListBuffers = (packed: PackedLists): ArrayBuffer[] => [
  packed.values.buffer as ArrayBuffer,
  packed.ends.buffer as ArrayBuffer,
];
