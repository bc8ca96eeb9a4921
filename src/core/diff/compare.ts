/**
 * Two projections of one session side by side — two rule presets, two models or two leaves — as a list of
 * changes aligned by provenance, with token and cost deltas and the first point at which the payloads diverge.
 */
import type { Projection } from "../project/project.ts";
import { freshDataUrls } from "../providers/common.ts";
import type { ProjectionTokens, TokenFigure } from "../tokens/projection.ts";
import { alignItems, pairItems, type AlignSide, type ItemGroup, type ItemPair } from "./align.ts";
import { Describer, type EntryLabel } from "./describe.ts";
import { divergence, type Divergence } from "./divergence.ts";
import { cacheUnits, payloadItems, readableText, sameForCache } from "./items.ts";
import { diffJson, type JsonDiff } from "./json-diff.ts";
import { diffText, type TextDiff } from "./text-diff.ts";

export type ChangeKind = "added" | "removed" | "changed" | "unchanged";

export interface ItemChange {
  readonly kind: ChangeKind;
  /** Session entries behind the items (none for a system prompt or a synthetic tool result). */
  readonly entries: readonly number[];
  /** Positions in A's and B's main lists. */
  readonly a: readonly number[];
  readonly b: readonly number[];
  /** Which items of A and B are equal, and which only one side has. */
  readonly pairs: readonly ItemPair[];
  /** "tool result of read", "assistant turn", "system prompt". */
  readonly what: string;
  /** "tool result of read on line 8 truncated". */
  readonly description: string;
  /** Estimated prompt tokens of these items on each side, when counted. */
  readonly tokensA?: number;
  readonly tokensB?: number;
  readonly tokenDelta?: number;
  /** Dollars: B's items at B's input price minus A's at A's. */
  readonly costDelta?: number;
  /** Changed items only: what changed in the text the model reads. */
  readonly textDiff?: TextDiff;
}

export interface SideSummary {
  readonly leaf: number;
  /** "PROVIDER/ID". */
  readonly model: string;
  readonly api: string;
  readonly items: number;
  readonly total?: TokenFigure;
  /** Dollars per million uncached input tokens. */
  readonly inputPrice: number;
  /** The whole prompt at that price, when counted. */
  readonly cost?: number;
}

export interface Comparison {
  readonly a: SideSummary;
  readonly b: SideSummary;
  readonly changes: readonly ItemChange[];
  readonly counts: Readonly<Record<ChangeKind, number>>;
  /** B's total minus A's, when both were counted. */
  readonly tokenDelta?: number;
  readonly costDelta?: number;
  /** Where B first departs from A; undefined when the two requests are the same for a prompt cache. */
  readonly divergence: Divergence | undefined;
  /** The structural diff of the two request bodies, when asked for. */
  readonly json?: JsonDiff;
  /** Why the two sides could not be counted (the comparison then has no token figures). */
  readonly tokensError?: string;
}

export interface CompareOptions {
  /** How entries are named in descriptions ("line 42"). */
  readonly entryLabel?: EntryLabel;
  /** Also diff the two request bodies as JSON. */
  readonly json?: boolean;
}

/** Role of an item without entries: a system prompt in the list, or a synthetic tool result. */
function sourcelessKind(item: unknown): string {
  const role = (item as { role?: unknown } | null)?.role;
  return role === "system" || role === "developer" ? "system" : "synthetic";
}

function alignSide(p: Projection): AlignSide & { items: readonly unknown[] } {
  const items = payloadItems(p);
  return {
    items,
    sources: items.map((_, i) => p.itemSources[i] ?? []),
    keys: items.map((item) => JSON.stringify(item, freshDataUrls)),
    kinds: items.map(sourcelessKind),
  };
}

function summary(p: Projection, tokens: ProjectionTokens | undefined): SideSummary {
  const inputPrice = p.model.cost.input;
  return {
    leaf: p.leaf,
    model: `${p.model.provider}/${p.model.id}`,
    api: p.model.api,
    items: payloadItems(p).length,
    inputPrice,
    ...(tokens ? { total: tokens.total, cost: (tokens.total.value * inputPrice) / 1e6 } : {}),
  };
}

/** Each main-list item's tokens by its index (0 for one not counted); undefined when the side was not counted. */
function tokensByItem(tokens: ProjectionTokens | undefined): Float64Array | undefined {
  if (!tokens) return undefined;
  let length = 0;
  for (const item of tokens.items) length = Math.max(length, item.index + 1);
  const byItem = new Float64Array(length);
  for (const item of tokens.items) byItem[item.index] = item.tokens;
  return byItem;
}

const sumTokens = (indices: readonly number[], byItem: Float64Array | undefined): number | undefined =>
  byItem && Math.round(indices.reduce((sum, i) => sum + (byItem[i] ?? 0), 0));

function kindOf(group: ItemGroup, pairs: readonly ItemPair[]): ChangeKind {
  if (group.b.length === 0) return "removed";
  if (group.a.length === 0) return "added";
  return pairs.every((p) => p.same) ? "unchanged" : "changed";
}

interface Sides {
  readonly a: ReturnType<typeof alignSide>;
  readonly b: ReturnType<typeof alignSide>;
  readonly describer: Describer;
}

/** The items of both sides are the same for a prompt cache: only a cache marker moved. */
function cacheMarkerOnly(group: ItemGroup, sides: Sides): boolean {
  return (
    group.a.length === group.b.length &&
    group.a.every((i, k) => sameForCache(sides.a.items[i], sides.b.items[group.b[k] as number]))
  );
}

