/**
 * `tokens FILE [--leaf ID|line:N] [--model session|PROVIDER/ID] [--rules …] [--jsonl]` — prompt tokens per payload
 * message and in total, each number saying whether it is exact, calibrated or estimated.
 * `tokens FILE --turns [--jsonl]` — for every assistant turn with recorded usage, the recorded prompt size and the
 * standalone and anchored estimates of it (neither looks at the turn's own usage or anything after it).
 */
import type { ModelInfo } from "../core/llm/types.ts";
import { findModel, parseModelRef } from "../core/models/registry.ts";
import { projectLeaf, type Projection, type ProjectionOptions } from "../core/project/project.ts";
import { projectionOptions } from "../core/project/rules.ts";
import { err, ok, type Result } from "../core/result.ts";
import { resolveEntryRef, type EntryTree } from "../core/session/tree.ts";
import { sessionAccuracy, type ErrorStats } from "../core/tokens/accuracy.ts";
import { TokenCounter } from "../core/tokens/count.ts";
import { turnEstimates, type TurnEstimate } from "../core/tokens/estimate.ts";
import { projectionTokens, type ProjectionTokens, type TokenFigure } from "../core/tokens/projection.ts";
import { loadTokenizers } from "../tokens/load.ts";
import { parse } from "./args.ts";
import { reportLoad, type Output } from "./output.ts";
import { readSession } from "./read-session.ts";
import { readRuleSettings, RULE_OPTIONS, RULES_USAGE } from "./rules.ts";

export const TOKENS_USAGE = `tokens FILE [--leaf ID|line:N] [--model session|PROVIDER/ID] ${RULES_USAGE} [--jsonl]\n  tokens FILE --turns [--jsonl]`;

/** One line of `tokens FILE --turns --jsonl`: exactly these keys. */
export interface TurnRecord {
  readonly line: number;
  readonly entry: string | null;
  readonly actual: number;
  readonly standalone: number | null;
  readonly anchored: number | null;
}

export function turnRecord(estimate: TurnEstimate): TurnRecord {
  return {
    line: estimate.turn.line,
    entry: estimate.turn.id ?? null,
    actual: estimate.actual,
    standalone: estimate.standalone,
    anchored: estimate.anchored,
  };
}

/** What `tokens FILE --jsonl` prints for a projection. */
export interface TokensRecord {
  readonly file: string;
  readonly leaf: string | null;
  readonly line: number;
  readonly model: string;
  readonly family: string;
  readonly items: readonly {
    readonly index: number;
    readonly role: string;
    /** Session entries the item came from (ids, or line:N for entries without one). */
    readonly entries: readonly string[];
    readonly tokens: number;
    readonly basis: string;
  }[];
  readonly messages: number;
  readonly systemAndTools: TokenFigure | null;
  readonly total: TokenFigure;
}

const entryRef = (tree: EntryTree, index: number): string => {
  const entry = tree.entries[index];
  return entry?.id ?? `line:${entry?.line ?? "?"}`;
};

export function tokensRecord(tree: EntryTree, projection: Projection, tokens: ProjectionTokens): TokensRecord {
  const leaf = tree.entries[projection.leaf];
  return {
    file: tree.file.name,
    leaf: leaf?.id ?? null,
    line: leaf?.line ?? 0,
    model: `${projection.model.provider}/${projection.model.id}`,
    family: tokens.family.id,
    items: tokens.items.map((item) => ({
      index: item.index,
      role: item.role,
      entries: item.sources.map((s) => entryRef(tree, s)),
      tokens: Math.round(item.tokens),
      basis: item.basis,
    })),
    messages: Math.round(tokens.messages),
    systemAndTools: tokens.systemAndTools ?? null,
    total: tokens.total,
  };
}

function resolveModel(ref: string | undefined): Result<ModelInfo | undefined> {
  if (ref === undefined || ref === "session") return ok(undefined);
  const parsed = parseModelRef(ref);
  const model = parsed && findModel(parsed.provider, parsed.id);
  return model
    ? ok(model)
    : err(`--model ${ref}: not a model in pi-ai's registry (write PROVIDER/ID; \`npm run cli -- models\` lists them)`);
}

const number = (n: number): string => Math.round(n).toLocaleString("en-US");
const percent = (n: number): string => `${(n * 100).toFixed(2)}%`;

function describe(figure: TokenFigure): string {
  const accuracy = (e: ErrorStats | undefined) =>
    e && e.turns > 0
      ? `; on this session: median ${percent(e.median)}, p90 ${percent(e.p90)} over ${e.of ? `${e.turns} of its ${number(e.of)} turns (spread evenly)` : `${e.turns} turns`}`
      : "";
  return figure.kind === "calibrated"
    ? `calibrated (${figure.basis}${accuracy(figure.error)})`
    : `${figure.kind} (${figure.basis})`;
}

function printTable(tree: EntryTree, record: TokensRecord, out: Output): void {
  out.line(
    `${record.file}  leaf line ${record.line}${record.leaf ? ` (${record.leaf})` : ""}  model ${record.model}  family ${record.family}`,
  );
  const lineOf = (ref: string) => {
    const index = resolveEntryRef(tree, ref);
    return index.ok ? `line ${tree.entries[index.value]?.line}` : ref;
  };
  out.line(`  ${"#".padStart(4)}  ${"role".padEnd(11)}${"entries".padEnd(22)}${"tokens".padStart(9)}  basis`);
  for (const item of record.items) {
    const entries = item.entries.map(lineOf).join(", ") || "(none)";
    out.line(
      `  ${String(item.index).padStart(4)}  ${item.role.padEnd(11)}${entries.slice(0, 21).padEnd(22)}${number(item.tokens).padStart(9)}  ${item.basis}`,
    );
  }
  out.line(`  ${"messages".padEnd(39)}${number(record.messages).padStart(9)}  estimated`);
  if (record.systemAndTools)
    out.line(
      `  ${"system prompt + tools".padEnd(39)}${number(record.systemAndTools.value).padStart(9)}  ${describe(record.systemAndTools)}`,
    );
  out.line(`  ${"total".padEnd(39)}${number(record.total.value).padStart(9)}  ${describe(record.total)}`);
}

