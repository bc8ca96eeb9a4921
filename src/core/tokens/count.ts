/**
 * Counting a projection: the prompt pieces of every payload item (and of the system prompt and tools) through
 * the tokenizers, with a per-content cache. `context.ts` turns the counts into the target family's estimate.
 */
import type { LlmMessage } from "../llm/types.ts";
import { PerObject, TARGETS_KEPT } from "../project/memo.ts";
import type { Projection } from "../project/project.ts";
import { TokenCountCache } from "./cache.ts";
import { imageSize, type ImageSize } from "./image.ts";
import { isSystemItem, itemPieces, systemPieces, toolsText, type ImageData, type PromptPieces } from "./text.ts";
import { TOKENIZER_NAMES, type Tokenizer, type TokenizerName, type Tokenizers } from "./tokenizer.ts";

/** Token counts of some text under each vocabulary that was run. */
export type VocabCounts = Partial<Record<TokenizerName, number>>;

const IMAGE_SIZE_CACHE = 2_000;

/** The tokenizers plus the content cache; one per worker or CLI run. */
export class TokenCounter {
  readonly cache: TokenCountCache;
  readonly #tokenizers: Partial<Record<TokenizerName, Tokenizer>>;
  readonly #imageSizes = new Map<string, ImageSize | null>();
  /**
   * Counts per payload item object. Builders hand back the very item objects of an unchanged message (see
   * `PerObject` in project/memo.ts), so after a rule toggle only the items that changed are walked and looked up
   * again. Keyed by the vocabularies counted (`names` joined), a few sets kept: models of other families take
   * turns over the same items.
   */
  readonly #items = new PerObject<object, PieceCounts, string>(TARGETS_KEPT);
  /** Every item's counts of a payload list a caller counted whole beforehand (see `rememberList`). */
  readonly #lists = new WeakMap<
    readonly unknown[],
    { readonly names: string; readonly counts: readonly PieceCounts[] }
  >();
  #misses = 0;

  constructor(tokenizers: Partial<Tokenizers>, cache = new TokenCountCache()) {
    this.#tokenizers = { ...tokenizers };
    this.cache = cache;
  }

  /** Makes one more vocabulary available (tokenizers load lazily, one at a time). */
  add(tokenizer: Tokenizer): void {
    (this.#tokenizers as Record<TokenizerName, Tokenizer>)[tokenizer.name] = tokenizer;
  }

  /** The vocabularies this counter can run. */
  get names(): TokenizerName[] {
    return TOKENIZER_NAMES.filter((name) => this.#tokenizers[name] !== undefined);
  }

  #tokenizer(name: TokenizerName): Tokenizer {
    const tokenizer = this.#tokenizers[name];
    if (!tokenizer) throw new Error(`the ${name} tokenizer is not loaded; load it before counting`);
    return tokenizer;
  }

  /** Tokens of each text, summed, under each of `names`. */
  count(texts: readonly string[], names: readonly TokenizerName[]): VocabCounts {
    const out: VocabCounts = {};
    const tokenizers = names.map((name) => this.#tokenizer(name));
    const sums = names.map(() => 0);
    this.cache.sum(tokenizers, texts, sums);
    names.forEach((name, t) => (out[name] = sums[t] as number));
    return out;
  }

  /** The counts of one payload item under `names` (`key` is `names` joined), remembered per item object. */
  countItem(item: unknown, names: readonly TokenizerName[], key: string): PieceCounts {
    if (typeof item !== "object" || item === null) return countPieces(this, itemPieces(item), names);
    return this.#items.get(item, key, () => {
      this.#misses += 1;
      return countPieces(this, itemPieces(item), names);
    });
  }

  /** How many items `countItem` has had to count rather than remember: a caller pacing a long loop reads it. */
  get misses(): number {
    return this.#misses;
  }

  /**
   * Remembers what `countItem` gave for every item of `list` (`key` as there), so that the `countPayload` that
   * follows reads one array instead of looking every item up again (the worker counts a list in slices first; on
   * a long path that is thousands of items per request, each looked up twice).
   */
  rememberList(list: readonly unknown[], key: string, counts: readonly PieceCounts[]): void {
    this.#lists.set(list, { names: key, counts });
  }

  /** The counts `rememberList` kept for this list and vocabularies, if any. */
  listCounts(list: readonly unknown[], key: string): readonly PieceCounts[] | undefined {
    const known = this.#lists.get(list);
    return known !== undefined && known.names === key ? known.counts : undefined;
  }

