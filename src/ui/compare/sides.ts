/** Names for the two sides of a comparison, and B's leaf typed by a person. */
import type { SessionSummary } from "../../worker/protocol.ts";
import { resolveLeafRef } from "../state/app.svelte.ts";
import type { CompareBy } from "./compare-state.svelte.ts";

/** An entry id, "line:N", or a bare line number; undefined when the session has no such entry. */
export function parseLeafInput(summary: SessionSummary, text: string): number | undefined {
  const ref = text.trim();
  if (!ref) return undefined;
  return resolveLeafRef(summary, /^\d+$/.test(ref) ? `line:${ref}` : ref);
}

/** What B differs in, said of side B ("Lean", "anthropic/claude-sonnet-4-5", "line 21"). */
export function sideName(
  by: CompareBy,
  b: { preset: string; model: string | undefined; leafLine: number | undefined },
  sessionModel: string | undefined,
): string {
  switch (by) {
    case "preset":
      return b.preset;
    case "model":
      return b.model ?? `${sessionModel ?? "the session's model"} (the session's)`;
    case "leaf":
      return b.leafLine === undefined ? "another leaf" : `leaf line ${b.leafLine}`;
  }
}
