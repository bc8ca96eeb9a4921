/** A small session for the comparison tests, and helpers to project and count it. */
import { projectSide, type CompareSide } from "../../src/core/diff/sides.ts";
import type { Projection } from "../../src/core/project/project.ts";
import { PI_DEFAULTS, projectionOptions, type RuleSettings } from "../../src/core/project/rules.ts";
import type { EntryTree } from "../../src/core/session/tree.ts";
import { TokenCounter } from "../../src/core/tokens/count.ts";
import { projectionTokens, type ProjectionTokens } from "../../src/core/tokens/projection.ts";
import {
  assistant,
  bash,
  branchSummary,
  header,
  session,
  text,
  thinking,
  toolCall,
  toolResult,
  user,
} from "../support/build.ts";
import { ourSession } from "../support/ours.ts";
import { recordingTokenizer } from "./tokens-fixtures.ts";

/** No recorded usage: totals are the tokenizer estimate alone (no anchoring on a recorded request). */
const NO_USAGE = { usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 } };

export const README = Array.from({ length: 80 }, (_, i) => `README line ${i + 1}: how the demo works.`).join("\n");
export const TEST_OUTPUT = Array.from({ length: 60 }, (_, i) => `✓ test ${i + 1} passed`).join("\n");

/**
 * u1 → a1 (thinking, read call) → r1 (long README) → a2 (bash call, never answered) → b1 (!npm test, 60 lines)
 * → u2 → a3; and a branch from a1's result: r1 → bs (branch summary) → u3 → a4.
 */
export function compareSession(): string {
  return session(
    header({ id: "cmp-1" }),
    user("u1", null, "Read the README, then run the tests."),
    assistant(
      "a1",
      "u1",
      [thinking("Start with the README.", "sig-1"), text("Reading it."), toolCall("c1", "read")],
      NO_USAGE,
    ),
    toolResult("r1", "a1", "c1", README),
    assistant("a2", "r1", [toolCall("c2", "bash", { command: "npm test" })], NO_USAGE),
    bash("b1", "a2", "npm test", TEST_OUTPUT),
    user("u2", "b1", "Thanks, all green?"),
    assistant("a3", "u2", "All 60 tests pass.", NO_USAGE),
    branchSummary("bs", "r1", "a3", "Ran the tests: all green."),
    user("u3", "bs", "Now summarise the README."),
    assistant("a4", "u3", "It explains the demo.", NO_USAGE),
  );
}

export interface Fixture {
  readonly tree: EntryTree;
  readonly at: (id: string) => number;
  readonly project: (side: Partial<CompareSide> & { settings?: RuleSettings }) => Projection;
  readonly count: (p: Projection, settings?: RuleSettings) => ProjectionTokens;
}

export function fixture(text = compareSession()): Fixture {
  const tree = ourSession(text, "compare.jsonl");
  const counter = new TokenCounter({ o200k: recordingTokenizer("o200k"), claude: recordingTokenizer("claude") });
  const at = (id: string) => tree.byId.get(id)!;
  return {
    tree,
    at,
    project: (side) => {
      const p = projectSide(tree, {
        leaf: side.leaf ?? tree.defaultLeaf!,
        settings: side.settings ?? PI_DEFAULTS,
        model: side.model,
      });
      if (!p.ok) throw new Error(p.error);
      return p.value;
    },
    count: (p, settings = PI_DEFAULTS) => projectionTokens(tree, p, counter, { options: projectionOptions(settings) }),
  };
}
