/**
 * `npm run fuzz [-- --runs N] [--seed S] [--target NAME]... [--path P] [--case-timeout SECONDS]`
 *
 * Runs every fuzz target of tests/fuzz/properties.ts (default 10,000 cases each), one worker thread per target,
 * and prints per target the case count, seed and time; on a failure the shrunk counterexample and the command that
 * replays it. A case that runs longer than the case timeout (default 30 s) is a hang: the target is stopped and
 * replayed up to that case to print its input. Exits 1 when any target fails or hangs.
 */
import { Worker } from "node:worker_threads";
import { FUZZ_TARGETS } from "../tests/fuzz/properties.ts";
import type { WorkerJob, WorkerReport } from "./fuzz-worker.ts";

interface Options {
  readonly runs: number;
  readonly seed: number;
  readonly targets: readonly string[];
  readonly path: string | undefined;
  readonly caseTimeout: number;
}

const USAGE = "npm run fuzz [-- --runs N] [--seed S] [--target NAME]... [--path P] [--case-timeout SECONDS]";

function parseOptions(args: readonly string[]): Options {
  const options = { runs: 10_000, seed: (Date.now() ^ (Math.random() * 2 ** 31)) | 0, targets: [] as string[] };
  let path: string | undefined;
  let caseTimeout = 30;
  for (let i = 0; i < args.length; i += 1) {
    const [flag, value] = [args[i], args[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    const number = Number(value);
    if (flag === "--runs" && Number.isInteger(number) && number > 0) options.runs = number;
    else if (flag === "--seed" && Number.isInteger(number)) options.seed = number | 0;
    else if (flag === "--case-timeout" && number > 0) caseTimeout = number;
    else if (flag === "--target") options.targets.push(...value.split(","));
    else if (flag === "--path") path = value;
    else throw new Error(`cannot read ${flag} ${value}`);
    i += 1;
  }
  const unknown = options.targets.filter((t) => !FUZZ_TARGETS.some((f) => f.name === t));
  if (unknown.length > 0)
    throw new Error(`no target ${unknown.join(", ")}; targets: ${FUZZ_TARGETS.map((t) => t.name).join(", ")}`);
  if (path !== undefined && options.targets.length !== 1) throw new Error("--path replays one --target");
  return { ...options, path, caseTimeout };
}

/** A worker that loads TypeScript the way this script was loaded (tsx). */
function startWorker(job: WorkerJob): Worker {
  const tsx = import.meta.resolve("tsx/esm/api");
  const file = new URL("./fuzz-worker.ts", import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(file)}); })`;
  return new Worker(boot, { eval: true, workerData: job });
}

type Outcome = { kind: "done"; report: Extract<WorkerReport, { kind: "done" }> } | { kind: "hang"; call: number };

/** Runs the job; resolves with the worker's report, or with the run of the check that made no progress. */
function runJob(job: WorkerJob, caseTimeout: number, onInput?: (input: string) => void): Promise<Outcome> {
  const counter = new Int32Array(job.counter);
  const worker = startWorker(job);
  return new Promise((resolve, reject) => {
    let last = -1;
    let since = performance.now();
    const watchdog = setInterval(() => {
      const now = Atomics.load(counter, 0);
      if (now !== last) [last, since] = [now, performance.now()];
      else if (now > 0 && performance.now() - since > caseTimeout * 1000) {
        clearInterval(watchdog);
        void worker.terminate().then(() => resolve({ kind: "hang", call: now }));
      }
    }, 250);
    worker.on("message", (message: WorkerReport) => {
      if (message.kind === "input") return onInput?.(message.input);
      clearInterval(watchdog);
      void worker.terminate();
      resolve({ kind: "done", report: message });
    });
    worker.on("error", (error) => (clearInterval(watchdog), reject(error)));
  });
}

const counterBuffer = () => new SharedArrayBuffer(4);

function replayCommand(target: string, seed: number, path?: string): string {
  return `npm run fuzz -- --target ${target} --seed ${seed}${path ? ` --path ${path}` : ""}`;
}

function printDone(name: string, report: Extract<WorkerReport, { kind: "done" }>): void {
  const status = report.failed ? "FAILED" : "ok";
  console.log(
    `${name.padEnd(20)} ${String(report.numRuns).padStart(6)} cases  seed ${report.seed}  ${report.seconds.toFixed(1).padStart(6)} s  ${status}`,
  );
  const shown = report.tallies
    .filter(([what], i) => i < 8 || what.startsWith("known issue"))
    .map(([what, n]) => `${n} × ${what}`);
  if (shown.length > 0) console.log(`${" ".repeat(22)}${shown.join("\n" + " ".repeat(22))}`);
  if (!report.failed) return;
  console.log((report.report ?? "").slice(0, 30_000));
  console.log(`shrunk counterexample: ${report.counterexample}`);
  console.log(`error: ${report.error}`);
  console.log(`replay: ${replayCommand(name, report.seed, report.path)}\n`);
}

async function fuzzTarget(name: string, options: Options): Promise<boolean> {
  const job = { target: name, runs: options.runs, seed: options.seed, counter: counterBuffer() };
  let outcome: Outcome;
  try {
    outcome = await runJob(options.path ? { ...job, path: options.path } : job, options.caseTimeout);
  } catch (error) {
    // Not a property failure: the target itself broke (an arbitrary threw), so there is no counterexample.
    console.log(`${name.padEnd(20)} CRASHED (seed ${options.seed}): ${(error as Error).stack ?? String(error)}\n`);
    return false;
  }
  if (outcome.kind === "done") {
    printDone(name, outcome.report);
    return !outcome.report.failed;
  }
  console.log(
    `${name.padEnd(20)} HUNG: run ${outcome.call} made no progress for ${options.caseTimeout} s (seed ${options.seed})`,
  );
  let input = "(the replay did not reach it)";
  await runJob({ ...job, counter: counterBuffer(), replayCall: outcome.call }, options.caseTimeout, (i) => (input = i));
  console.log(`input: ${input}\nreplay: ${replayCommand(name, options.seed)}\n`);
  return false;
}

async function main(): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\nusage: ${USAGE}`);
    return 2;
  }
  const targets = options.targets.length > 0 ? options.targets : FUZZ_TARGETS.map((t) => t.name);
  console.log(`fuzzing ${targets.length} targets, ${options.runs} cases each, seed ${options.seed}`);
  const start = performance.now();
  let ok = true;
  for (const name of targets) ok = (await fuzzTarget(name, options)) && ok;
  console.log(`${ok ? "all targets passed" : "FAILED"} in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return ok ? 0 : 1;
}

process.exitCode = await main();
