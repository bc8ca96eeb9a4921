/** Item sources cross the worker seam as two typed arrays (src/worker/packed-lists.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstListHolding, listAt, listCount, packedListBuffers, packLists } from "../../src/worker/packed-lists.ts";

const lists = fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 4 }), { maxLength: 60 });

describe("packed lists", () => {
  it("gives every list back, empty ones included, and nothing past the end", () => {
    const plain = [[], [3], [], [], [4, 5], []];
    const packed = packLists(plain);
    expect(listCount(packed)).toBe(plain.length);
    expect(plain.map((_, i) => listAt(packed, i))).toEqual(plain);
    expect(listAt(packed, -1)).toEqual([]);
    expect(listAt(packed, plain.length)).toEqual([]);
  });

  it("finds the first list holding a value, as a search of the plain lists does", () => {
    fc.assert(
      fc.property(lists, fc.integer({ min: 0, max: 41 }), (plain, value) => {
        const index = plain.findIndex((list) => list.includes(value));
        expect(firstListHolding(packLists(plain), value)).toBe(index === -1 ? undefined : index);
      }),
    );
  });

  it("survives a transfer as the worker posts it", () => {
    const plain = Array.from({ length: 1000 }, (_, i) => (i % 7 === 0 ? [] : [i, i + 1]));
    const packed = packLists(plain);
    const copy = structuredClone(packed, { transfer: packedListBuffers(packed) });
    expect(packed.values.length).toBe(0); // moved, not copied
    expect(listAt(copy, 999)).toEqual([999, 1000]);
    expect(firstListHolding(copy, 14)).toBe(13);
  });

  it("packs nothing into nothing", () => {
    const packed = packLists([]);
    expect(listCount(packed)).toBe(0);
    expect(firstListHolding(packed, 0)).toBeUndefined();
  });
});
