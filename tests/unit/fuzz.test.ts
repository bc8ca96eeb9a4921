/**
 * The fuzz targets of tests/fuzz (parser, tree, pipeline, snapshot decoder), a few thousand cases in all; `npm run
 * fuzz` runs ten thousand of each. A failure prints the shrunk input and the seed: FUZZ_SEED=<seed> replays it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FUZZ_TARGETS, runTarget } from "../fuzz/properties.ts";
import { takeTallies } from "../fuzz/check.ts";

/**
 * A fixed seed, so the suite (and CI) runs the same cases every time; `npm run fuzz` draws new ones on each run,
 * and FUZZ_SEED=<seed> replays any.
 */
const SEED = Number(process.env["FUZZ_SEED"] ?? 20261130);

describe("fuzz", () => {
  for (const target of FUZZ_TARGETS) {
    it(`${target.name}: ${target.asserts} (${target.suiteRuns} cases)`, async () => {
      takeTallies();
      const details = await runTarget(target, {
        runs: target.suiteRuns,
        seed: SEED,
      });
      if (details.failed) throw new Error(`${fc.defaultReportMessage(details)}\n${String(details.errorInstance)}`);
      expect(details.numRuns).toBe(target.suiteRuns);
      const known = takeTallies().filter(([what]) => what.startsWith("known issue"));
      if (known.length > 0) console.info(`${target.name}: ${known.map(([what, n]) => `${n} × ${what}`).join(", ")}`);
    });
  }
});
