/**
 * Token figures for a snapshot, from a count made elsewhere (src/core/tokens). Takes the count by its shape
 * only, so the snapshot format does not move when the counting code does.
 */
import type { SnapshotTokens } from "./schema.ts";

/** What a token count must say for a snapshot: its total (with its kind), each payload item, what counted. */
export interface CountedTokens {
  readonly total: {
    readonly kind: SnapshotTokens["kind"];
    readonly value: number;
    readonly basis: string;
  };
  /** `index` is the item's position in the payload's main list. */
  readonly items: readonly { readonly index: number; readonly role: string; readonly tokens: number }[];
  /** The model family whose coefficients turned tokenizer counts into the estimate. */
  readonly family: { readonly id: string; readonly coefficients: { readonly o200k: number; readonly claude: number } };
}

/** "claude family: o200k + legacy Claude vocabularies, fitted coefficients" */
export function describeTokenizer(family: CountedTokens["family"]): string {
  const names = [
    ...(family.coefficients.o200k !== 0 ? ["o200k"] : []),
    ...(family.coefficients.claude !== 0 ? ["legacy Claude"] : []),
  ];
  return `${family.id} family: ${names.join(" + ") || "no"} ${names.length === 1 ? "vocabulary" : "vocabularies"}, fitted coefficients`;
}

/**
 * The snapshot's token figures: `perItem` has one slot per payload item (null for system items, which the
 * count folds into the system prompt).
 */
export function snapshotTokens(counted: CountedTokens, itemCount: number): SnapshotTokens {
  const perItem: (number | null)[] = new Array<number | null>(itemCount).fill(null);
  for (const item of counted.items) {
    if (item.index >= 0 && item.index < itemCount && item.role !== "system")
      perItem[item.index] = Math.round(item.tokens);
  }
  return {
    total: Math.round(counted.total.value),
    perItem,
    kind: counted.total.kind,
    tokenizer: describeTokenizer(counted.family),
    basis: counted.total.basis,
  };
}
