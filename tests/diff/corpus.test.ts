/**
 * Differential test on real sessions: every leaf of every corpus file × the session's model and four fixed
 * models → our payload deep-equals pi's own (pi-coding-agent + pi-ai 0.73.1).
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { leavesOf } from "../../src/core/session/tree.ts";
import { referenceLoad, referenceSessionPayload } from "../reference/pi-session.ts";
import { corpusFiles, HAS_CORPUS } from "../support/corpus.ts";
import { ourPayload, ourSession } from "../support/ours.ts";

const MODELS = [
  "session",
  "anthropic/claude-sonnet-4-5",
  "openai/gpt-5.1-codex",
  "xai/grok-4",
  "google/gemini-2.5-pro",
];

describe.skipIf(!HAS_CORPUS)("corpus: payloads identical to pi", () => {
  for (const file of corpusFiles()) {
    it(basename(file), async () => {
      const text = readFileSync(file, "utf8");
      const tree = ourSession(text, basename(file));
      const reference = referenceLoad(text);
      let compared = 0;
      for (const leaf of leavesOf(tree)) {
        const entry = tree.entries[leaf]!;
        if (entry.id !== undefined && tree.byId.get(entry.id) !== leaf) continue; // pi resolves a duplicate id to its last entry
        for (const model of MODELS) {
          const ours = ourPayload(tree, leaf, model);
          const theirs = await referenceSessionPayload(reference, { leafLine: entry.line, model });
          if ("error" in theirs) {
            expect(ours, `${model} at line ${entry.line}: pi fails with ${theirs.error}`).toHaveProperty("error");
          } else {
            expect(ours, `${model} at line ${entry.line}`).toEqual({ payload: theirs.payload });
          }
          compared += 1;
        }
      }
      if (tree.entries.length === 0) {
        // A header-only session: pi has no messages and no model to resume with.
        expect(await referenceSessionPayload(reference, { model: "session" })).toHaveProperty("error");
      } else {
        expect(compared).toBeGreaterThan(0);
      }
    });
  }
});
