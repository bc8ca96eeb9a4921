/** How each entry kind looks in the tree: a name for people, a one-letter badge, a colour and an optional marker. */
import type { TreeNode } from "./layout.ts";

export interface KindLook {
  readonly name: string;
  readonly badge: string;
  /** Badge background; white text on it keeps a contrast of at least 4.5:1. */
  readonly colour: string;
  /** A word shown on entries that change what the model sees or how it runs. */
  readonly marker?: string;
}

const LOOKS: Readonly<Record<string, KindLook>> = {
  user: { name: "User", badge: "U", colour: "#2457c5" },
  assistant: { name: "Assistant", badge: "A", colour: "#6a3fb5" },
  toolResult: { name: "Tool result", badge: "T", colour: "#4f5661" },
  bashExecution: { name: "Bash", badge: "$", colour: "#2b6639" },
  custom: { name: "Extension state", badge: "X", colour: "#7a4a00" },
  custom_message: { name: "Extension message", badge: "E", colour: "#7a4a00" },
  compaction: { name: "Compaction", badge: "C", colour: "#a4161a", marker: "compaction" },
  compactionSummary: { name: "Compaction summary", badge: "C", colour: "#a4161a", marker: "compaction" },
  branch_summary: { name: "Branch summary", badge: "B", colour: "#a4161a", marker: "branch summary" },
  branchSummary: { name: "Branch summary", badge: "B", colour: "#a4161a", marker: "branch summary" },
  model_change: { name: "Model change", badge: "M", colour: "#0a6870", marker: "model" },
  thinking_level_change: { name: "Thinking level change", badge: "θ", colour: "#0a6870", marker: "thinking" },
  label: { name: "Label", badge: "#", colour: "#4f5661" },
  session_info: { name: "Session info", badge: "i", colour: "#4f5661" },
};

export function kindLook(kind: string | undefined): KindLook {
  return (kind !== undefined ? LOOKS[kind] : undefined) ?? { name: kind ?? "Entry", badge: "•", colour: "#4f5661" };
}

/** The accessible name of a node: what it is, what it says, how it relates to the current leaf and the search. */
export function nodeName(
  node: TreeNode,
  kind: string | undefined,
  preview: string | undefined,
  hit = false,
  fate?: string,
): string {
  const parts =
    node.kind === "run"
      ? [`${node.count} entries folded`]
      : [`${kindLook(kind).name}: ${preview?.slice(0, 100) || "(empty)"}`, node.label ? `label ${node.label}` : ""];
  if (node.isLeaf) parts.push("current leaf");
  else if (node.onPath) parts.push("on the current path");
  if (node.isBranchPoint) parts.push(`${node.childCount} branches`);
  if (node.inCycle) parts.push("on a parent cycle");
  if (hit) parts.push("current search hit");
  if (fate) parts.push(fate);
  return parts.filter(Boolean).join(", ");
}

/** About how many characters of 12 px text fit on a card beside its badge. */
const CARD_CHARS = 28;

/** `text` cut to `max` characters, with "…" when cut. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text;
}

/**
 * The text of a card, cut to leave room for its chips (each about as wide as its letters plus two): cards do not
 * clip their content (a clip per card makes every frame of a pan dearer), so the text must fit. Bold text is wider.
 */
export function fitText(text: string, chips: readonly string[], bold: boolean): string {
  const taken = chips.reduce((sum, chip) => sum + chip.length + 2.5, 0);
  return cut(text, Math.max(4, Math.floor((CARD_CHARS - taken) * (bold ? 0.9 : 1))));
}
