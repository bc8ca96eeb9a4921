/**
 * The settings a path ends with (thinking level, model, latest compaction, a message entry pi cannot read), kept
 * along the way by `toAgentMessages`, against the plain definition: read the whole path. Random trees deep enough
 * to cross the positions where settings are kept, with the leaves asked in random order, so every way the kept
 * settings can be part filled is met.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toAgentMessages } from "../../src/core/project/context.ts";
import { pathToLeaf, type EntryTree } from "../../src/core/session/tree.ts";
import { assistant, entry, header, session, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";

/** The definition: every entry of the path, root first, the last change winning; the first unreadable message fails. */
function definition(tree: EntryTree, path: readonly number[]) {
  let thinkingLevel = "off";
  let model: { provider: string; modelId: string } | undefined;
  let compaction: number | undefined;
  for (const index of path) {
    const e = tree.entries[index]!;
    const raw = e.raw as Record<string, unknown>;
    if (e.type === "thinking_level_change") thinkingLevel = raw["thinkingLevel"] as string;
    else if (e.type === "model_change")
      model = { provider: raw["provider"] as string, modelId: raw["modelId"] as string };
    else if (e.type === "compaction") compaction = index;
    else if (e.type === "message") {
      const message = raw["message"] as Record<string, unknown> | null;
      if (message === null) return { error: `line ${e.line}` };
      if (message["role"] === "assistant")
        model = { provider: message["provider"] as string, modelId: message["model"] as string };
    }
  }
  return { thinkingLevel, model, compaction };
}

const KINDS = ["user", "user", "assistant", "assistant", "model", "thinking", "compaction", "broken"] as const;

const step = fc.record({
  /** Mostly the entry before, so paths grow long; sometimes an earlier one, so they branch. */
  back: fc.oneof(fc.constant(1), fc.constant(1), fc.constant(1), fc.nat({ max: 200 })),
  kind: fc.constantFrom(...KINDS),
  n: fc.nat({ max: 3 }),
});

function build(steps: readonly { back: number; kind: (typeof KINDS)[number]; n: number }[]): EntryTree {
  const lines = steps.map((s, i) => {
    const id = `e${i}`;
    const parent = i === 0 ? null : `e${Math.max(0, i - Math.max(1, s.back))}`;
    switch (s.kind) {
      case "user":
        return user(id, parent, `question ${i}`);
      case "assistant":
        return assistant(id, parent, `answer ${i}`, { provider: `p${s.n}`, model: `m${s.n}` });
      case "model":
        return entry("model_change", id, parent, { provider: `q${s.n}`, modelId: `n${s.n}` });
      case "thinking":
        return entry("thinking_level_change", id, parent, { thinkingLevel: ["low", "high", "off", "medium"][s.n] });
      case "compaction":
        return entry("compaction", id, parent, { summary: "earlier", firstKeptEntryId: id, tokensBefore: 10 });
      case "broken":
        return s.n === 0 ? entry("message", id, parent, { message: null }) : user(id, parent, `question ${i}`);
    }
  });
  return ourSession(session(header(), ...lines));
}

describe("the settings a path ends with", () => {
  it("are the whole path's, whatever paths were read before", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 400 }), fc.array(fc.nat()), (steps, asks) => {
        const tree = build(steps);
        const order = asks.length > 0 ? asks.map((a) => a % tree.entries.length) : [tree.entries.length - 1];
        for (const leaf of [...order, ...tree.entries.map((e) => e.index)]) {
          const path = pathToLeaf(tree, leaf);
          if (!path.ok) continue;
          const expected = definition(tree, path.value);
          const context = toAgentMessages({ entries: tree.entries, indices: path.value });
          if ("error" in expected) {
            expect(context.ok ? "no error" : context.error).toContain(expected.error!);
            continue;
          }
          if (!context.ok) throw new Error(context.error);
          expect({
            thinkingLevel: context.value.thinkingLevel,
            model: context.value.model,
            compaction: context.value.compaction,
          }).toEqual(expected);
        }
      }),
      { numRuns: 60 },
    );
  });
});
