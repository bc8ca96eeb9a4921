/**
 * Token counts remembered per text content, so re-counting a projection after a small change (a rule toggled,
 * one more message) tokenises only the text that changed. Bounded: counts not used for a while go first.
 */
import { SEGMENTED_LENGTH, segmentEnds, segmentKey } from "./segments.ts";
import type { Tokenizer } from "./tokenizer.ts";

export interface CacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly size: number;
  /** Characters that went through a tokenizer (misses only). */
  readonly tokenizedChars: number;
}

/** The counts of one text, per vocabulary counted so far. */
type Counts = Partial<Record<Tokenizer["name"], number>>;

/**
 * The text itself is the key: V8 hashes a string once and keeps the hash on it, so looking up text the session
 * already holds costs no pass over its characters (hashing a copy did: it was half the time of a re-count). One
 * record per text holds every vocabulary's count, so counting under two tokenizers looks the text up once.
 *
 * Bounded in entries and in characters (the cache keeps its keys alive) by two generations instead of a strict
 * least-recently-used list: texts land in the young map; when it is full it becomes the old map and the former
 * old map is dropped; a text found in the old map moves back to the young one. What was not used for a whole
 * generation goes, and a hit in the young map costs one lookup (a strict LRU paid a delete and an insert).
 *
 * A long text that is not known is counted in segments (see segments.ts), each remembered under a hash of its
 * content: a text that shares most of its lines with one counted before re-tokenises only what differs.
 */
export class TokenCountCache {
  /** Keys are texts, or (numbers) hashes of segments of long texts. */
  #young = new Map<string | number, Counts>();
  #old = new Map<string | number, Counts>();
  #youngChars = 0;
  /** Entries and characters of one generation: half the bound each, so both together stay within it. */
  readonly #generation: number;
  readonly #generationChars: number;
  #hits = 0;
  #misses = 0;
  #tokenizedChars = 0;

  constructor(capacity = 100_000, maxChars = 16 * 1024 * 1024) {
    if (!(capacity > 0)) throw new Error(`a token count cache needs a positive capacity, not ${capacity}`);
    this.#generation = Math.max(1, Math.floor(capacity / 2));
    this.#generationChars = Math.max(1, Math.floor(maxChars / 2));
  }

  /** Tokens of `text` under `tokenizer`, from the cache when this content was counted before. */
  count(tokenizer: Tokenizer, text: string): number {
    if (text.length === 0) return 0;
    const counts = this.#record(text);
    const known = counts[tokenizer.name];
    if (known !== undefined) {
      this.#hits += 1;
      return known;
    }
    return this.#tokenize(tokenizer, text, counts);
  }

  /**
   * Adds the tokens of every text under each tokenizer to `sums` (same order as `tokenizers`), looking each text
   * up once for all of them.
   */
  sum(tokenizers: readonly Tokenizer[], texts: readonly string[], sums: number[]): void {
    for (const text of texts) {
      if (text.length === 0) continue;
      const counts = this.#record(text);
      for (let t = 0; t < tokenizers.length; t += 1) {
        const tokenizer = tokenizers[t] as Tokenizer;
        let value = counts[tokenizer.name];
        if (value === undefined) value = this.#tokenize(tokenizer, text, counts);
        else this.#hits += 1;
        sums[t] = (sums[t] ?? 0) + value;
      }
    }
  }

  #tokenize(tokenizer: Tokenizer, text: string, counts: Counts): number {
    this.#misses += 1;
    const value = text.length >= SEGMENTED_LENGTH ? this.#countSegments(tokenizer, text) : this.#run(tokenizer, text);
    counts[tokenizer.name] = value;
    return value;
  }

  #run(tokenizer: Tokenizer, text: string): number {
    this.#tokenizedChars += text.length;
    return tokenizer.count(text);
  }

  #countSegments(tokenizer: Tokenizer, text: string): number {
    const ends = segmentEnds(text);
    if (ends.length === 1) return this.#run(tokenizer, text);
    let sum = 0;
    let start = 0;
    for (const end of ends) {
      const counts = this.#record(segmentKey(text, start, end), 0);
      let value = counts[tokenizer.name];
      if (value === undefined) counts[tokenizer.name] = value = this.#run(tokenizer, text.slice(start, end));
      sum += value;
      start = end;
    }
    return sum;
  }

  /**
   * The record of `key` in the young generation, moved there from the old one or created. `chars` is what the
   * key keeps alive (a text's length; nothing for a segment's hash).
   */
  #record(key: string | number, chars = (key as string).length): Counts {
    const young = this.#young.get(key);
    if (young !== undefined) return young;
    let counts = this.#old.get(key);
    if (counts !== undefined) this.#old.delete(key);
    else counts = {};
    if (this.#young.size >= this.#generation || this.#youngChars + chars > this.#generationChars) {
      this.#old = this.#young;
      this.#young = new Map();
      this.#youngChars = 0;
    }
    this.#young.set(key, counts);
    this.#youngChars += chars;
    return counts;
  }

  get stats(): CacheStats {
    return {
      hits: this.#hits,
      misses: this.#misses,
      size: this.#young.size + this.#old.size,
      tokenizedChars: this.#tokenizedChars,
    };
  }

  resetStats(): void {
    this.#hits = 0;
    this.#misses = 0;
    this.#tokenizedChars = 0;
  }

  clear(): void {
    this.#young = new Map();
    this.#old = new Map();
    this.#youngChars = 0;
    this.resetStats();
  }
}
