/**
 * The first position at which two requests differ, as a provider's prompt cache sees them: everything before it
 * can be served from the cache, everything from it on in B has to be processed again.
 */
import type { ProjectionTokens } from "../tokens/projection.ts";
import { sameForCache, type CacheUnit } from "./items.ts";

export interface Divergence {
  /** Position among the cache units (0 model, 1 tools, 2 system prompt, 3… the items). */
  readonly unit: number;
  /**
   * What differs first: the model, the tool definitions, the system prompt, an item, or "end" when B stops
   * where A goes on (all of B is a prefix of A).
   */
  readonly at: "model" | "tools" | "system" | "item" | "end";
  /** The item of A at that position (undefined past A's end). */
  readonly itemA?: number;
  /** The item of B at that position (undefined past B's end). */
  readonly itemB?: number;
  /** In words: "the system prompt", "item 12 of B: assistant turn on line 40 (thinking dropped)". */
  readonly description?: string;
  /** B's prompt tokens before it (the part a cache could serve): its total less `tokensAfter`. */
  readonly tokensBefore?: number;
  /** B's prompt tokens from it on (processed again), when B was counted. */
  readonly tokensAfter?: number;
}

/** Index of the first unit that differs; `a.length === b.length` and all equal gives undefined. */
export function firstDifference(a: readonly CacheUnit[], b: readonly CacheUnit[]): number | undefined {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k += 1) if (!sameForCache((a[k] as CacheUnit).value, (b[k] as CacheUnit).value)) return k;
  return a.length === b.length ? undefined : n;
}

/**
 * B's tokens from unit `unit` on: the items from there (estimated one by one), or the whole prompt when the
 * model, tools or system prompt differ (tools come first: when only the system prompt differs, given tools
 * still match). The rest of B's total is the prefix a cache could serve, so a calibrated total's error stays in
 * the prefix and not in what changed.
 */
export function tokensFrom(units: readonly CacheUnit[], unit: number, tokens: ProjectionTokens): number {
  const total = Math.max(0, Math.round(tokens.total.value));
  if (unit >= units.length) return 0;
  if (unit < 2) return total;
  if (unit === 2) return Math.max(0, total - Math.round(tokens.tools));
  // Items are counted in list order, so an item's index is its position: read it there (a Map of every item,
  // made per request of a cache series, cost more than the sum), else look it up.
  const items = tokens.items;
  let byIndex: Map<number, number> | undefined;
  const tokensOf = (index: number): number => {
    const at = items[index];
    if (at?.index === index) return at.tokens;
    byIndex ??= new Map(items.map((item) => [item.index, item.tokens]));
    return byIndex.get(index) ?? 0;
  };
  let sum = 0;
  for (let k = unit; k < units.length; k += 1) {
    const u = units[k] as CacheUnit;
    if (u.kind === "item") sum += tokensOf(u.item as number);
  }
  return Math.max(0, Math.min(total, Math.round(sum)));
}

/** Where B first departs from A, with B's tokens on either side of that point when B was counted. */
export function divergence(
  a: readonly CacheUnit[],
  b: readonly CacheUnit[],
  tokensB?: ProjectionTokens,
): Divergence | undefined {
  const k = firstDifference(a, b);
  if (k === undefined) return undefined;
  const unitB = b[k];
  const unitA = a[k];
  const at = unitB ? unitB.kind : "end";
  const after = tokensB ? tokensFrom(b, k, tokensB) : undefined;
  return {
    unit: k,
    at,
    ...(unitA?.item !== undefined ? { itemA: unitA.item } : {}),
    ...(unitB?.item !== undefined ? { itemB: unitB.item } : {}),
    ...(tokensB && after !== undefined
      ? { tokensBefore: Math.max(0, Math.round(tokensB.total.value) - after), tokensAfter: after }
      : {}),
  };
}
