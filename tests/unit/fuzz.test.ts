/**
 * The fuzz targets of tests/fuzz (parser, tree, pipeline, snapshot decoder), a few thousand cases in all; `npm run
 * fuzz` runs ten thousand of each. A failure prints the shrunk input and the seed: FUZZ_SEED=<seed> replays it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FUZZ_TARGETS, runTarget } from "../fuzz/properties.ts";
import { takeTallies } from "../fuzz/check.ts";

const SEED = process.env["FUZZ_SEED"] === undefined ? undefined : Number(process.env["FUZZ_SEED"]);

describe("fuzz", () => {
  for (const target of FUZZ_TARGETS) {
    it(`${target.name}: ${target.asserts} (${target.suiteRuns} cases)`, async () => {
      takeTallies();
      const details = await runTarget(target, {
        runs: target.suiteRuns,
        ...(SEED !== undefined ? { seed: SEED } : {}),
      });
      if (details.failed) throw new Error(`${fc.defaultReportMessage(details)}\n${String(details.errorInstance)}`);
      expect(details.numRuns).toBe(target.suiteRuns);
      const known = takeTallies().filter(([what]) => what.startsWith("known issue"));
      if (known.length > 0) console.info(`${target.name}: ${known.map(([what, n]) => `${n} × ${what}`).join(", ")}`);
    });
  }
});