  /** Width and height of an image (remembered per content). */
  imageSize(data: ImageData): ImageSize | undefined {
    if (data instanceof Uint8Array) return imageSize(bytesToBase64(data.subarray(0, 128 * 1024)));
    // Keyed by its length and both ends, not the data itself: a provider's data URL is a fresh copy of the image,
    // which the cache would otherwise keep alive (megabytes each); the size is in the header at the start anyway.
    const key = data.length <= 1024 ? data : `${data.length}:${data.slice(0, 512)}${data.slice(-512)}`;
    let size = this.#imageSizes.get(key);
    if (size === undefined) {
      size = imageSize(data) ?? null;
      if (this.#imageSizes.size >= IMAGE_SIZE_CACHE) this.#imageSizes.delete(this.#imageSizes.keys().next().value!);
      this.#imageSizes.set(key, size);
    }
    return size ?? undefined;
  }
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 1) binary += String.fromCharCode(bytes[i] as number);
  return btoa(binary);
}

export type ItemRole = "system" | "user" | "assistant" | "toolResult" | "synthetic";

/** What one payload item holds, counted under every vocabulary asked for. */
export interface ItemCounts {
  /** Position in `payload.body[payload.listKey]`. */
  readonly index: number;
  readonly role: ItemRole;
  /** The request messages (indices into `projection.llm.messages`) it came from. */
  readonly messages: readonly number[];
  /** The session entries it came from. */
  readonly sources: readonly number[];
  readonly text: VocabCounts;
  readonly thinking: VocabCounts;
  readonly toolArgs: VocabCounts;
  readonly images: readonly (ImageSize | undefined)[];
  /** Characters of encrypted reasoning (see PromptPieces.opaque). */
  readonly opaque: number;
}

/** Every counted part of one request. */
export interface PayloadCounts {
  readonly items: readonly ItemCounts[];
  /** System prompt text (body fields and system/developer items), or empty counts when there is none. */
  readonly system: VocabCounts;
  /** Tool definitions as JSON, or empty counts when there are none. */
  readonly tools: VocabCounts;
}

function roleOf(item: unknown, messages: readonly number[], llm: readonly LlmMessage[]): ItemRole {
  if (messages.length === 0) return isSystemItem(item) ? "system" : "synthetic";
  const role = llm[messages[0] as number]?.role;
  return role === "user" || role === "assistant" || role === "toolResult" ? role : "synthetic";
}

function countPieces(counter: TokenCounter, pieces: PromptPieces, names: readonly TokenizerName[]): PieceCounts {
  return {
    text: counter.count(pieces.text, names),
    thinking: counter.count(pieces.thinking, names),
    toolArgs: counter.count(pieces.toolArgs, names),
    images: pieces.images.map((image) => counter.imageSize(image)),
    opaque: pieces.opaque,
  };
}

export type PieceCounts = Pick<ItemCounts, "text" | "thinking" | "toolArgs" | "images" | "opaque">;

/**
 * One item's counts. Results made per item are class instances, not object literals: V8 watches the objects each
 * literal makes, and once a literal's objects outlive a young-generation collection (a first count of a long path
 * keeps thousands of them alive for a while) it allocates all that literal's later objects in the old generation
 * ("allocation-site pretenuring"), where each re-count's short-lived results then pile up until a full
 * collection. Re-counting 4,008 items took 5.9 ms with literals and 1.1 ms with classes (Node 20).
 */
class CountedItem implements ItemCounts {
  readonly text: VocabCounts;
  readonly thinking: VocabCounts;
  readonly toolArgs: VocabCounts;
  readonly images: readonly (ImageSize | undefined)[];
  readonly opaque: number;

  constructor(
    readonly index: number,
    readonly role: ItemRole,
    readonly messages: readonly number[],
    readonly sources: readonly number[],
    counts: PieceCounts,
  ) {
    this.text = counts.text;
    this.thinking = counts.thinking;
    this.toolArgs = counts.toolArgs;
    this.images = counts.images;
    this.opaque = counts.opaque;
  }
}

/** Counts every payload item of a projection, and its system prompt and tools, under `names`. */
export function countPayload(
  projection: Projection,
  counter: TokenCounter,
  names: readonly TokenizerName[] = counter.names,
): PayloadCounts {
  const { body, listKey, origins } = projection.payload;
  const list = Array.isArray(body[listKey]) ? (body[listKey] as unknown[]) : [];
  const items: ItemCounts[] = [];
  const systemItems: unknown[] = [];
  const key = names.join(" ");
  const known = counter.listCounts(list, key);
  list.forEach((item, index) => {
    const messages = origins[index] ?? [];
    const role = roleOf(item, messages, projection.llm.messages);
    if (role === "system") systemItems.push(item);
    const sources = projection.itemSources[index] ?? [];
    const counts = known?.[index] ?? counter.countItem(item, names, key);
    items.push(new CountedItem(index, role, messages, sources, counts));
  });
  const system = systemPieces(body, systemItems);
  const tools = toolsText(body);
  return {
    items,
    system: counter.count([...system.text, ...system.thinking], names),
    tools: counter.count(tools ? [tools] : [], names),
  };
}
