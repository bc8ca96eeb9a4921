/**
 * Token counts remembered per text content, so re-counting a projection after a small change (a rule toggled,
 * one more message) tokenises only the text that changed. Bounded: the least recently used counts go first.
 */
import type { Tokenizer } from "./tokenizer.ts";

export interface CacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly size: number;
  /** Characters that went through a tokenizer (misses only). */
  readonly tokenizedChars: number;
}

/**
 * The text itself is the key, one map per tokenizer: V8 hashes a string once and keeps the hash on it, so
 * looking up text the session already holds costs no pass over its characters (hashing a copy did: it was half
 * the time of a re-count). The cache keeps its keys alive, so it is bounded in characters as well as in entries.
 */
export class TokenCountCache {
  readonly #counts = new Map<string, Map<string, number>>();
  readonly #capacity: number;
  readonly #maxChars: number;
  #size = 0;
  #chars = 0;
  #hits = 0;
  #misses = 0;
  #tokenizedChars = 0;

  constructor(capacity = 100_000, maxChars = 16 * 1024 * 1024) {
    if (!(capacity > 0)) throw new Error(`a token count cache needs a positive capacity, not ${capacity}`);
    this.#capacity = capacity;
    this.#maxChars = maxChars;
  }

  /** Tokens of `text` under `tokenizer`, from the cache when this content was counted before. */
  count(tokenizer: Tokenizer, text: string): number {
    if (text.length === 0) return 0;
    let counts = this.#counts.get(tokenizer.name);
    if (!counts) this.#counts.set(tokenizer.name, (counts = new Map()));
    const known = counts.get(text);
    if (known !== undefined) {
      this.#hits += 1;
      // Least recently used goes first: a hit moves to the back.
      counts.delete(text);
      counts.set(text, known);
      return known;
    }
    this.#misses += 1;
    this.#tokenizedChars += text.length;
    const value = tokenizer.count(text);
    while (this.#size > 0 && (this.#size >= this.#capacity || this.#chars + text.length > this.#maxChars)) {
      this.#evictOne();
    }
    counts.set(text, value);
    this.#size += 1;
    this.#chars += text.length;
    return value;
  }

  #evictOne(): void {
    for (const counts of this.#counts.values()) {
      const oldest = counts.keys().next();
      if (oldest.done) continue;
      counts.delete(oldest.value);
      this.#size -= 1;
      this.#chars -= oldest.value.length;
      return;
    }
  }

  get stats(): CacheStats {
    return { hits: this.#hits, misses: this.#misses, size: this.#size, tokenizedChars: this.#tokenizedChars };
  }

  resetStats(): void {
    this.#hits = 0;
    this.#misses = 0;
    this.#tokenizedChars = 0;
  }

  clear(): void {
    this.#counts.clear();
    this.#size = 0;
    this.#chars = 0;
    this.resetStats();
  }
}
