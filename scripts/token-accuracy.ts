/**
 * `npm run tokens:accuracy [-- FOLDER] [--fit] [--by-session]`: how close the two estimators of `tokens --turns`
 * come to the prompt sizes recorded in real sessions (default: every session in ../shared/corpus/pi).
 *   in sample  — with the coefficients shipped in src/core/tokens/family.ts
 *   held out   — each repository's sessions measured with coefficients fitted on all the other repositories
 * --fit prints coefficients fitted on every session, in the form family.ts takes them; --by-session prints the
 * held-out errors of each session.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readSession } from "../src/cli/read-session.ts";
import {
  replySamples,
  summarize,
  turnErrors,
  type AccuracyReport,
  type ErrorStats,
  type SessionSample,
  type TurnError,
} from "../src/core/tokens/accuracy.ts";
import { TokenCounter } from "../src/core/tokens/count.ts";
import { fitCoefficients, heldOutErrors } from "../src/core/tokens/fit.ts";
import { turnFeatures } from "../src/core/tokens/estimate.ts";
import type { FamilyCoefficients, FamilyId } from "../src/core/tokens/family.ts";
import { loadTokenizers } from "../src/tokens/load.ts";

const DEFAULT_FOLDER = fileURLToPath(new URL("../../shared/corpus/pi", import.meta.url));

/** Corpus files are named `<owner>__<repo>__<file>`; sessions of one repository are held out together. */
export function repositoryOf(file: string): string {
  const parts = basename(file).split("__");
  return parts.length >= 3 ? `${parts[0]}/${parts[1]}` : basename(file);
}

export async function loadSamples(folder: string): Promise<SessionSample[]> {
  const files = readdirSync(folder)
    .filter((f) => f.endsWith(".jsonl") && statSync(join(folder, f)).isFile())
    .sort();
  const counter = new TokenCounter(await loadTokenizers());
  const samples: SessionSample[] = [];
  for (const file of files) {
    const tree = await readSession(join(folder, file));
    if (!tree.ok || tree.value.file.kind !== "pi-session") continue;
    const turns = turnFeatures(tree.value, counter, {}, ["o200k", "claude"]);
    if (turns.length === 0) continue;
    samples.push({ name: file, group: repositoryOf(file), turns, replies: replySamples(tree.value, counter) });
  }
  return samples;
}

const percent = (value: number, digits = 2): string =>
  Number.isNaN(value) ? "-" : `${(value * 100).toFixed(digits)}%`;
const cell = (stats: ErrorStats): string =>
  `${String(stats.turns).padStart(5)} ${percent(stats.median).padStart(8)} ${percent(stats.p90).padStart(8)}`;

function printReport(title: string, report: AccuracyReport): void {
  console.log(`\n${title}`);
  console.log(
    `  ${"".padEnd(10)} ${"standalone: turns   median      p90".padEnd(36)}  anchored: turns   median      p90`,
  );
  const row = (name: string, s: ErrorStats, a: ErrorStats) =>
    console.log(`  ${name.padEnd(10)} ${" ".repeat(11)}${cell(s)}   ${" ".repeat(9)}${cell(a)}`);
  row("all", report.standalone, report.anchored);
  const families = Object.entries(report.byFamily).sort((a, b) => b[1].standalone.turns - a[1].standalone.turns);
  for (const [family, stats] of families) row(family, stats.standalone, stats.anchored);
}

function printCoefficients(coefficients: Record<FamilyId, FamilyCoefficients>): void {
  const round = (v: number): number => Math.round(v * 1000) / 1000;
  console.log("\nexport const FAMILY_COEFFICIENTS: Readonly<Record<FamilyId, FamilyCoefficients>> = {");
  for (const [family, c] of Object.entries(coefficients)) {
    const fields = Object.entries(c).map(([k, v]) => `${k}: ${round(v)}`);
    console.log(`  ${family}: { ${fields.join(", ")} },`);
  }
  console.log("};");
}

async function main(args: readonly string[]): Promise<void> {
  const fit = args.includes("--fit");
  const folder = args.find((a) => !a.startsWith("--")) ?? DEFAULT_FOLDER;
  const started = performance.now();
  const samples = await loadSamples(folder);
  const turns = samples.reduce((sum, s) => sum + s.turns.length, 0);
  const groups = new Set(samples.map((s) => s.group)).size;
  console.log(
    `Token estimate accuracy: ${samples.length} sessions with recorded usage, ${groups} repositories, ${turns} turns, in ${folder}`,
  );
  console.log(
    `(absolute relative error of the prompt size; counted in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  printReport("In sample (coefficients shipped in src/core/tokens/family.ts):", summarize(turnErrors(samples)));
  const heldOut = heldOutErrors(samples);
  printReport(
    `Held out (each repository measured with coefficients fitted on the other ${groups - 1}):`,
    summarize(heldOut),
  );
  if (args.includes("--by-session")) printSessions(heldOut);
  if (fit) printCoefficients(fitCoefficients(samples));
}

function printSessions(errors: readonly TurnError[]): void {
  console.log("\nHeld out, per session (standalone median / p90, anchored median / p90):");
  for (const session of new Set(errors.map((e) => e.session))) {
    const report = summarize(errors.filter((e) => e.session === session));
    const families = Object.keys(report.byFamily).join(",");
    console.log(
      `  ${session.slice(0, 60).padEnd(60)} ${families.padEnd(16)} ${cell(report.standalone)}   ${cell(report.anchored)}`,
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
