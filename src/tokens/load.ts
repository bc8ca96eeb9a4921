/**
 * Loads the real tokenizers, lazily (each vocabulary is its own chunk, fetched the first time it is asked for):
 * gpt-tokenizer's pure-JS BPE engine with OpenAI's o200k_base ranks, and the same engine with the legacy Claude
 * vocabulary from `@anthropic-ai/tokenizer` (its `claude.json`; no WASM). Works in Node and in a Web Worker.
 */
import type { Tokenizer, TokenizerName, Tokenizers } from "../core/tokens/tokenizer.ts";
import { withRunCap } from "../core/tokens/tokenizer.ts";

type RawRanks = (string | number[])[];

async function loadO200k(): Promise<Tokenizer> {
  const [{ BytePairEncodingCore }, { O200KBase }, ranks] = await Promise.all([
    import("gpt-tokenizer/BytePairEncodingCore"),
    import("gpt-tokenizer/encodingParams/o200k_base"),
    import("gpt-tokenizer/bpeRanks/o200k_base"),
  ]);
  const core = new BytePairEncodingCore(O200KBase(ranks.default));
  // No special tokens are allowed: "<|endoftext|>" in a message is text, as the providers treat it.
  return { name: "o200k", count: withRunCap((text) => core.countNative(text)) };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** tiktoken's "lite" rank format: `<marker> <first rank> <base64 token> <base64 token> …` per line. */
function decodeLiteRanks(source: string): RawRanks {
  const ranks: RawRanks = [];
  for (const line of source.split("\n")) {
    const parts = line.split(" ");
    const offset = Number(parts[1]);
    if (!Number.isInteger(offset)) throw new Error("claude.json: unexpected bpe_ranks format");
    for (let i = 2; i < parts.length; i += 1) {
      const binary = atob(parts[i] as string);
      const bytes = new Uint8Array(binary.length);
      for (let b = 0; b < binary.length; b += 1) bytes[b] = binary.charCodeAt(b);
      let value: string | number[];
      try {
        value = utf8.decode(bytes);
      } catch {
        value = [...bytes];
      }
      ranks[offset + i - 2] = value;
    }
  }
  return ranks;
}

/**
 * How many merged pieces the Claude tokenizer remembers. Its pre-tokeniser keeps a number whole (o200k's cuts
 * numbers into threes, all in its vocabulary), so timestamps, ids and counts are pieces to merge, most of them met
 * once. gpt-tokenizer's cache is a Map used as an LRU (a hit deletes and re-adds its key, a miss evicts the first
 * key once full), and each eviction walks past the deleted slots before it: the larger the cache, the longer every
 * miss takes once it is full. Counted on one 8 MB minified JSON of timestamps and numbers: 34 s with the default of
 * 100,000, 4.5 s with 1,000 (the rest is merging the unique numbers); on one 8 MB text of numbered lines, 2.5 s
 * and 0.48 s. On every text of the shared corpus (8 MB) it counts as fast as the default: 5.5 MB/s.
 */
const CLAUDE_MERGE_CACHE_SIZE = 1000;

async function loadClaude(): Promise<Tokenizer> {
  const [{ BytePairEncodingCore }, vocabulary] = await Promise.all([
    import("gpt-tokenizer/BytePairEncodingCore"),
    import("@anthropic-ai/tokenizer/claude.json", { with: { type: "json" } }),
  ]);
  const claude = vocabulary.default as {
    pat_str: string;
    special_tokens: Record<string, number>;
    bpe_ranks: string;
  };
  const core = new BytePairEncodingCore({
    bytePairRankDecoder: decodeLiteRanks(claude.bpe_ranks),
    specialTokensEncoder: new Map(Object.entries(claude.special_tokens)),
    tokenSplitRegex: new RegExp(claude.pat_str, "gu"),
    mergeCacheSize: CLAUDE_MERGE_CACHE_SIZE,
  });
  // The official package normalises to NFKC before encoding.
  const count = withRunCap((text) => core.countNative(text));
  return { name: "claude", count: (text) => count(text.normalize("NFKC")) };
}

const loading = new Map<TokenizerName, Promise<Tokenizer>>();

/** The tokenizer for one vocabulary; loaded once, on first use. */
export function loadTokenizer(name: TokenizerName): Promise<Tokenizer> {
  let promise = loading.get(name);
  if (!promise) {
    promise = name === "o200k" ? loadO200k() : loadClaude();
    loading.set(name, promise);
    promise.catch(() => loading.delete(name));
  }
  return promise;
}

/** Both vocabularies (what the estimators need). */
export async function loadTokenizers(): Promise<Tokenizers> {
  const [o200k, claude] = await Promise.all([loadTokenizer("o200k"), loadTokenizer("claude")]);
  return { o200k, claude };
}
