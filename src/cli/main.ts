/** The Node entry: `npm run cli -- <command> …`, over the same core the app runs in its worker. */
import { inspectCommand } from "./inspect.ts";
import { processOutput, type Output } from "./output.ts";
import { PAYLOAD_USAGE, payloadCommand } from "./payload.ts";
import { TOKENS_USAGE, tokensCommand } from "./tokens.ts";
import { SNAPSHOT_USAGE, snapshotCommand } from "./snapshot.ts";
import { DIFF_USAGE, diffCommand } from "./diff.ts";
import { treeCommand } from "./tree.ts";
import { modelsCommand } from "./models.ts";

const COMMANDS: Record<string, (args: readonly string[], out: Output) => Promise<number>> = {
  payload: payloadCommand,
  tokens: tokensCommand,
  diff: diffCommand,
  snapshot: snapshotCommand,
  tree: treeCommand,
  inspect: inspectCommand,
  models: modelsCommand,
};

const HELP = `Context Lens — what a pi session sends to the model.

usage: npm run cli -- <command> …
  ${PAYLOAD_USAGE}
  ${TOKENS_USAGE}
  ${DIFF_USAGE}
  ${SNAPSHOT_USAGE}
  tree FILE           outline of the entry tree (ids, lines, labels, branch points)
  inspect FILE        file statistics and every diagnostic
  models [FILTER]     models in pi-ai's registry (PROVIDER/ID api)`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const out = processOutput();
  if (!command || command === "help" || command === "--help" || command === "-h") {
    out.line(HELP);
    return command ? 0 : 2;
  }
  const run = COMMANDS[command];
  if (!run) return out.fail(`unknown command "${command}"\n${HELP}`);
  return run(rest, out);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 70;
  },
);
