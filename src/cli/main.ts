/** The Node entry: `npm run cli -- <command> …`, over the same core the app runs in its worker. */
import { inspectCommand } from "./inspect.ts";
import { processOutput, type Output } from "./output.ts";
import { PAYLOAD_USAGE, payloadCommand } from "./payload.ts";
import { TOKENS_USAGE, tokensCommand } from "./tokens.ts";
import { SNAPSHOT_USAGE, snapshotCommand } from "./snapshot.ts";
import { DIFF_USAGE, diffCommand } from "./diff.ts";
import { treeCommand } from "./tree.ts";
import { modelsCommand } from "./models.ts";
import { readFile } from "node:fs/promises";
import { readModelsJson } from "../core/models/models-json.ts";
import { builtInModels, useModels } from "../core/models/registry.ts";

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
  models [FILTER]     models in pi-ai's registry (PROVIDER/ID api)

Any command also takes --models FILE: pi's models.json (~/.pi/agent/models.json), read as pi reads it, for
sessions on custom providers and models, and for its overrides of built-in ones.`;

/** Takes `--models FILE` out of the arguments and puts its models in use; a message when the file is refused. */
async function useModelsJson(args: readonly string[]): Promise<{ rest: string[]; problem?: string }> {
  const at = args.indexOf("--models");
  if (at < 0) return { rest: [...args] };
  const path = args[at + 1];
  const rest = [...args.slice(0, at), ...args.slice(at + 2)];
  if (path === undefined || path.startsWith("--")) return { rest, problem: "--models needs a file (pi's models.json)" };
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return { rest, problem: `${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const read = readModelsJson(text, builtInModels());
  if (!read.ok) return { rest, problem: `${path} was not read: ${read.error}` };
  useModels(read.value.models);
  return { rest };
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const out = processOutput();
  if (!command || command === "help" || command === "--help" || command === "-h") {
    out.line(HELP);
    return command ? 0 : 2;
  }
  const run = COMMANDS[command];
  if (!run) return out.fail(`unknown command "${command}"\n${HELP}`);
  if (rest.includes("--help") || rest.includes("-h")) {
    out.line(HELP);
    return 0;
  }
  const models = await useModelsJson(rest);
  if (models.problem !== undefined) return out.fail(models.problem);
  return run(models.rest, out);
}

// A reader that stops early (`| head`) closes our stdout: what it did not read is not wanted, so stop quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") process.stderr.write(`error: cannot write the output: ${error.message}\n`);
  process.exit(error.code === "EPIPE" ? 0 : 74);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 70;
  },
);
