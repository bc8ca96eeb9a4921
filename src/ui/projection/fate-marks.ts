/**
 * The fate of every path entry for the current leaf and rules, as the tree overlay shows it: a short kind for the
 * card's mark and a sentence for hover and focus. Entries not on the path have no mark ("off the current path").
 */
import type { EntryFate } from "../../core/project/project.ts";
import { ruleById } from "../../core/project/rules.ts";

export type FateKind = "in" | "changed" | "summary" | "summarised" | "setting" | "none" | "excluded" | "dropped";

export interface FateMark {
  readonly kind: FateKind;
  readonly reason: string;
}

export const OFF_PATH = "off the current path: not sent at this leaf";

const ruleName = (id: string): string => ruleById(id)?.label ?? id;

export function fateMark(fate: EntryFate, lineOf: (index: number) => number | undefined): FateMark {
  switch (fate.kind) {
    case "in-context":
      return fate.changedBy?.length
        ? { kind: "changed", reason: `in context, changed by rule ${fate.changedBy.map(ruleName).join(", ")}` }
        : { kind: "in", reason: "in context" };
    case "compaction-summary":
      return { kind: "summary", reason: "in context as the compaction summary of everything before it" };
    case "summarised":
      return { kind: "summarised", reason: `summarised by the compaction on line ${lineOf(fate.compaction) ?? "?"}` };
    case "setting":
      return { kind: "setting", reason: `a setting: sets the ${fate.what}, sends no message` };
    case "no-message":
      return { kind: "none", reason: `sends no message: ${fate.reason}` };
    case "excluded":
      return { kind: "excluded", reason: `excluded by rule ${ruleName(fate.rule)}: ${fate.reason}` };
    case "dropped":
      return { kind: "dropped", reason: `dropped: ${fate.reason}` };
  }
}

/** The marks of one projection's path entries, by entry index; undefined for an entry off the path. */
export interface FateMarks {
  get(entry: number): FateMark | undefined;
}

/**
 * Marks for the path entries of a projection, made when first asked for: the tree asks only for the cards it
 * draws, and a path may hold 300,000 entries (a Map of them all took the page 120 ms to fill).
 */
export function fateMarks(
  path: ArrayLike<number>,
  fates: readonly EntryFate[],
  lineOf: (index: number) => number | undefined,
): FateMarks {
  let size = 0;
  for (let i = 0; i < path.length; i++) size = Math.max(size, (path[i] as number) + 1);
  const position = new Int32Array(size).fill(-1); // where each entry is on the path
  for (let i = 0; i < path.length; i++) position[path[i] as number] = i;
  // Most entries share a handful of fate objects (the worker sends one "in context" for all): one mark each.
  const made = new Map<EntryFate, FateMark>();
  return {
    get(entry) {
      const fate = fates[position[entry] ?? -1];
      if (fate === undefined) return undefined;
      let mark = made.get(fate);
      if (mark === undefined) made.set(fate, (mark = fateMark(fate, lineOf)));
      return mark;
    },
  };
}
