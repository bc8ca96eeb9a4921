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

/** Entries that pass the filter and contain every whitespace-separated token of `query` (case-insensitive). */
export function searchEntries(
  tree: EntryTree,
  query: string,
  filter: TreeFilter,
  leaf: number | undefined,
): Int32Array {
  const tokens = query.toLowerCase().split(/\s+/).filter(Boolean);
  const hits: number[] = [];
  for (const entry of tree.entries) {
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
