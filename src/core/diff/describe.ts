/**
 * One line per change, in words a person reads at a glance: "bash output on line 42 removed by rule Bash
 * executions", "tool result of read on line 8 truncated", "assistant turn on line 12 added (not on A's path)".
 */
import type { EntryFate, Projection } from "../project/project.ts";
import { ruleById } from "../project/rules.ts";
import { fieldText } from "../session/describe.ts";

/** How to name an entry ("line 42"); the default says its index. */
export type EntryLabel = (entry: number) => string;

export const defaultEntryLabel: EntryLabel = (entry) => `entry #${entry}`;

/** What the agent message of an entry is, in a few words. */
function nounOf(message: Readonly<Record<string, unknown>>): string {
  switch (message["role"]) {
    case "user":
      return "user message";
    case "assistant":
      return "assistant turn";
    case "toolResult":
      return `tool result of ${fieldText(message["toolName"] ?? "a tool")}`;
    case "bashExecution":
      return "bash output";
    case "custom":
      return `extension message (${fieldText(message["customType"] ?? "custom")})`;
    case "branchSummary":
      return "branch summary";
    case "compactionSummary":
      return "compaction summary";
    default:
      return `${fieldText(message["role"] ?? "unknown")} message`;
  }
}

/** The agent message each entry became in a projection. */
function messagesByEntry(p: Projection | undefined): Map<number, Readonly<Record<string, unknown>>> {
  const out = new Map<number, Readonly<Record<string, unknown>>>();
  p?.context.sources.forEach((entry, i) => {
    const message = p.context.messages[i];
    if (message) out.set(entry, message);
  });
  return out;
}

export class Describer {
  readonly #a: Map<number, Readonly<Record<string, unknown>>>;
  readonly #b: Map<number, Readonly<Record<string, unknown>>>;

  constructor(
    readonly a: Projection,
    readonly b: Projection,
    readonly label: EntryLabel = defaultEntryLabel,
  ) {
    this.#a = messagesByEntry(a);
    this.#b = messagesByEntry(b);
  }

  /** "tool result of read", "tool results of read and bash", "system prompt". */
  what(entries: readonly number[], fallback: string): string {
    if (entries.length === 0) return fallback;
    const nouns = entries.map((e) => {
      const message = this.#b.get(e) ?? this.#a.get(e);
      return message ? nounOf(message) : "entry";
    });
    const distinct = [...new Set(nouns)];
    if (distinct.length === 1 && nouns.length === 1) return distinct[0] as string;
    if (nouns.every((n) => n.startsWith("tool result of ")))
      return `tool results of ${joinWords(nouns.map((n) => n.slice("tool result of ".length)))}`;
    return distinct.length === 1 ? `${nouns.length} ${distinct[0]}s` : joinWords(distinct);
  }

  /** "on line 42", "on lines 7–9". */
  where(entries: readonly number[]): string {
    if (entries.length === 0) return "";
    const labels = entries.map(this.label);
    if (labels.length === 1) return ` on ${labels[0]}`;
    const lines = labels.map((l) => /^line (\d+)$/.exec(l)?.[1]);
    if (lines.every((l) => l !== undefined))
      return ` on lines ${lines.length === 2 ? lines.join(" and ") : `${lines[0]}–${lines[lines.length - 1]}`}`;
    return ` on ${joinWords(labels)}`;
  }

  /** Why the entries are not in side `side`'s payload: its fate there, or that they are not on its path. */
  whyNot(side: "a" | "b", entries: readonly number[]): string {
    const p = side === "a" ? this.a : this.b;
    const other = side === "a" ? "A" : "B";
    const entry = entries[0];
    if (entry === undefined) return "";
    if (!p.path.includes(entry)) return `not on ${other}'s path`;
    const fate = p.fates.get(entry);
    return fate ? fateWords(fate, this.label) : "";
  }

  /** What the rules did to these entries in B and not in A (and the other way round). */
  ruleChanges(entries: readonly number[]): string {
    const rules = (p: Projection) =>
      new Set(
        entries.flatMap((e) => {
          const fate = p.fates.get(e);
          return fate?.kind === "in-context" ? (fate.changedBy ?? []) : [];
        }),
      );
    const inA = rules(this.a);
    const inB = rules(this.b);
    const onlyB = [...inB].filter((r) => !inA.has(r)).map(ruleVerb);
    const onlyA = [...inA].filter((r) => !inB.has(r)).map(ruleVerb);
    return [joinWords(onlyB), onlyA.length > 0 ? `(in A: ${joinWords(onlyA)})` : ""].filter(Boolean).join(" ");
  }
}

const VERBS: Readonly<Record<string, string>> = {
  "truncate-tool-results": "truncated",
  bash: "cut to its first and last lines",
  "redact-secrets": "secrets redacted",
  "drop-thinking": "thinking dropped",
  "block-images": "images blocked",
};

function ruleVerb(rule: string): string {
  return VERBS[rule] ?? `changed by rule ${ruleById(rule)?.label ?? rule}`;
}

function fateWords(fate: EntryFate, label: EntryLabel): string {
  switch (fate.kind) {
    case "excluded":
      return `left out by rule ${ruleById(fate.rule)?.label ?? fate.rule}`;
    case "summarised":
      return `summarised by the compaction on ${label(fate.compaction)}`;
    case "dropped":
      return `dropped: ${fate.reason}`;
    case "no-message":
      return fate.reason;
    case "setting":
      return `a ${fate.what} setting`;
    case "compaction-summary":
      return "the compaction summary";
    case "in-context":
      return "sent in another item";
  }
}

export function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
