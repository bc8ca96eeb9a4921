/**
 * `npm run bench`: how fast our core is next to a baseline measured in the same run, on the same input.
 *   1. parse + validate + index a large generated session vs plain `JSON.parse` per line (target ≥ 0.5)
 *   2. every leaf's payload vs pi's own functions, on a branchy generated session, the largest corpus files and
 *      the corpus file with the most leaves (target: ours ≥ 2× faster)
 *   3. the app in Chromium: longest main-thread task while a large file loads, JS heap after it, frames while its
 *      tree pans and zooms (browser-bench.ts)
 *   4. one rule toggled on a path of 2,000+ messages (re-project and re-count) vs a full recompute, for the first
 *      toggle and for toggling back and forth (target: the toggle costs at most 10% of it, ratio ≥ 10)
 * Environment: BENCH_MB (size of the session for figure 1, default 60), BENCH_REPS (timed runs per side, default 5),
 * BENCH_FIGURES (which figures to run, default "1,2,3,4"), BENCH_BROWSER_MB and BENCH_BROWSER_ENTRIES (figure 3's
 * session, default 100 MB and 50,000 entries), BENCH_BROWSER_IMAGES_MB (figure 3's screenshot session, default 100 MB).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { browserFigures } from "./browser-bench.ts";
import { generateOptions, generateSession, generateSessionBytes } from "./generate-session.ts";
import { parseFigure } from "./parse-bench.ts";
import { payloadFigure } from "./payload-bench.ts";
import { toggleFigures } from "./toggle-bench.ts";
import type { RuleSettings } from "../src/core/project/rules.ts";
import { loadSessionText } from "../src/core/session/load.ts";
import { indexTree, leavesOf } from "../src/core/session/tree.ts";
import { formatFigure, WARM_UPS, type Figure } from "./timing.ts";

const CORPUS = fileURLToPath(new URL("../../shared/corpus/pi", import.meta.url));
const CORPUS_FILES = 3;
const NAME_WIDTH = 40;

function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, not "${process.env[name]}"`);
  return value;
}

function print(figure: Figure): void {
  const name = figure.name.length > NAME_WIDTH ? `${figure.name.slice(0, NAME_WIDTH - 1)}…` : figure.name;
  console.log(formatFigure({ ...figure, name }, NAME_WIDTH));
}

/**
 * The largest session files of the shared corpus, biggest first, then the one with the most leaves when it has
 * several and is not among them (none when ../shared is absent). The largest have one leaf each: a pass over them
 * is one cold projection per model, where nothing is shared between leaves.
 */
function corpusFiles(): string[] {
  if (!existsSync(CORPUS)) return [];
  const all = readdirSync(CORPUS)
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(CORPUS, f));
  const largest = [...all].sort((a, b) => statSync(b).size - statSync(a).size).slice(0, CORPUS_FILES);
  const leaves = (file: string) => leavesOf(indexTree(loadSessionText(file, readFileSync(file, "utf8")))).length;
  const [branchiest] = all.map((file) => ({ file, leaves: leaves(file) })).sort((a, b) => b.leaves - a.leaves);
  return branchiest && branchiest.leaves > 1 && !largest.includes(branchiest.file)
    ? [...largest, branchiest.file]
    : largest;
}

function printHeader(reps: number): void {
  const cores = cpus().length;
  console.log(
    `Context Lens benchmark — node ${process.version}, ${cores} CPU(s), median of ${reps} runs after ${WARM_UPS} warm-ups`,
  );
  const load = loadavg()[0] ?? 0;
  if (load > cores)
    console.log(`note: load average ${load.toFixed(1)} on ${cores} CPUs; other processes compete, so times are noisy`);
  console.log("ratio = baseline time / our time (higher is better)\n");
}

async function main(): Promise<void> {
  const mb = envNumber("BENCH_MB", 60);
  const reps = Math.round(envNumber("BENCH_REPS", 5));
  const figures = (process.env["BENCH_FIGURES"] ?? "1,2,3,4").split(",").map((f) => f.trim());
  printHeader(reps);
  if (figures.includes("1")) {
    print(await parseFigure(generateSessionBytes(generateOptions({ bytes: mb * 1e6, seed: 1 })), reps));
  }
  if (figures.includes("2")) await payloadFigures(reps);
  if (figures.includes("4")) {
    // A long unbranched session, compaction off (the whole path): over 2,000 payload messages.
    const long = generateSession(generateOptions({ entries: 2600, seed: 3, branches: 0 }));
    const rules: [string, Partial<RuleSettings>][] = [
      ["toggle: drop thinking", { dropThinking: true }],
      ["toggle: truncate tool results", { truncateToolResults: 2000 }],
      ["toggle: bash head/tail", { bash: "head-tail" }],
    ];
    for (const [name, rule] of rules) for (const figure of await toggleFigures(name, long, reps, rule)) print(figure);
  }
  if (figures.includes("3")) {
    const entries = Math.round(envNumber("BENCH_BROWSER_ENTRIES", 50_000));
    await browserFigures({
      mb: envNumber("BENCH_BROWSER_MB", 100),
      entries,
      imagesMb: envNumber("BENCH_BROWSER_IMAGES_MB", 100),
      sessions: Math.round(envNumber("BENCH_BROWSER_SESSIONS", 300)),
    });
  }
}

async function payloadFigures(reps: number): Promise<void> {
  const branchy = generateSession(generateOptions({ entries: 2000, seed: 2, branches: 59 }));
  print(await payloadFigure("payloads: generated (60 leaves)", branchy, reps));
  const corpus = corpusFiles();
  if (corpus.length === 0) console.log(`note: ${CORPUS} is absent; the corpus rows of figure 2 are skipped`);
  for (const file of corpus)
    print(await payloadFigure(`payloads: ${basename(file)}`, readFileSync(file, "utf8"), reps));
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