let lastGaveWay = performance.now();

/** Lets the event loop run now and then in a long loop, so a reader that went away (`| head`) is noticed. */
async function giveWay(): Promise<void> {
  if (performance.now() - lastGaveWay < 100) return;
  await new Promise((resolve) => setImmediate(resolve));
  lastGaveWay = performance.now();
}

async function turnsCommand(tree: EntryTree, jsonl: boolean, out: Output): Promise<number> {
  const counter = new TokenCounter(await loadTokenizers());
  // Each turn is printed as soon as it is estimated: all of a long session's take minutes.
  const estimates = turnEstimates(tree, counter);
  if (jsonl) {
    for (const estimate of estimates) {
      await giveWay();
      out.line(JSON.stringify(turnRecord(estimate)));
    }
    return 0;
  }
  out.line(
    `${"line".padStart(6)}  ${"entry".padEnd(10)}${"actual".padStart(9)}${"standalone".padStart(12)}${"error".padStart(8)}${"anchored".padStart(10)}${"error".padStart(8)}`,
  );
  const error = (e: number | null, actual: number) => (e === null ? "-" : percent((e - actual) / actual));
  let printed = 0;
  for (const e of estimates) {
    await giveWay();
    const r = turnRecord(e);
    out.line(
      `${String(r.line).padStart(6)}  ${(r.entry ?? "-").slice(0, 9).padEnd(10)}${number(r.actual).padStart(9)}${(r.standalone === null ? "-" : number(r.standalone)).padStart(12)}${error(r.standalone, r.actual).padStart(8)}${(r.anchored === null ? "-" : number(r.anchored)).padStart(10)}${error(r.anchored, r.actual).padStart(8)}`,
    );
    printed += 1;
  }
  if (printed === 0) out.line("(no assistant turn of this session records the usage of a real request)");
  return 0;
}

async function projectionCommand(
  tree: EntryTree,
  values: Record<string, unknown>,
  options: ProjectionOptions,
  asPiSends: boolean,
  out: Output,
): Promise<number> {
  const model = resolveModel(typeof values["model"] === "string" ? values["model"] : undefined);
  if (!model.ok) return out.fail(model.error);
  const leafRef = typeof values["leaf"] === "string" ? values["leaf"] : undefined;
  const leaf = leafRef === undefined ? ok(tree.defaultLeaf) : resolveEntryRef(tree, leafRef);
  if (!leaf.ok) return out.fail(`${tree.file.name}: --leaf ${leafRef}: ${leaf.error}`);
  if (leaf.value === undefined)
    return out.fail(`${tree.file.name}: the session has no entries (only its header), so there is nothing to count`);
  const projection = projectLeaf(tree, leaf.value, model.value ? { ...options, model: model.value } : options);
  if (!projection.ok) return out.fail(`${tree.file.name}: line ${tree.entries[leaf.value]?.line}: ${projection.error}`);
  // Both vocabularies: the session's own turns (for the measured error) may be of another family than the target.
  const counter = new TokenCounter(await loadTokenizers());
  const accuracy = sessionAccuracy(tree, counter).anchored;
  const tokens = projectionTokens(tree, projection.value, counter, { options, asPiSends, accuracy });
  const record = tokensRecord(tree, projection.value, tokens);
  if (values["jsonl"]) out.line(JSON.stringify(record));
  else printTable(tree, record, out);
  return 0;
}

export async function tokensCommand(args: readonly string[], out: Output): Promise<number> {
  const parsed = parse(args, {
    leaf: { type: "string" },
    model: { type: "string" },
    ...RULE_OPTIONS,
    turns: { type: "boolean" },
    jsonl: { type: "boolean" },
  });
  if (!parsed.ok) return out.usage(parsed.error, TOKENS_USAGE);
  const { values, positionals } = parsed.value;
  if (positionals.length !== 1) return out.usage("name one session file", TOKENS_USAGE);
  const path = positionals[0] as string;
  const ruleFlags = ["rules", "block-images", "system", "tools"].filter((k) => values[k] !== undefined);
  if (values["turns"] && (ruleFlags.length > 0 || values["leaf"] !== undefined || values["model"] !== undefined))
    return out.usage(
      `--turns measures the requests pi actually sent, so it takes no --${[...ruleFlags, ...(values["leaf"] !== undefined ? ["leaf"] : []), ...(values["model"] !== undefined ? ["model"] : [])][0]}`,
      TOKENS_USAGE,
    );
  const settings = await readRuleSettings(values);
  if (!settings.ok) return out.fail(settings.error);
  const tree = await readSession(path);
  if (!reportLoad(tree.ok ? tree.value : undefined, path, out, tree.ok ? undefined : tree.error) || !tree.ok) return 1;
  if (values["turns"]) return turnsCommand(tree.value, Boolean(values["jsonl"]), out);
  return projectionCommand(tree.value, values, projectionOptions(settings.value), ruleFlags.length === 0, out);
}
