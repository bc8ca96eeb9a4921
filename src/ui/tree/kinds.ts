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

/** The accessible name of a node: what it is, what it says, and how it relates to the current leaf. */
export function nodeName(node: TreeNode, kind: string | undefined, preview: string | undefined): string {
  const parts =
    node.kind === "run"
      ? [`${node.count} entries folded`]
      : [`${kindLook(kind).name}: ${preview?.slice(0, 100) || "(empty)"}`, node.label ? `label ${node.label}` : ""];
  if (node.isLeaf) parts.push("current leaf");
  else if (node.onPath) parts.push("on the current path");
  if (node.isBranchPoint) parts.push(`${node.childCount} branches`);
  if (node.inCycle) parts.push("on a parent cycle");
  return parts.filter(Boolean).join(", ");
}

/** About how many characters of 12 px text fit on a card beside its badge. */
const CARD_CHARS = 30;

/** The text of a card, cut (with "…") to leave room for its chips: cards do not clip, so it must fit. */
export function fitText(
  text: string,
  label: string | undefined,
  marker: string | undefined,
  foldable: boolean,
): string {
  const chips =
    (label ? Math.min(label.length, 12) + 2 : 0) + (marker ? marker.length * 0.85 + 2 : 0) + (foldable ? 6 : 0);
  const room = Math.max(4, Math.floor(CARD_CHARS - chips));
  return text.length > room ? `${text.slice(0, room - 1)}…` : text;
}
