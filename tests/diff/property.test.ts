/** Property: for generated sessions, every entry as leaf × several models, our payload or error matches pi's. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { referenceLoad, referenceSessionPayload } from "../reference/pi-session.ts";
import { sessionText } from "../support/arbitrary-session.ts";
import { ourPayload, ourSession } from "../support/ours.ts";

const MODELS = [
  "session",
  "anthropic/claude-sonnet-4-5",
  "openai/gpt-5.1-codex",
  "xai/grok-4",
  "google/gemini-2.5-pro",
];
const RUNS = Number(process.env["PROPERTY_RUNS"] ?? 150);

describe("generated sessions", () => {
  it(`match pi at every leaf for ${RUNS} sessions`, async () => {
    await fc.assert(
      fc.asyncProperty(sessionText, fc.constantFrom(...MODELS), async (text, model) => {
        const tree = ourSession(text);
        const reference = referenceLoad(text);
        for (const entry of tree.entries) {
          const ours = ourPayload(tree, entry.index, model);
          const theirs = await referenceSessionPayload(reference, { leafLine: entry.line, model });
          if ("error" in theirs) expect(ours).toHaveProperty("error");
          else expect(ours).toEqual({ payload: theirs.payload });
        }
      }),
      { numRuns: RUNS },
    );
  });
});
