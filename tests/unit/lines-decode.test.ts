/**
 * Bytes → text in LineSplitter: whatever the chunks, the lines and the UTF-8 statistics are what one stream decoder
 * makes of the whole file (the splitter decodes each chunk's whole characters in one go, its edges as a stream).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineSplitter, type RawLine } from "../../src/core/session/lines.ts";

function splitChunks(chunks: readonly Uint8Array[]) {
  const lines: RawLine[] = [];
  const splitter = new LineSplitter((line) => lines.push(line));
  for (const chunk of chunks) splitter.push(chunk);
  const stats = splitter.end();
  return { lines: lines.map((l) => l.text), stats };
}

/** What a single stream decoder makes of the bytes, split at newlines (the last, empty, piece is no line). */
function expectedLines(bytes: Uint8Array): string[] {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let text = "";
  for (const byte of bytes) text += decoder.decode(Uint8Array.of(byte), { stream: true });
  text += decoder.decode();
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Bytes that matter at a chunk's edge: ASCII, newlines, continuation bytes, leads of 2-, 3- and 4-byte sequences, invalid leads, a BOM, an encoded U+FFFD and whole characters. */
const PIECES = [
  [0x61],
  [0x0a],
  [0x0d, 0x0a],
  [0x80],
  [0xbf],
  [0xc2],
  [0xe2],
  [0xe0],
  [0xed],
  [0xf0],
  [0xf4],
  [0xf8],
  [0xff],
  [0xef, 0xbb, 0xbf],
  [0xef, 0xbf, 0xbd],
  [0xc3, 0xa9],
  [0xe2, 0x82, 0xac],
  [0xf0, 0x9f, 0x98, 0x80],
].map((p) => Uint8Array.from(p));

const bytesArb = fc
  .array(fc.constantFrom(...PIECES), { maxLength: 40 })
  .map((pieces) => Uint8Array.from(pieces.flatMap((p) => [...p])));

function chunked(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...at, bytes.length]) {
    chunks.push(bytes.subarray(start, cut));
    start = cut;
  }
  return chunks;
}

describe("LineSplitter decoding", () => {
  it("gives the lines and UTF-8 statistics of one stream decoder, however the bytes are chunked", () => {
    fc.assert(
      fc.property(bytesArb, fc.array(fc.nat(), { maxLength: 12 }), (bytes, cuts) => {
        const whole = splitChunks([bytes]);
        const inChunks = splitChunks(chunked(bytes, cuts));
        expect(whole.lines).toEqual(expectedLines(bytes));
        expect(inChunks.lines).toEqual(whole.lines);
        expect(inChunks.stats).toEqual(whole.stats);
      }),
      { numRuns: 2000 },
    );
  });

  it("leaves a character cut by a chunk's end for the next chunk, however short the chunks", () => {
    const euro = [0xe2, 0x82, 0xac];
    for (const cuts of [[1], [2], [1, 2], [0, 1, 2, 3]]) {
      const bytes = Uint8Array.from([0x61, ...euro, 0x0a]);
      const { lines, stats } = splitChunks(
        chunked(
          bytes,
          cuts.map((c) => c + 1),
        ),
      );
      expect(lines).toEqual(["a€"]);
      expect(stats.invalidUtf8).toBe(false);
    }
  });
});
