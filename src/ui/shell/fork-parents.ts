/** Which open session a forked session came from (pi writes the parent's session file path in the header). */
import type { SessionSummary } from "../../worker/protocol.ts";

/**
 * The open session each `parentSession` names, by that path: the first open session whose id the path holds.
 * Worked out once for the whole list: asked by every row, a search of the list per row made opening 300 sessions
 * one after another cubic.
 */
export function forkParents(sessions: readonly SessionSummary[]): ReadonlyMap<string, SessionSummary> {
  const parents = new Map<string, SessionSummary>();
  for (const s of sessions) {
    const from = s.parentSession;
    if (from === undefined || parents.has(from)) continue;
    const parent = sessions.find((o) => o.sessionId && from.includes(o.sessionId));
    if (parent) parents.set(from, parent);
  }
  return parents;
}
