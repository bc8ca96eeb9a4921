/**
 * The measured error of a session's estimates (shown with calibrated figures, in the app and the CLI): over a
 * spread of a long session's recorded turns, each estimated exactly as when every turn is measured.
 */
import { describe, expect, it } from "vitest";
import {
  MEASURED_TURNS,
  measuredTurns,
  sessionAccuracy,
  summarize,
  turnErrors,
} from "../../src/core/tokens/accuracy.ts";
import { sessionTurns } from "../../src/core/tokens/anchors.ts";
import { TokenCounter } from "../../src/core/tokens/count.ts";
import { someTurnFeatures, turnFeatures } from "../../src/core/tokens/estimate.ts";
import { assistant, header, session, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";
import { longSession, recordingTokenizer } from "./tokens-fixtures.ts";

const counter = () => new TokenCounter({ claude: recordingTokenizer("claude"), o200k: recordingTokenizer("o200k") });

describe("measuredTurns", () => {
  it("takes every turn up to the limit, else that many spread evenly from the first to the last", () => {
    expect(measuredTurns(0)).toEqual([]);
    expect(measuredTurns(MEASURED_TURNS)).toEqual(Array.from({ length: MEASURED_TURNS }, (_, i) => i));
    for (const recorded of [MEASURED_TURNS + 1, 2 * MEASURED_TURNS + 7, 20_861]) {
      const picked = measuredTurns(recorded);
      expect(picked).toHaveLength(MEASURED_TURNS);
      expect(picked[0]).toBe(0);
      expect(picked.at(-1)).toBe(recorded - 1);
      for (let i = 1; i < picked.length; i += 1) expect(picked[i]!).toBeGreaterThan(picked[i - 1]!);
    }
  });
});

describe("a spread of a long session's turns", () => {
  const tree = ourSession(longSession(2 * MEASURED_TURNS + 7));
  const picked = measuredTurns(sessionTurns(tree).length);

  it("estimates each picked turn as measuring every turn does (its anchors are measured with it)", () => {
    const { turns, anchors } = someTurnFeatures(tree, counter(), picked);
    expect(turns.map((t) => t.turn.entry)).toEqual(picked.map((p) => sessionTurns(tree)[p]!.entry));
    const estimates = summarize(turnErrors([{ name: "s", group: "s", turns, replies: [], anchors }]));
    const expected = summarize(
      turnErrors([{ name: "s", group: "s", turns: turnFeatures(tree, counter()), replies: [] }]).filter((_, k) =>
        picked.includes(k),
      ),
    );
    expect(estimates).toEqual(expected);
    // Read by position in the sample instead (as the worker once did), the anchors are other turns.
    expect(summarize(turnErrors([{ name: "s", group: "s", turns, replies: [] }]))).not.toEqual(expected);
  });

  it("says the statistics are over a spread of the session's turns", () => {
    const report = sessionAccuracy(tree, counter());
    expect(report.anchored).toMatchObject({ of: sessionTurns(tree).length });
    expect(report.anchored.turns).toBeGreaterThan(MEASURED_TURNS - 4);
    const short = sessionAccuracy(ourSession(longSession(20)), counter());
    expect(short.anchored.of).toBeUndefined();
  });
});

describe("turns recorded on or below a parent cycle", () => {
  // pi would loop forever rebuilding these turns' requests; their anchors once looped here too, growing an array
  // until the process died (found by the engine fuzz target). They are measured as turns without a request.
  const cyclic = session(
    header(),
    user("u1", "a1", "a"),
    assistant("a1", "u2", "b"),
    user("u2", "u1", "c"),
    assistant("a2", "u2", "below the cycle"),
    user("u4", null, "root"),
    assistant("a4", "u4", "fine"),
  );

  it("get no anchors and say why their request cannot be built, and the others are measured", () => {
    const tree = ourSession(cyclic);
    const features = turnFeatures(tree, counter());
    expect(features.map((f) => [tree.entries[f.turn.entry]!.id, f.first, f.previous])).toEqual([
      ["a1", undefined, undefined],
      ["a2", undefined, undefined],
      ["a4", undefined, undefined],
    ]);
    expect(features[0]!.error).toMatch(/parent cycle/);
    expect(features[1]!.error).toMatch(/parent cycle/);
    expect(features[2]!.error).toBeUndefined();
    // They are left out of the figures: the same as the session's one rooted branch alone.
    const rooted = ourSession(session(header(), user("u4", null, "root"), assistant("a4", "u4", "fine")));
    expect(sessionAccuracy(tree, counter())).toEqual(sessionAccuracy(rooted, counter()));
  });
});
