/**
 * The CLI's commands on damaged sessions, run in this process as `npm run cli` runs them: each prints its result
 * or says what is wrong, and ends with an exit code it documents (0 or 1; 2 is a usage error, which these
 * arguments never are). An exception escaping a command is what the CLI prints as an "unexpected failure".
 */
import fc from "fast-check";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { diffCommand } from "../../src/cli/diff.ts";
import { inspectCommand } from "../../src/cli/inspect.ts";
import type { Output } from "../../src/cli/output.ts";
import { payloadCommand } from "../../src/cli/payload.ts";
import { snapshotCommand } from "../../src/cli/snapshot.ts";
import { tokensCommand } from "../../src/cli/tokens.ts";
import { treeCommand } from "../../src/cli/tree.ts";
import { expectStatedError, expectThat, noReject, tally } from "./check.ts";
import { hostileSessionText } from "./inputs.ts";
import { damagedSession } from "./mutate.ts";
import { FUZZ_MODELS, pipelineModel } from "./pipeline-properties.ts";

export interface CliInput {
  readonly text: string;
  readonly model: (typeof FUZZ_MODELS)[number];
}

export const cliInput: fc.Arbitrary<CliInput> = fc.record({
  text: fc.oneof(
    { weight: 4, arbitrary: damagedSession({ values: 2, tree: 1, lines: 1 }) },
    { weight: 1, arbitrary: hostileSessionText },
  ),
  model: pipelineModel,
});

/** An `Output` that keeps what a command writes; `fail` and `usage` return the codes the real one does. */
function capture(): Output & { readonly errors: string[] } {
  const errors: string[] = [];
  return {
    errors,
    line: () => undefined,
    warn: () => undefined,
    diagnostic: () => undefined,
    error: (text) => void errors.push(text),
    fail(text) {
      errors.push(text);
      return 1;
    },
    usage(problem) {
      errors.push(`usage: ${problem}`);
      return 2;
    },
  };
}

/** One file per worker thread, written again for every case. */
const FILE = join(tmpdir(), `context-lens-fuzz-${process.pid}-${threadId}.jsonl`);

export async function checkCli({ text, model }: CliInput): Promise<void> {
  writeFileSync(FILE, text);
  const other = model === "session" ? "anthropic/claude-sonnet-4-5" : model;
  const runs: [string, (args: readonly string[], out: Output) => Promise<number>, string[]][] = [
    ["inspect", inspectCommand, [FILE]],
    ["tree", treeCommand, [FILE]],
    ["payload", payloadCommand, [FILE, "--leaf", "leaves", "--model", model, "--jsonl"]],
    ["payload --rules lean", payloadCommand, [FILE, "--model", model, "--rules", "lean"]],
    ["tokens", tokensCommand, [FILE, "--model", model]],
    ["tokens --turns", tokensCommand, [FILE, "--turns"]],
    ["diff", diffCommand, [FILE, "--model", model, "--model", other, "--text-diff", "--json-diff"]],
    ["diff --rules", diffCommand, [FILE, "--rules", "pi", "--rules", "whole-path", "--model", other]],
    ["snapshot", snapshotCommand, [FILE, "--model", other]],
  ];
  for (const [name, command, args] of runs) {
    const out = capture();
    const code = await noReject(name, () => command(args, out));
    expectThat(code === 0 || code === 1, `${name} ended with exit code ${code}: ${out.errors.join(" | ")}`);
    for (const error of out.errors) expectStatedError(name, error);
    tally(`${name}: exit ${code}`);
  }
}
