/**
 * Many short strings sent across the worker seam as UTF-8 bytes in one transferred buffer: the page receives
 * them without a copy and decodes only the ones it draws. Sent as strings, the previews of a 300,000-entry
 * session cost the page about 70 ms to deserialise (an array of strings) or 100 ms (one joined string, as
 * Chromium reads two-byte strings), and tens of MB to hold.
 */
export interface PackedStrings {
  /** All strings, UTF-8, one after the other. */
  readonly bytes: Uint8Array;
  /** Where string `i` ends in `bytes`; it starts where string `i - 1` ends (or at 0). */
  readonly ends: Uint32Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function packStrings(values: readonly string[]): PackedStrings {
  const ends = new Uint32Array(values.length);
  // Room for one byte per UTF-16 unit (previews are mostly ASCII); grown when a string does not fit.
  let bytes = new Uint8Array(values.reduce((units, value) => units + value.length, 0));
  let end = 0;
  values.forEach((value, i) => {
    const first = encoder.encodeInto(value, bytes.subarray(end));
    let read = first.read;
    end += first.written;
    while (read < value.length) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, end + (value.length - read) * 3));
      grown.set(bytes.subarray(0, end));
      bytes = grown;
      const rest = encoder.encodeInto(value.slice(read), bytes.subarray(end));
      read += rest.read;
      end += rest.written;
    }
    ends[i] = end;
  });
  return { bytes: bytes.slice(0, end), ends };
}

/** String `i`, or undefined past the end. */
export function unpackString(packed: PackedStrings, i: number): string | undefined {
  if (!(i >= 0 && i < packed.ends.length)) return undefined;
  return decoder.decode(packed.bytes.subarray(i === 0 ? 0 : packed.ends[i - 1], packed.ends[i]));
}

/** The buffers `packed` owns, to transfer rather than copy when posting it. */
export const packedBuffers = (packed: PackedStrings): ArrayBuffer[] => [
  packed.bytes.buffer as ArrayBuffer,
  packed.ends.buffer as ArrayBuffer,
];
