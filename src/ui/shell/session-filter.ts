/**
 * Finding a session among hundreds (a whole ~/.pi/agent/sessions folder opened at once): every word of the query
 * must occur, in any case, in what the list shows of a session — its title, file name, folder, models — or its id.
 */
import type { SessionSummary } from "../../worker/protocol.ts";

/** The list offers the filter from this many sessions on. */
export const FILTER_FROM = 6;

const haystacks = new WeakMap<SessionSummary, string>();

function haystack(s: SessionSummary): string {
  let text = haystacks.get(s);
  if (text === undefined) {
    text = [s.title, s.fileName, s.cwd ?? "", s.sessionId ?? "", ...s.models].join("\n").toLowerCase();
    haystacks.set(s, text);
  }
  return text;
}

/** The sessions matching `query` (all of them for a blank one), in their order. */
export function filterSessions(sessions: readonly SessionSummary[], query: string): readonly SessionSummary[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return sessions;
  return sessions.filter((s) => {
    const text = haystack(s);
    return words.every((word) => text.includes(word));
  });
}
