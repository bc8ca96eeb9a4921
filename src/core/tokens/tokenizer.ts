/**
 * What a tokenizer is to the rest of the core: a name and a count. The real BPE engines live outside
 * src/core (src/tokens/load.ts loads them lazily); tests may pass any object of this shape.
 */

/** The vocabularies Context Lens counts with: OpenAI's o200k_base, and Anthropic's legacy Claude vocabulary. */
export type TokenizerName = "o200k" | "claude";

export const TOKENIZER_NAMES: readonly TokenizerName[] = ["o200k", "claude"];

export interface Tokenizer {
  readonly name: TokenizerName;
  /** Number of tokens `text` encodes to (special-token strings count as plain text). */
  count(text: string): number;
}

/** One tokenizer per vocabulary, as the estimators use them. */
export type Tokenizers = Readonly<Record<TokenizerName, Tokenizer>>;

/** Runs of one character longer than this are cut before encoding; BPE time grows with the square of a run. */
export const RUN_CAP = 256;

/**
 * Wraps a raw BPE count so that long runs of one character cost linear time: each run longer than `cap` is
 * encoded as `cap` characters, and the rest is priced at the marginal cost of that character in a long run (memoised).
 */
export function withRunCap(countRaw: (text: string) => number, cap = RUN_CAP): (text: string) => number {
  const perChar = new Map<string, number>();
  const rate = (char: string): number => {
    let value = perChar.get(char);
    if (value === undefined) {
      // The marginal price of one more character, free of the run's edges.
      // Measured inside a word boundary on both sides, as a run usually sits in a text.
      const run = (n: number) => countRaw(`x${char.repeat(n)}x`);
      value = (run(3 * cap) - run(cap)) / (2 * cap);
      perChar.set(char, value);
    }
    return value;
  };
  return (text) => {
    if (text.length <= cap) return countRaw(text);
    let extra = 0;
    let cut = false;
    let out = "";
    let start = 0;
    let i = 0;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) === code) j += 1;
      if (j - i > cap) {
        const char = text[i] as string;
        out += text.slice(start, i + cap);
        extra += (j - i - cap) * rate(char);
        start = j;
        cut = true;
      }
      i = j;
    }
    if (!cut) return countRaw(text);
    return countRaw(out + text.slice(start)) + Math.round(extra);
  };
}
