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
    if (!this.#nulBytes && chunk.includes(0)) this.#nulBytes = true;
    this.#bytes += chunk.byteLength;
    this.#consume(this.#decoder.decode(chunk, { stream: true }));
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
    if (!this.#invalidUtf8 && text.includes("\uFFFD")) this.#invalidUtf8 = true;
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
