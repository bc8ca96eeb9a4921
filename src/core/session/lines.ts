/**
 * Stage 1a: bytes → lines, incrementally. Chunks of any size go in; complete lines come out as they are found,
 * so a 200 MB file is never one string. Handles a UTF-8 BOM and CRLF line endings (reported, not fatal).
 */

export interface RawLine {
  /** 1-based line number. */
  readonly number: number;
  /** The line without its "\n" (and without a trailing "\r"). */
  readonly text: string;
  /** True when the line ended in "\r\n". */
  readonly crlf: boolean;
  /** True for the last line when the file does not end with a newline. */
  readonly unterminated: boolean;
}

export interface LineStats {
  readonly bytes: number;
  readonly lines: number;
  readonly bom: boolean;
  readonly crlfLines: number;
  readonly nulBytes: boolean;
  readonly invalidUtf8: boolean;
}

/** Splits a byte stream into lines. Call `push` for each chunk and `end` once; `onLine` sees every line. */
export class LineSplitter {
  readonly #decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  readonly #onLine: (line: RawLine) => void;
  #rest = "";
  #number = 0;
  #bytes = 0;
  #crlfLines = 0;
  #bom = false;
  #nulBytes = false;
  #invalidUtf8 = false;
  #started = false;

  constructor(onLine: (line: RawLine) => void) {
    this.#onLine = onLine;
  }

  push(chunk: Uint8Array): void {
    if (!this.#nulBytes && hasZeroByte(chunk)) this.#nulBytes = true;
    this.#bytes += chunk.byteLength;
    const text = this.#decoder.decode(chunk, { stream: true });
    if (!this.#invalidUtf8 && text.includes("\uFFFD"))
      this.#invalidUtf8 = countReplacementChars(text) > countEncodedReplacements(chunk);
    this.#consume(text);
  }

  /** Push already-decoded text (the CLI and tests use this for small inputs). */
  pushText(text: string): void {
    this.#bytes += text.length;
    if (!this.#nulBytes && text.includes("\0")) this.#nulBytes = true;
    this.#consume(text);
  }

  end(): LineStats {
    this.#consume(this.#decoder.decode());
    if (this.#rest.length > 0) this.#emit(this.#rest, true);
    this.#rest = "";
    return {
      bytes: this.#bytes,
      lines: this.#number,
      bom: this.#bom,
      crlfLines: this.#crlfLines,
      nulBytes: this.#nulBytes,
      invalidUtf8: this.#invalidUtf8,
    };
  }

  #consume(text: string): void {
    if (text.length === 0) return;
    if (!this.#started) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) {
        this.#bom = true;
        text = text.slice(1);
      }
    }
    let start = 0;
    let newline = text.indexOf("\n");
    if (newline === -1) {
      this.#rest += text;
      return;
    }
    let first = true;
    while (newline !== -1) {
      const piece = text.slice(start, newline);
      this.#emit(first ? this.#rest + piece : piece, false);
      first = false;
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    this.#rest = text.slice(start);
  }

  #emit(line: string, unterminated: boolean): void {
    this.#number += 1;
    const crlf = line.endsWith("\r");
    if (crlf) this.#crlfLines += 1;
    this.#onLine({ number: this.#number, text: crlf ? line.slice(0, -1) : line, crlf, unterminated });
  }
}

/** `bytes.includes(0)`, 4 bytes at a time: about twice as fast on the 32 MiB chunks of a large file. */
function hasZeroByte(bytes: Uint8Array): boolean {
  const head = Math.min(bytes.length, (4 - (bytes.byteOffset & 3)) & 3);
  const words = (bytes.length - head) >>> 2;
  for (let i = 0; i < head; i += 1) if (bytes[i] === 0) return true;
  for (let i = head + words * 4; i < bytes.length; i += 1) if (bytes[i] === 0) return true;
  if (words === 0) return false;
  const view = new Uint32Array(bytes.buffer, bytes.byteOffset + head, words);
  for (let i = 0; i < words; i += 1) {
    const word = view[i] as number;
    if (((word - 0x01010101) & ~word & 0x80808080) !== 0) return true; // some byte of `word` is 0
  }
  return false;
}

function countReplacementChars(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\uFFFD"); i !== -1; i = text.indexOf("\uFFFD", i + 1)) n += 1;
  return n;
}

/** U+FFFD written in the file itself (bytes EF BF BD) is text, not a decoding failure. */
function countEncodedReplacements(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(0xef); i !== -1 && i + 2 < bytes.length; i = bytes.indexOf(0xef, i + 1)) {
    if (bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) n += 1;
  }
  return n;
}
