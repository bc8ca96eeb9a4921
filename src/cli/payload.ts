/**
 * `payload FILE... [--leaf ID|line:N|leaves|all]... [--model session|PROVIDER/ID]... [--block-images]
 *  [--system FILE] [--tools FILE] [--jsonl]` — the request body pi would send, per file × leaf × model.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { ModelInfo, ToolDefinition } from "../core/llm/types.ts";
import { findModel, parseModelRef } from "../core/models/registry.ts";
import { pathModelRef, projectLeaf, type ProjectionOptions } from "../core/project/project.ts";
import { err, ok, type Result } from "../core/result.ts";
import { leavesOf, resolveEntryRef, type EntryTree } from "../core/session/tree.ts";
import { parse, strings } from "./args.ts";
import { reportLoad, type Output } from "./output.ts";
import { readSession } from "./read-session.ts";

export const PAYLOAD_USAGE =
  "payload FILE... [--leaf ID|line:N|leaves|all]... [--model session|PROVIDER/ID]... [--block-images] [--system FILE] [--tools FILE] [--jsonl]";

const toolsSchema = z.array(
  z.object({ name: z.string().min(1), description: z.string(), parameters: z.record(z.string(), z.unknown()) }),
);

/** One line of `--jsonl` output. */
export interface PayloadRecord {
  readonly file: string;
  readonly leaf: string | null;
  readonly line: number;
  readonly asked: string;
  readonly model: string | null;
  readonly payload?: unknown;
  readonly error?: string;
}

async function readTools(path: string): Promise<Result<ToolDefinition[]>> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    return err(`${path}: cannot read the tool definitions (${(error as Error).message})`);
  }
  const parsed = toolsSchema.safeParse(data);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  return err(
    `${path}: tool definitions must be a JSON array of {name, description, parameters}; at ${issue?.path.join(".") || "(top)"}: ${issue?.message}`,
  );
}

async function readOptions(values: Record<string, unknown>): Promise<Result<ProjectionOptions>> {
  const options: { -readonly [K in keyof ProjectionOptions]: ProjectionOptions[K] } = {};
  if (values["block-images"]) options.blockImages = true;
  if (typeof values["system"] === "string") {
    try {
      options.systemPrompt = await readFile(values["system"], "utf8");
    } catch (error) {
      return err(
        `${values["system"]}: cannot read the system prompt (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
  }
  if (typeof values["tools"] === "string") {
    const tools = await readTools(values["tools"]);
    if (!tools.ok) return tools;
    options.tools = tools.value;
  }
  return ok(options);
}

function resolveModels(asked: readonly string[]): Result<(ModelInfo | "session")[]> {
  const models: (ModelInfo | "session")[] = [];
  for (const ref of asked) {
    if (ref === "session") {
      models.push("session");
      continue;
    }
    const parsed = parseModelRef(ref);
    const model = parsed && findModel(parsed.provider, parsed.id);
    if (!model)
      return err(
        `--model ${ref}: not a model in pi-ai's registry (write PROVIDER/ID, e.g. anthropic/claude-sonnet-4-5; \`npm run cli -- models\` lists them)`,
      );
    models.push(model);
  }
  return ok(models);
}

function resolveLeaves(tree: EntryTree, asked: readonly string[]): Result<number[]> {
  const leaves: number[] = [];
  for (const ref of asked) {
    if (ref === "leaves") leaves.push(...leavesOf(tree));
    else if (ref === "all") leaves.push(...tree.entries.map((e) => e.index));
    else {
      const index = resolveEntryRef(tree, ref);
      if (!index.ok) return err(`--leaf ${ref}: ${index.error}`);
      leaves.push(index.value);
    }
  }
  return ok([...new Set(leaves)]);
}

function recordFor(
  tree: EntryTree,
  leaf: number,
  model: ModelInfo | "session",
  options: ProjectionOptions,
): PayloadRecord {
  const entry = tree.entries[leaf];
  const base = {
    file: tree.file.name,
    leaf: entry?.id ?? null,
    line: entry?.line ?? 0,
    asked: model === "session" ? "session" : `${model.provider}/${model.id}`,
  };
  const result = projectLeaf(tree, leaf, model === "session" ? options : { ...options, model });
  if (result.ok)
    return {
      ...base,
      model: `${result.value.model.provider}/${result.value.model.id}`,
      payload: result.value.payload.body,
    };
  const fallback = model === "session" ? (pathModelRef(tree, leaf) ?? null) : base.asked;
  return { ...base, model: fallback, error: result.error };
}

export async function payloadCommand(args: readonly string[], out: Output): Promise<number> {
  const parsed = parse(args, {
    leaf: { type: "string", multiple: true },
    model: { type: "string", multiple: true },
    "block-images": { type: "boolean" },
    system: { type: "string" },
    tools: { type: "string" },
    jsonl: { type: "boolean" },
  });
  if (!parsed.ok) return out.usage(parsed.error, PAYLOAD_USAGE);
  const { values, positionals } = parsed.value;
  if (positionals.length === 0) return out.usage("name at least one session file", PAYLOAD_USAGE);
  const options = await readOptions(values);
  if (!options.ok) return out.fail(options.error);
  const models = resolveModels(strings(values["model"]).length ? strings(values["model"]) : ["session"]);
  if (!models.ok) return out.fail(models.error);
  const records: PayloadRecord[] = [];
  let failed = false;
  for (const path of positionals) {
    const tree = await readSession(path);
    if (!reportLoad(tree.ok ? tree.value : undefined, path, out, tree.ok ? undefined : tree.error) || !tree.ok) {
      failed = true;
      continue;
    }
    const leafRefs = strings(values["leaf"]);
    const leaves = leafRefs.length
      ? resolveLeaves(tree.value, leafRefs)
      : tree.value.defaultLeaf === undefined
        ? ok([])
        : ok([tree.value.defaultLeaf]);
    if (!leaves.ok) {
      out.error(`${path}: ${leaves.error}`);
      failed = true;
      continue;
    }
    if (leaves.value.length === 0) {
      // A header-only session: pi would start with no messages and no model; say so once per model asked.
      const reason = "the session has no entries (only its header), so there is no leaf and no request";
      for (const model of models.value) {
        const asked = model === "session" ? "session" : `${model.provider}/${model.id}`;
        const record: PayloadRecord = {
          file: tree.value.file.name,
          leaf: null,
          line: tree.value.file.headerLine ?? 1,
          asked,
          model: model === "session" ? null : asked,
          error: reason,
        };
        if (values["jsonl"]) out.line(JSON.stringify(record));
        else records.push(record);
      }
    }
    for (const leaf of leaves.value) {
      for (const model of models.value) {
        const record = recordFor(tree.value, leaf, model, options.value);
        if (values["jsonl"]) out.line(JSON.stringify(record));
        else records.push(record);
      }
    }
  }
  const prettyFailed = values["jsonl"] ? false : printPretty(records, out);
  return failed || prettyFailed ? 1 : 0;
}

/** Prints one payload alone, several as an array; true when the only result asked for is an error. */
function printPretty(records: readonly PayloadRecord[], out: Output): boolean {
  if (records.length === 1) {
    const [record] = records as [PayloadRecord];
    if (record.error === undefined) out.line(JSON.stringify(record.payload, null, 2));
    else out.error(`${record.file}: line ${record.line}: ${record.error}`);
    return record.error !== undefined;
  }
  if (records.length > 1) out.line(JSON.stringify(records, null, 2));
  return false;
}
