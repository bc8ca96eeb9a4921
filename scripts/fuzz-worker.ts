/**
 * Runs one fuzz target for scripts/fuzz.ts in a worker thread, so that a case that hangs can be stopped: every
 * run of the check bumps a shared counter the main thread watches. With `replayCall` it posts the input of that
 * run (by then known to hang) before running it.
 */
import { parentPort, workerData } from "node:worker_threads";
import fc from "fast-check";
import { takeTallies } from "../tests/fuzz/check.ts";
import { FUZZ_TARGETS, runTarget } from "../tests/fuzz/properties.ts";

export interface WorkerJob {
  readonly target: string;
  readonly runs: number;
  readonly seed: number;
  readonly path?: string;
  /** Shared Int32Array[1]: how many runs of the check have started. */
  readonly counter: SharedArrayBuffer;
  /** Post the input of this run (1-based) before running it. */
  readonly replayCall?: number;
}

export type WorkerReport =
  | { readonly kind: "input"; readonly input: string }
  | {
      readonly kind: "done";
      readonly numRuns: number;
      readonly failed: boolean;
      readonly seed: number;
      readonly path?: string;
      readonly counterexample?: string;
      /** What the check threw on the shrunk counterexample. */
      readonly error?: string;
      readonly report?: string;
      readonly tallies: [string, number][];
      readonly seconds: number;
    };

/** The input as fast-check prints it, cut at 20,000 characters. */
export function printable(input: unknown): string {
  const text = fc.stringify(input);
  return text.length > 20_000 ? `${text.slice(0, 20_000)}… (${text.length} characters)` : text;
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `\ncaused by ${error.cause.stack ?? error.cause.message}` : "";
  return `${error.name}: ${error.message}${cause}`;
}

async function main(job: WorkerJob): Promise<void> {
  const target = FUZZ_TARGETS.find((t) => t.name === job.target);
  if (!target) throw new Error(`no fuzz target ${job.target}`);
  const counter = new Int32Array(job.counter);
  const post = (report: WorkerReport) => parentPort!.postMessage(report);
  const start = performance.now();
  takeTallies();
  const details = await runTarget(target, {
    runs: job.runs,
    seed: job.seed,
    ...(job.path !== undefined ? { path: job.path } : {}),
    beforeEach: (input) => {
      const call = Atomics.add(counter, 0, 1) + 1;
      if (call === job.replayCall) post({ kind: "input", input: printable(input) });
    },
  });
  post({
    kind: "done",
    numRuns: details.numRuns,
    failed: details.failed,
    seed: details.seed,
    ...(details.failed
      ? {
          path: details.counterexamplePath ?? undefined,
          counterexample: details.counterexample ? printable(details.counterexample[0]) : undefined,
          error: errorText(details.errorInstance),
          report: fc.defaultReportMessage(details),
        }
      : {}),
    tallies: takeTallies(),
    seconds: (performance.now() - start) / 1000,
  });
}

if (parentPort) await main(workerData as WorkerJob);
