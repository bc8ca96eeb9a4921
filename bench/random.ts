/**
 * Deterministic randomness for the session generator: a seeded PRNG, sizes drawn from a long-tailed
 * distribution (as real tool outputs are), and text cut from a pool of prose, code and non-ASCII lines.
 */

const WORDS = (
  "the a of to and in is it that for on with as this be are file function we need should will can not by from " +
  "test value type error session entry message model tool call result context payload branch leaf parser line " +
  "update check return import export const let config build run output input path directory module compaction " +
  "summary token cache provider request response stream thinking level change label image user assistant read"
).split(" ");

const CODE = [
  "export function parse(text: string): Result<Value> {",
  '\tconst lines = text.split("\\n");',
  "\tfor (const [i, line] of lines.entries()) {",
  "\t\tif (!line.trim()) continue;",
  "\t\tconsole.log(`line ${i}: ${JSON.stringify(line)}`);",
  "\t}",
  "\treturn { ok: true, value: lines.map((l) => l.replace(/\\s+$/, '')) };",
  "}",
  "$ npm test -- --reporter=dot",
  'src/core/session/load.ts:42:7 - error TS2322: Type "string" is not assignable to type "number".',
  "diff --git a/src/index.ts b/src/index.ts",
  '@@ -10,7 +10,9 @@ import { load } from "./load.js";',
  '-  const x = "old";',
  '+  const x = "new"; // C:\\Users\\dev\\project',
];

const NON_ASCII = [
  "用户想让我把所有配置文件托管到仓库，并且在修改之前先提交一次。",
  "Überprüfe die Größe der Datei — sie enthält „Anführungszeichen“ und Umlaute.",
  "Résumé: l’entrée n’a pas été trouvée; réessayez après la mise à jour.",
  "✓ 12 passed · ✗ 1 failed → see ─── details ───",
];

/** mulberry32: small, fast, and the same sequence for the same seed on every platform. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0 || 0x9e3779b9;
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A size around `median` with a long right tail (log-normal), at least 1. */
  size(median: number, sigma = 1): number {
    const u = Math.max(this.next(), 1e-12);
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
    return Math.max(1, Math.round(median * Math.exp(sigma * z)));
  }

  hex(length: number): string {
    let out = "";
    while (out.length < length)
      out += Math.floor(this.next() * 0x100000000)
        .toString(16)
        .padStart(8, "0");
    return out.slice(0, length);
  }
}

function proseLine(rng: Rng): string {
  const words: string[] = [];
  for (let n = rng.int(6, 24); n > 0; n -= 1) words.push(rng.pick(WORDS));
  const sentence = words.join(" ");
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}${rng.pick([".", ".", "?", ":", " (see `load.ts`)."])}`;
}

function poolLine(rng: Rng): string {
  const roll = rng.next();
  if (roll < 0.5) return proseLine(rng);
  if (roll < 0.9) return rng.pick(CODE);
  return rng.pick(NON_ASCII);
}

/** Pools of text and base64 that generated content is cut from (cutting is far faster than composing). */
export class TextPool {
  readonly #text: string;
  readonly #base64: string;
  readonly #rng: Rng;

  constructor(rng: Rng, textChars = 1 << 20, base64Bytes = 384 * 1024) {
    this.#rng = rng;
    const lines: string[] = [];
    let length = 0;
    while (length < textChars) {
      const line = poolLine(rng);
      lines.push(line);
      length += line.length + 1;
    }
    this.#text = lines.join("\n");
    const bytes = new Uint8Array(base64Bytes);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = Math.floor(rng.next() * 256);
    this.#base64 = Buffer.from(bytes).toString("base64");
  }

  /** About `length` characters of mixed text (longer requests repeat the pool). */
  text(length: number): string {
    const pool = this.#text;
    if (length >= pool.length) return pool.repeat(Math.ceil(length / pool.length)).slice(0, length);
    const start = this.#rng.int(0, pool.length - length);
    return pool.slice(start, start + length);
  }

  /** About `length` characters of base64 (a multiple of 4), starting with `prefix` (itself a multiple of 4 long). */
  base64(length: number, prefix = ""): string {
    const body = Math.max(4, Math.min(length, this.#base64.length - 16) & ~3);
    const start = this.#rng.int(0, (this.#base64.length - body) >> 2) << 2;
    return `${prefix}${this.#base64.slice(start + prefix.length, start + body)}`;
  }
}
