/** Every fixture variant × every entry as leaf × several models: our payload (or our error) matches pi. */
import { describe, expect, it } from "vitest";
import { pathToLeaf } from "../../src/core/session/tree.ts";
import { referenceLoad, referenceSessionPayload } from "../reference/pi-session.ts";
import { VARIANTS } from "../fixtures/variants.ts";
import { ourPayload, ourSession } from "../support/ours.ts";

const MODELS = [
  "session",
  "anthropic/claude-sonnet-4-5",
  "openai/gpt-5.1-codex",
  "xai/grok-4",
  "google/gemini-2.5-pro",
  "openai-codex/gpt-5.1-codex-max",
  "amazon-bedrock/global.anthropic.claude-sonnet-4-5-20250929-v1:0",
  "mistral/devstral-medium-latest",
];

describe("fixtures: payloads identical to pi at every entry", () => {
  for (const [name, text] of Object.entries(VARIANTS)) {
    it(name, async () => {
      const tree = ourSession(text, `${name}.jsonl`);
      const reference = referenceLoad(text);
      for (const entry of tree.entries) {
        // pi addresses leaves by id: the last entry with an id, and only the file's last entry when it has none.
        if (entry.id === undefined ? entry.index !== tree.entries.length - 1 : tree.byId.get(entry.id) !== entry.index)
          continue;
        expect(
          pathToLeaf(tree, entry.index).ok,
          `a fixture in VARIANTS must not make pi loop (line ${entry.line})`,
        ).toBe(true);
        for (const model of MODELS) {
          const ours = ourPayload(tree, entry.index, model, "You are a test.");
          const theirs = await referenceSessionPayload(reference, {
            leafLine: entry.line,
            model,
            systemPrompt: "You are a test.",
          });
          if ("error" in theirs) expect(ours, `${model} at line ${entry.line}`).toHaveProperty("error");
          else expect(ours, `${model} at line ${entry.line}`).toEqual({ payload: theirs.payload });
        }
      }
    });
  }
});
