/** pi's tree filters (default, no-tools, user-only, labeled-only, all) and its token search, as pure functions. */
import { entryText, fieldText } from "./describe.ts";
import type { EntryTree } from "./tree.ts";
import type { SessionEntry } from "./types.ts";

export type TreeFilter = "default" | "no-tools" | "user-only" | "labeled-only" | "all";
export const TREE_FILTERS: readonly TreeFilter[] = ["default", "no-tools", "user-only", "labeled-only", "all"];

const SETTINGS_TYPES = new Set(["label", "custom", "model_change", "thinking_level_change", "session_info"]);

function messageOf(entry: SessionEntry): Record<string, unknown> | undefined {
  const m = entry.raw["message"];
  return entry.type === "message" && typeof m === "object" && m !== null ? (m as Record<string, unknown>) : undefined;
}

function hasText(content: unknown): boolean {
  if (typeof content === "string") return content.trim() !== "";
  return Array.isArray(content) && content.some((b) => b?.type === "text" && fieldText(b.text ?? "").trim() !== "");
}

/** As pi's /tree: assistant turns with only tool calls are hidden (unless failed or the leaf), then the mode applies. */
export function passesFilter(tree: EntryTree, index: number, filter: TreeFilter, leaf: number | undefined): boolean {
  const entry = tree.entries[index]!;
  const message = messageOf(entry);
  if (message?.["role"] === "assistant" && index !== leaf) {
    const stop = message["stopReason"];
    const failed = typeof stop === "string" && stop !== "stop" && stop !== "toolUse";
    if (!hasText(message["content"]) && !failed) return false;
  }
  switch (filter) {
    case "user-only":
      return message?.["role"] === "user";
    case "no-tools":
      return !SETTINGS_TYPES.has(entry.type) && message?.["role"] !== "toolResult";
    case "labeled-only":
      return entry.id !== undefined && tree.labels.has(entry.id);
    case "all":
      return true;
    default:
      return !SETTINGS_TYPES.has(entry.type);
  }
}

/** The lowercased tokens a query is searched by: an entry is found when its text contains every one. */
export function queryTokens(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * Entries that pass the filter and contain every whitespace-separated token of `query` (case-insensitive), in
 * entry order. `within`: only these entries (in entry order) are read, for a query known to find no others.
 */
export function searchEntries(
  tree: EntryTree,
  query: string,
  filter: TreeFilter,
  leaf: number | undefined,
  within?: Int32Array,
): Int32Array {
  const tokens = queryTokens(query);
  const hits: number[] = [];
  const count = within ? within.length : tree.entries.length;
  for (let k = 0; k < count; k++) {
    const entry = tree.entries[within ? (within[k] as number) : k] as SessionEntry;
    if (!passesFilter(tree, entry.index, filter, leaf)) continue;
    if (tokens.length > 0) {
      const label = entry.id !== undefined ? (tree.labels.get(entry.id)?.label ?? "") : "";
      const text = `${entry.type} ${entryText(entry)} ${label}`.toLowerCase();
      if (!tokens.every((t) => text.includes(t))) continue;
    }
    hits.push(entry.index);
  }
  return Int32Array.from(hits);
}

/**
 * Whether whatever `next` finds, `previous` found too: each of its tokens is part of one of `next`'s, so an
 * entry holding all of `next`'s tokens holds all of its. Typing onto a query narrows it this way.
 */
export function narrows(previous: readonly string[], next: readonly string[]): boolean {
  return previous.every((p) => next.some((n) => n.includes(p)));
}

interface Answered {
  readonly tokens: readonly string[];
  readonly filter: TreeFilter;
  readonly leaf: number | undefined;
  readonly hits: Int32Array;
}

/** Answers kept per tree, the newest last: enough to type on, or to delete a few characters back. */
const KEPT_ANSWERS = 8;

/**
 * Search as a person types: each key sends a longer query, whose hits are among the last one's. Reading only
 * those (rather than every entry's text again) makes a keystroke on a large session cost what its hits cost.
 * The answers are the same as `searchEntries` over the whole tree; a few recent ones are kept per tree.
 */
export class TypedSearch {
  readonly #answers = new WeakMap<EntryTree, Answered[]>();

  search(tree: EntryTree, query: string, filter: TreeFilter, leaf: number | undefined): Int32Array {
    const tokens = queryTokens(query);
    let answers = this.#answers.get(tree);
    if (answers === undefined) this.#answers.set(tree, (answers = []));
    // The answer to the same tokens if there is one, else the fewest hits of a query this one narrows.
    let from: Answered | undefined;
    let same = false;
    for (const answer of answers) {
      if (answer.filter !== filter || answer.leaf !== leaf || !narrows(answer.tokens, tokens)) continue;
      if (narrows(tokens, answer.tokens)) {
        from = answer;
        same = true;
        break;
      }
      if (from === undefined || answer.hits.length < from.hits.length) from = answer;
    }
    const hits = same && from ? from.hits : searchEntries(tree, query, filter, leaf, from?.hits);
    const kept = same ? answers.filter((answer) => answer !== from) : answers; // an answer given again goes last
    kept.push({ tokens, filter, leaf, hits });
    this.#answers.set(tree, kept.slice(-KEPT_ANSWERS));
    return hits;
  }
}
