/**
 * The target model's estimate of a counted request (TOKENS.md, "Estimating a projected context"): tokenizer
 * counts times the family's coefficients plus framing per item, images by their size, the thinking the model
 * keeps, and — for the anchored estimator — the model's own earlier replies at their recorded output.
 */
import type { AssistantMessage } from "../llm/types.ts";
import type { Projection } from "../project/project.ts";
import type { ItemCounts, ItemRole, PayloadCounts, VocabCounts } from "./count.ts";
import { familyOf, type Family, type FamilyCoefficients } from "./family.ts";
import { imageTokens } from "./image.ts";
import { TOKENIZER_NAMES } from "./tokenizer.ts";
import { recordedRequest } from "./usage.ts";

/** How an item's number was reached. */
export type ItemBasis = "tokenizer" | "recorded-output";

/** What of one item reaches the model's count, before coefficients: the parts it reads, or its recorded output. */
export interface ItemParts {
  readonly text: VocabCounts;
  /** Thinking the model reads (empty when it drops this turn's thinking). */
  readonly thinking: VocabCounts;
  readonly toolArgs: VocabCounts;
  /** Characters of encrypted reasoning the model reads (0 when it drops this turn's thinking). */
  readonly opaque: number;
  readonly imageTokens: number;
  /** Set when the item is priced at its message's recorded output (its share of it). */
  readonly replayed: number | undefined;
}

export interface EstimateOptions {
  /**
   * Price assistant messages of the target model at their recorded `usage.output` (the anchored estimator);
   * off, everything goes through the tokenizers (the standalone estimator).
   */
  readonly replayRecordedOutput?: boolean;
}

/** Whether an assistant message was written by exactly the target model (so it is replayed natively). */
function isSameModel(message: AssistantMessage, projection: Projection): boolean {
  const model = projection.model;
  return message.provider === model.provider && message.model === model.id && message.api === model.api;
}

/** Index of the last user message in the request; what follows it is the current tool loop. */
function lastUserMessage(projection: Projection, counts: PayloadCounts): number {
  let last = -1;
  for (const item of counts.items)
    for (const m of item.messages) if (projection.llm.messages[m]?.role === "user") last = Math.max(last, m);
  return last;
}

const hasThinking = (message: AssistantMessage): boolean => message.content.some((block) => block.type === "thinking");

/**
 * Recorded output of the target model's own assistant messages that the model reads whole (it keeps their
 * thinking, or they had none), by request message.
 */
function replayableOutputs(projection: Projection, readsThinking: (m: number) => boolean): Map<number, number> {
  const outputs = new Map<number, number>();
  projection.llm.messages.forEach((message, m) => {
    if (message.role !== "assistant" || !isSameModel(message, projection)) return;
    if (!readsThinking(m) && hasThinking(message)) return;
    // A rule rewrote it (dropped its thinking, redacted it): it is no longer what the model wrote. (Read from the
    // conversion, not the path's fates, which a count would otherwise make for every entry of a long path.)
    const fate = projection.llm.fates[projection.llm.from[m] as number];
    if (fate?.kind === "converted" && fate.changedBy?.length) return;
    const recorded = recordedRequest(message);
    if (recorded.ok && recorded.output > 0) outputs.set(m, recorded.output);
  });
  return outputs;
}

const NONE: VocabCounts = Object.freeze({});

// Classes rather than object literals, for V8's sake: see CountedItem in count.ts.

class Part implements ItemParts {
  constructor(
    readonly text: VocabCounts,
    readonly thinking: VocabCounts,
    readonly toolArgs: VocabCounts,
    readonly opaque: number,
    readonly imageTokens: number,
    readonly replayed: number | undefined,
  ) {}
}

class Tokens implements ItemTokens {
  constructor(
    readonly index: number,
    readonly role: ItemRole,
    readonly sources: readonly number[],
    readonly tokens: number,
    readonly basis: ItemBasis,
    readonly vocab: VocabCounts,
    readonly imageTokens: number,
  ) {}
}

class Vocab implements VocabCounts {
  declare o200k?: number;
  declare claude?: number;
}

function readsAll(messages: readonly number[], readsThinking: (m: number) => boolean): boolean {
  for (const m of messages) if (!readsThinking(m)) return false;
  return true;
}

/** Splits every item into what the target family reads of it (TOKENS.md, "Estimating a projected context"). */
export function itemParts(
  projection: Projection,
  counts: PayloadCounts,
  family: Family,
  options: EstimateOptions = {},
): ItemParts[] {
  const lastUser = lastUserMessage(projection, counts);
  const readsThinking = (m: number): boolean => family.keepsEarlierThinking || m > lastUser;
  const outputs = options.replayRecordedOutput
    ? replayableOutputs(projection, readsThinking)
    : new Map<number, number>();
  const parts: ItemParts[] = new Array<ItemParts>(counts.items.length);
  for (let k = 0; k < counts.items.length; k += 1) {
    const item = counts.items[k] as ItemCounts;
    const reads = readsAll(item.messages, readsThinking);
    let images = 0;
    for (const size of item.images) images += imageTokens(size, family.images);
    parts[k] = new Part(
      item.text,
      reads ? item.thinking : NONE,
      item.toolArgs,
      reads ? item.opaque : 0,
      images,
      undefined,
    );
  }
  // An assistant message may span several items (OpenAI Responses): share its output by their estimates.
  const groups = new Map<number, number[]>();
  counts.items.forEach((item, position) => {
    const m = item.messages[0];
    if (item.role === "assistant" && item.messages.length === 1 && m !== undefined && outputs.has(m))
      groups.set(m, [...(groups.get(m) ?? []), position]);
  });
  for (const [m, positions] of groups) {
    const estimates = positions.map((p) => partTokens(parts[p] as ItemParts, family.coefficients));
    const sum = estimates.reduce((a, b) => a + b, 0);
    positions.forEach((p, k) => {
      const share = sum > 0 ? (estimates[k] as number) / sum : 1 / positions.length;
      const part = parts[p] as ItemParts;
      parts[p] = new Part(
        part.text,
        part.thinking,
        part.toolArgs,
        part.opaque,
        part.imageTokens,
        (outputs.get(m) as number) * share,
      );
    });
  }
  return parts;
}

