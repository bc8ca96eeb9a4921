/**
 * The anchors kept per session and model (`anchors.ts`) against the plain definition: walk the path from the
 * entry to the root. Random trees (branches, compactions, two models, resumes, unreadable timestamps), with the
 * entries asked about in random order, so every way a table can be part filled is met.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { entryTime } from "../../src/core/session/times.ts";
import type { EntryTree } from "../../src/core/session/tree.ts";
import { anchorsAt, RESUME_GAP_MS, sessionTurns } from "../../src/core/tokens/anchors.ts";
import type { RecordedTurn } from "../../src/core/tokens/turns.ts";
import { assistant, entry, header, session, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";

const MODELS = [
  { provider: "anthropic", model: "claude-sonnet-4-5" },
  { provider: "openai", model: "gpt-5.1-codex" },
] as const;

/** The definition: from the entry back to the root, a resume seen on the way, a compaction seen on the way. */
function walked(tree: EntryTree, leaf: number, provider: string, modelId: string) {
  const byEntry = new Map(sessionTurns(tree).map((t) => [t.entry, t]));
  let previous: RecordedTurn | undefined;
  let sinceResume: RecordedTurn | undefined;
  let atAll: RecordedTurn | undefined;
  let compactionSeen = false;
  let resumeSeen = false;
  for (let node: number | undefined = leaf, child: number | undefined; node !== undefined;) {
    if (child !== undefined && entryTime(tree, child) - entryTime(tree, node) > RESUME_GAP_MS) resumeSeen = true;
    if (tree.entries[node]?.type === "compaction") compactionSeen = true;
    const turn = byEntry.get(node);
    if (turn && turn.provider === provider && turn.modelId === modelId) {
      atAll = turn;
      if (!resumeSeen) sinceResume = turn;
      if (!previous && !compactionSeen) previous = turn;
    }
    child = node;
    node = tree.parentOf[node];
  }
  return { previous, sinceResume, atAll };
}

interface Step {
  /** Parent: an earlier entry (by position), or none. */
  readonly parent: number;
  readonly kind: "user" | "assistant" | "compaction";
  readonly model: 0 | 1;
  /** Minutes after the entry before it in the file; -1 for a timestamp that does not parse. */
  readonly minutes: number;
}

const step = fc.record({
  parent: fc.nat(),
  kind: fc.constantFrom("user", "assistant", "assistant", "compaction"),
  model: fc.constantFrom(0 as const, 1 as const),
  minutes: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 25, max: 120 }), fc.constant(-1)),
});

function build(steps: readonly Step[]): EntryTree {
  let time = Date.parse("2026-03-01T09:00:00.000Z");
  const lines = steps.map((s, i) => {
    const id = `e${i}`;
    const parent = i === 0 || s.parent % (i + 1) === i ? null : `e${s.parent % i}`;
    time += Math.max(0, s.minutes) * 60_000;
    const timestamp = s.minutes < 0 ? "not a time" : new Date(time).toISOString();
    const made =
      s.kind === "user"
        ? user(id, parent, `question ${i}`)
        : s.kind === "assistant"
          ? assistant(id, parent, `answer ${i}`, {
              ...MODELS[s.model],
              usage: { input: 100 + i, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 105 + i },
            })
          : entry("compaction", id, parent, { summary: "earlier work", firstKeptEntryId: id, tokensBefore: 1000 });
    return { ...made, timestamp };
  });
  return ourSession(session(header(), ...lines));
}

describe("anchorsAt", () => {
  it("equals walking the path to the root, whatever order the entries are asked in", () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(0, 1)), { minLength: 1, maxLength: 60 }),
        (steps, asks) => {
          const tree = build(steps);
          expect(sessionTurns(tree).length).toBe(steps.filter((s) => s.kind === "assistant").length);
          for (const [at, m] of asks) {
            const leaf = at % tree.entries.length;
            const { provider, model } = MODELS[m as 0 | 1];
            expect(anchorsAt(tree, leaf, provider, model)).toEqual(walked(tree, leaf, provider, model));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps a few models per session and fills a dropped one again", () => {
    const tree = build(
      Array.from({ length: 12 }, (_, i) => ({
        parent: i - 1,
        kind: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
        model: ((i >> 1) % 2) as 0 | 1,
        minutes: i === 6 ? 90 : 1,
      })),
    );
    const leaf = tree.entries.length - 1;
    const expected = walked(tree, leaf, "openai", "gpt-5.1-codex");
    expect(anchorsAt(tree, leaf, "openai", "gpt-5.1-codex")).toEqual(expected);
    // Other models (none of them recorded here) push the first out of the session's tables.
    for (const id of ["m1", "m2", "m3", "m4", "m5"]) expect(anchorsAt(tree, leaf, "x", id).atAll).toBeUndefined();
    expect(anchorsAt(tree, leaf, "openai", "gpt-5.1-codex")).toEqual(expected);
    expect(expected.previous?.entry).toBe(11);
    expect(expected.sinceResume?.entry).toBe(7); // the 90-minute pause came before entry 6
    expect(expected.atAll?.entry).toBe(3);
  });
});
