/** Previews cross the worker seam as UTF-8 in one buffer (src/worker/packed-strings.ts). */
import { describe, expect, it } from "vitest";
import { packedBuffers, packStrings, unpackString } from "../../src/worker/packed-strings.ts";

const unpackAll = (values: readonly string[]) => {
  const packed = packStrings(values);
  return values.map((_, i) => unpackString(packed, i));
};

describe("packed strings", () => {
  it("gives every string back, empty ones included, and nothing past the end", () => {
    const values = ["", "user: fix it", "", "x".repeat(160), ""];
    expect(unpackAll(values)).toEqual(values);
    const packed = packStrings(values);
    expect(unpackString(packed, -1)).toBeUndefined();
    expect(unpackString(packed, values.length)).toBeUndefined();
  });

  it("keeps text that takes more bytes than characters: accents, arrows, CJK, emoji", () => {
    // The buffer starts at one byte per character, so these make it grow, also in the middle of a string.
    const values = ["plain", "é".repeat(50), "→ done ✓", "漢字".repeat(40), "🙂".repeat(30), "tail"];
    expect(unpackAll(values)).toEqual(values);
    expect(unpackAll(["🙂".repeat(1000)])).toEqual(["🙂".repeat(1000)]);
  });

  it("owns exactly its bytes, and survives a transfer as the worker posts it", () => {
    const values = Array.from({ length: 1000 }, (_, i) => `entry ${i} →`);
    const packed = packStrings(values);
    expect(packed.bytes.byteLength).toBe(packed.bytes.buffer.byteLength);
    const copy = structuredClone(packed, { transfer: packedBuffers(packed) });
    expect(packed.bytes.byteLength).toBe(0); // moved, not copied
    expect(unpackString(copy, 0)).toBe("entry 0 →");
    expect(unpackString(copy, 999)).toBe("entry 999 →");
  });

  it("packs nothing into nothing", () => {
    const packed = packStrings([]);
    expect(packed.ends.length).toBe(0);
    expect(unpackString(packed, 0)).toBeUndefined();
  });
});