/** The items of both sides are equal once their `id` fields are left out (pi-ai numbers some by position). */
function idsOnly(group: ItemGroup, sides: Sides): boolean {
  const withoutIds = (items: readonly unknown[]) =>
    JSON.stringify(items, (k, v: unknown) => (k === "id" ? undefined : freshDataUrls(k, v)));
  return withoutIds(group.a.map((i) => sides.a.items[i])) === withoutIds(group.b.map((j) => sides.b.items[j]));
}

function describeChange(kind: ChangeKind, group: ItemGroup, what: string, sides: Sides, same: boolean): string {
  const d = sides.describer;
  const subject = `${what}${d.where(group.entries)}`;
  switch (kind) {
    case "unchanged":
      return `${subject} unchanged`;
    case "removed": {
      const why = d.whyNot("b", group.entries);
      return why.startsWith("left out by rule")
        ? `${subject} removed (${why})`
        : `${subject} removed${why ? ` (in B: ${why})` : ""}`;
    }
    case "added": {
      const why = d.whyNot("a", group.entries);
      return `${subject} added${why ? ` (in A: ${why})` : ""}`;
    }
    case "changed": {
      const rules = d.ruleChanges(group.entries);
      if (rules) return `${subject}: ${rules}`;
      if (cacheMarkerOnly(group, sides)) return `${subject}: only its prompt-cache marker differs`;
      if (same && idsOnly(group, sides)) return `${subject}: same content, only its item ids differ`;
      if (same) return `${subject}: same text, sent differently (${sides.describer.b.model.api} request format)`;
      const countA = group.a.length;
      const countB = group.b.length;
      return countA !== countB ? `${subject} changed (${countA} → ${countB} items)` : `${subject} changed`;
    }
  }
}

function changeOf(
  group: ItemGroup,
  sides: Sides,
  tokens: readonly [Float64Array | undefined, Float64Array | undefined],
): ItemChange {
  const pairs = pairItems(group, sides.a.keys, sides.b.keys);
  const kind = kindOf(group, pairs);
  const fallback =
    (group.b.length > 0 ? sides.b.kinds[group.b[0]!] : sides.a.kinds[group.a[0]!]) === "system"
      ? "system prompt"
      : "synthetic tool result";
  const what = sides.describer.what(group.entries, fallback);
  let textDiff: TextDiff | undefined;
  if (kind === "changed") {
    const textA = readableText(group.a.map((i) => sides.a.items[i]));
    const textB = readableText(group.b.map((j) => sides.b.items[j]));
    textDiff = diffText(textA, textB);
  }
  const same = textDiff !== undefined && textDiff.addedChars === 0 && textDiff.removedChars === 0;
  const tokensA = sumTokens(group.a, tokens[0]);
  const tokensB = sumTokens(group.b, tokens[1]);
  const priceA = sides.describer.a.model.cost.input;
  const priceB = sides.describer.b.model.cost.input;
  return {
    kind,
    entries: group.entries,
    a: group.a,
    b: group.b,
    pairs,
    what,
    description: describeChange(kind, group, what, sides, same),
    ...(tokensA !== undefined ? { tokensA } : {}),
    ...(tokensB !== undefined ? { tokensB } : {}),
    ...(tokensA !== undefined && tokensB !== undefined
      ? { tokenDelta: tokensB - tokensA, costDelta: (tokensB * priceB - tokensA * priceA) / 1e6 }
      : {}),
    ...(textDiff ? { textDiff } : {}),
  };
}

function describeDivergence(
  d: Divergence | undefined,
  changes: readonly ItemChange[],
  a: SideSummary,
  b: SideSummary,
): Divergence | undefined {
  if (!d) return undefined;
  const item = (side: "a" | "b", index: number | undefined) => {
    const change = index === undefined ? undefined : changes.find((c) => c[side].includes(index));
    return change ? `item ${index} of ${side.toUpperCase()}: ${change.description}` : `item ${index}`;
  };
  const description =
    d.at === "model"
      ? `the model (${a.model} → ${b.model}): a prompt cache is never shared across models`
      : d.at === "tools"
        ? "the tool definitions"
        : d.at === "system"
          ? "the system prompt"
          : d.at === "end"
            ? `B ends after ${b.items} items where A goes on (all of B is a prefix of A)`
            : d.itemA === undefined
              ? `${item("b", d.itemB)}, after all of A (A is a prefix of B)`
              : item("b", d.itemB);
  return { ...d, description };
}

/**
 * Compares two projections of one session: the items aligned by the entries they came from, each with its token
 * delta when both sides were counted, the totals, the cost at each model's input price and the first divergence.
 */
export function compareProjections(
  a: Projection,
  b: Projection,
  tokensA?: ProjectionTokens,
  tokensB?: ProjectionTokens,
  options: CompareOptions = {},
): Comparison {
  const sides: Sides = { a: alignSide(a), b: alignSide(b), describer: new Describer(a, b, options.entryLabel) };
  const groups = alignItems(sides.a, sides.b);
  // Looked up once per side: a path with compaction off is tens of thousands of items in as many groups.
  const byItem = [tokensByItem(tokensA), tokensByItem(tokensB)] as const;
  const changes = groups.map((group) => changeOf(group, sides, byItem));
  const counts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  for (const change of changes) counts[change.kind] += 1;
  const sa = summary(a, tokensA);
  const sb = summary(b, tokensB);
  return {
    a: sa,
    b: sb,
    changes,
    counts,
    ...(tokensA && tokensB ? { tokenDelta: Math.round(tokensB.total.value) - Math.round(tokensA.total.value) } : {}),
    ...(sa.cost !== undefined && sb.cost !== undefined ? { costDelta: sb.cost - sa.cost } : {}),
    divergence: describeDivergence(divergence(cacheUnits(a), cacheUnits(b), tokensB), changes, sa, sb),
    ...(options.json ? { json: diffJson(a.payload.body, b.payload.body) } : {}),
  };
}
