/**
 * `payload FILE... [--leaf ID|line:N|leaves|all]... [--model session|PROVIDER/ID]... [--block-images]
 *  [--system FILE] [--tools FILE] [--jsonl]` — the request body pi would send, per file × leaf × model.
 */
import type { ModelInfo } from "../core/llm/types.ts";
import { findModel, parseModelRef } from "../core/models/registry.ts";
import { pathModelRef, projectLeaf, type ProjectionOptions } from "../core/project/project.ts";
import { err, ok, type Result } from "../core/result.ts";
import { leavesOf, resolveEntryRef, type EntryTree } from "../core/session/tree.ts";
import { parse, strings } from "./args.ts";
import { reportLoad, type Output } from "./output.ts";
import { projectionOptions } from "../core/project/rules.ts";
import { readRuleSettings, RULE_OPTIONS, RULES_USAGE } from "./rules.ts";
import { readSession } from "./read-session.ts";

export const PAYLOAD_USAGE = `payload FILE... [--leaf ID|line:N|leaves|all]... [--model session|PROVIDER/ID]... ${RULES_USAGE} [--jsonl]`;

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
    if (ref === "leaves") for (const leaf of leavesOf(tree)) leaves.push(leaf);
    else if (ref === "all") for (const entry of tree.entries) leaves.push(entry.index);
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
    ...RULE_OPTIONS,
    jsonl: { type: "boolean" },
  });
  if (!parsed.ok) return out.usage(parsed.error, PAYLOAD_USAGE);
  const { values, positionals } = parsed.value;
  if (positionals.length === 0) return out.usage("name at least one session file", PAYLOAD_USAGE);
  const settings = await readRuleSettings(values);
  if (!settings.ok) return out.fail(settings.error);
  const options = projectionOptions(settings.value);
  const models = resolveModels(strings(values["model"]).length ? strings(values["model"]) : ["session"]);
  if (!models.ok) return out.fail(models.error);
  const print = values["jsonl"] ? jsonlPrinter(out) : prettyPrinter(out);
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
        print.record(record);
      }
    }
    for (const leaf of leaves.value) {
      for (const model of models.value) print.record(recordFor(tree.value, leaf, model, options));
    }
  }
  const printFailed = print.end();
  return failed || printFailed ? 1 : 0;
}

/** Writes records as they are made: a long list of large payloads (`--leaf all`) is never held whole. */
interface Printer {
  record(record: PayloadRecord): void;
  /** Finishes the output; true when the only result asked for is an error. */
  end(): boolean;
}

/** A JSON line per record. */
function jsonlPrinter(out: Output): Printer {
  return {
    record: (record) => out.line(JSON.stringify(record)),
    end: () => false,
  };
}

/**
 * One payload alone (its body, or its error on stderr); several as a pretty JSON array of records, written a record
 * at a time, byte for byte what `JSON.stringify(records, null, 2)` writes (which would need all of them at once, in
 * one string: V8 refuses a string over 512 MB). A record is held until the next one says whether a comma follows.
 */
function prettyPrinter(out: Output): Printer {
  let held: PayloadRecord | undefined;
  let written = 0;
  const write = (record: PayloadRecord, last: boolean) => {
    if (written === 0) out.line("[");
    out.line(`  ${JSON.stringify(record, null, 2).replace(/\n/g, "\n  ")}${last ? "" : ","}`);
    written += 1;
  };
  return {
    record(record) {
      if (held !== undefined) write(held, false);
      held = record;
    },
    end() {
      if (held === undefined) return false;
      if (written > 0) {
        write(held, true);
        out.line("]");
        return false;
      }
      if (held.error === undefined) out.line(JSON.stringify(held.payload, null, 2));
      else out.error(`${held.file}: line ${held.line}: ${held.error}`);
      return held.error !== undefined;
    },
  };
}
