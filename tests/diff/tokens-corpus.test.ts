/**
 * Token estimates against the prompt sizes real sessions recorded (../shared/corpus/pi): the targets,
 * in sample and held out (each repository measured with coefficients fitted without it).
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { summarize, turnErrors, type AccuracyReport, type SessionSample } from "../../src/core/tokens/accuracy.ts";
import { heldOutErrors } from "../../src/core/tokens/fit.ts";
import { loadSamples } from "../../scripts/token-accuracy.ts";
import { CORPUS_DIR, HAS_CORPUS } from "../support/corpus.ts";

const TARGETS = { standalone: { median: 0.015, p90: 0.05 }, anchored: { median: 0.003, p90: 0.02 } };

function expectTargets(report: AccuracyReport): void {
  expect(report.standalone.turns).toBeGreaterThan(1000);
  expect(report.standalone.median).toBeLessThanOrEqual(TARGETS.standalone.median);
  expect(report.standalone.p90).toBeLessThanOrEqual(TARGETS.standalone.p90);
  expect(report.anchored.median).toBeLessThanOrEqual(TARGETS.anchored.median);
  expect(report.anchored.p90).toBeLessThanOrEqual(TARGETS.anchored.p90);
}

describe.skipIf(!HAS_CORPUS)("token estimates on the corpus", () => {
  let samples: SessionSample[] = [];
  beforeAll(async () => {
    samples = await loadSamples(join(CORPUS_DIR, "pi"));
  }, 600_000);

  it("meets the targets with the shipped coefficients", () => {
    expectTargets(summarize(turnErrors(samples)));
  });

  it("meets the targets on repositories the coefficients were not fitted on", () => {
    expectTargets(summarize(heldOutErrors(samples)));
  });
});