const weighted = (counts: VocabCounts, c: FamilyCoefficients): number =>
  (counts.o200k ?? 0) * c.o200k + (counts.claude ?? 0) * c.claude;

/** Tokens of one item under a family's coefficients. */
export function partTokens(part: ItemParts, c: FamilyCoefficients): number {
  if (part.replayed !== undefined) return part.replayed;
  return (
    weighted(part.text, c) +
    weighted(part.thinking, c) * c.thinking +
    weighted(part.toolArgs, c) * c.toolArgs +
    part.opaque * c.opaque +
    c.framing +
    part.imageTokens
  );
}

const hasAny = (counts: VocabCounts): boolean => TOKENIZER_NAMES.some((name) => (counts[name] ?? 0) > 0);

/** One payload item's estimated prompt tokens for the target model. */
export interface ItemTokens {
  readonly index: number;
  readonly role: ItemRole;
  readonly sources: readonly number[];
  readonly tokens: number;
  readonly basis: ItemBasis;
  /** Raw tokenizer counts of what the model reads of the item (text, thinking it keeps, tool arguments). */
  readonly vocab: VocabCounts;
  /** The part of `tokens` that is images. */
  readonly imageTokens: number;
}

export interface ContextTokens {
  readonly family: Family;
  /** Items of the main list; system/developer items have role "system" and are counted in `system` instead. */
  readonly items: readonly ItemTokens[];
  /** The system prompt given to the projection (0 when none: session files hold none). */
  readonly system: number;
  /** The tool definitions given to the projection (0 when none). */
  readonly tools: number;
  /** Σ tokens of the non-system items. */
  readonly messages: number;
}

/** The vocabularies' counts of three parts added up (a vocabulary none of them was counted under stays absent). */
function sumVocab(a: VocabCounts, b: VocabCounts, c: VocabCounts): VocabCounts {
  const out = new Vocab();
  for (const name of TOKENIZER_NAMES) {
    const x = a[name];
    const y = b[name];
    const z = c[name];
    if (x !== undefined || y !== undefined || z !== undefined) out[name] = (x ?? 0) + (y ?? 0) + (z ?? 0);
  }
  return out;
}

/** The target family's estimate of a counted request, item by item. */
export function estimateContext(
  projection: Projection,
  counts: PayloadCounts,
  options: EstimateOptions = {},
  family: Family = familyOf(projection.model.id, projection.model.provider),
): ContextTokens {
  const c = family.coefficients;
  const parts = itemParts(projection, counts, family, options);
  const items = counts.items.map((item, k): ItemTokens => {
    const part = parts[k] as ItemParts;
    return new Tokens(
      item.index,
      item.role,
      item.sources,
      partTokens(part, c),
      part.replayed === undefined ? "tokenizer" : "recorded-output",
      sumVocab(part.text, part.thinking, part.toolArgs),
      part.imageTokens,
    );
  });
  return {
    family,
    items,
    system: hasAny(counts.system) ? weighted(counts.system, c) + c.framing : 0,
    tools: weighted(counts.tools, c),
    messages: items.reduce((sum, item) => (item.role === "system" ? sum : sum + item.tokens), 0),
  };
}

/** Sums over the non-system items of a request: what the estimate is linear in (used to fit coefficients). */
export interface ContextFeatures {
  readonly o200k: { readonly text: number; readonly thinking: number; readonly toolArgs: number };
  readonly claude: { readonly text: number; readonly thinking: number; readonly toolArgs: number };
  /** Items priced by the tokenizers (each pays the framing). */
  readonly items: number;
  readonly opaque: number;
  readonly imageTokens: number;
  /** Recorded output of replayed assistant messages. */
  readonly replayed: number;
}

export function contextFeatures(counts: PayloadCounts, parts: readonly ItemParts[]): ContextFeatures {
  const o200k = { text: 0, thinking: 0, toolArgs: 0 };
  const claude = { text: 0, thinking: 0, toolArgs: 0 };
  let items = 0;
  let opaque = 0;
  let images = 0;
  let replayed = 0;
  counts.items.forEach((item, k) => {
    const part = parts[k] as ItemParts;
    if (item.role === "system") return;
    if (part.replayed !== undefined) {
      replayed += part.replayed;
      return;
    }
    items += 1;
    opaque += part.opaque;
    images += part.imageTokens;
    for (const key of ["text", "thinking", "toolArgs"] as const) {
      o200k[key] += part[key].o200k ?? 0;
      claude[key] += part[key].claude ?? 0;
    }
  });
  return { o200k, claude, items, opaque, imageTokens: images, replayed };
}

/** The messages estimate a set of features gives under some coefficients (equals ContextTokens.messages). */
export function featureTokens(f: ContextFeatures, c: FamilyCoefficients): number {
  const vocab = (v: { text: number; thinking: number; toolArgs: number }) =>
    v.text + v.thinking * c.thinking + v.toolArgs * c.toolArgs;
  return (
    c.o200k * vocab(f.o200k) +
    c.claude * vocab(f.claude) +
    c.framing * f.items +
    c.opaque * f.opaque +
    f.imageTokens +
    f.replayed
  );
}
