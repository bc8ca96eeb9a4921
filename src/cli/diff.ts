/**
 * `diff FILE (--rules A --rules B | --model A --model B | --leaf A --leaf B) [--jsonl]` — two projections of one
 * session compared item by item: what was added, removed or changed (aligned by the entries each item came from),
 * the token and cost deltas, and the first point where a prompt cache would stop matching.
 */
import type { Comparison, ItemChange } from "../core/diff/compare.ts";
import { formatTokenDelta, formatTokens, formatUsd, formatUsdDelta } from "../core/diff/format.ts";
import { compareSides, type CountSide } from "../core/diff/session.ts";
import { resolveModelRef, type CompareSide } from "../core/diff/sides.ts";
import { shownRun, type DiffPart, type ShownRun, type TextDiff } from "../core/diff/text-diff.ts";
import { changedRules, projectionOptions } from "../core/project/rules.ts";
import { err, ok, type Result } from "../core/result.ts";
import { resolveEntryRef, type EntryTree } from "../core/session/tree.ts";
import { TokenCounter } from "../core/tokens/count.ts";
import { projectionTokens, type TokenFigure } from "../core/tokens/projection.ts";
import { loadTokenizers } from "../tokens/load.ts";
import { parse, strings } from "./args.ts";
import { reportLoad, type Output } from "./output.ts";
import { readSession } from "./read-session.ts";
import { readPreset, readRuleSettings, RULE_OPTIONS } from "./rules.ts";

export const DIFF_USAGE =
  "diff FILE (--rules A --rules B | --model A --model B | --leaf A --leaf B) [--leaf ID|line:N] [--model session|PROVIDER/ID] [--rules PRESET|FILE] [--block-images] [--system FILE] [--tools FILE] [--text-diff] [--json-diff] [--jsonl]";

type Kind = "rules" | "model" | "leaf";
const KINDS: readonly Kind[] = ["rules", "model", "leaf"];

interface Plan {
  /** What differs between A and B. */
  readonly kind: Kind;
  readonly values: readonly [string, string];
  /** The other kinds given once: the same for both sides. */
  readonly shared: Partial<Record<Kind, string>>;
}

/** Exactly one kind given twice (what is compared); the others at most once (shared). Says what is wrong else. */
export function planDiff(values: Record<string, unknown>): Result<Plan> {
  const given = KINDS.map((kind) => ({ kind, values: strings(values[kind]) })).filter((g) => g.values.length > 0);
  const times = (g: { kind: Kind; values: string[] }) =>
    `--${g.kind} ${g.values.length === 1 ? "once" : `${g.values.length} times`}`;
  const tooMany = given.find((g) => g.values.length > 2);
  if (tooMany) return err(`--${tooMany.kind} takes exactly two values to compare, A then B (got ${times(tooMany)})`);
  const twice = given.filter((g) => g.values.length === 2);
  if (twice.length > 1)
    return err(
      `compare one thing at a time: two rule presets, two models or two leaves (got ${twice.map(times).join(" and ")})`,
    );
  const compared = twice[0];
  if (!compared)
    return err(
      `say what to compare: --rules A --rules B, --model A --model B, or --leaf A --leaf B${given.length > 0 ? ` (${given.map(times).join(" and ")} sets it for both sides)` : ""}`,
    );
  const shared: Partial<Record<Kind, string>> = {};
  for (const g of given) if (g !== compared) shared[g.kind] = g.values[0] as string;
  return ok({ kind: compared.kind, values: [compared.values[0] as string, compared.values[1] as string], shared });
}

interface Side extends CompareSide {
  /** What this side is called: the preset, the model or the leaf asked for. */
  readonly name: string;
}

const modelProblem = (value: string) =>
  `--model ${value}: not a model in pi-ai's registry (write PROVIDER/ID, or session for the session's own; \`npm run cli -- models\` lists them)`;

function leafOf(tree: EntryTree, ref: string | undefined): Result<number> {
  if (ref === undefined)
    return tree.defaultLeaf === undefined
      ? err(`${tree.file.name}: the session has no entries (only its header), so there is nothing to compare`)
      : ok(tree.defaultLeaf);
  const index = resolveEntryRef(tree, ref);
  return index.ok ? index : err(`${tree.file.name}: --leaf ${ref}: ${index.error}`);
}

function modelOf(ref: string | undefined): Result<string | undefined> {
  if (ref === undefined || ref === "session") return ok(undefined);
  return resolveModelRef(ref).ok ? ok(ref) : err(modelProblem(ref));
}

async function sidesOf(tree: EntryTree, plan: Plan, values: Record<string, unknown>): Promise<Result<[Side, Side]>> {
  const shared = await readRuleSettings(values, plan.shared.rules);
  if (!shared.ok) return shared;
  const sides: Side[] = [];
  for (const value of plan.values) {
    const leaf = leafOf(tree, plan.kind === "leaf" ? value : plan.shared.leaf);
    if (!leaf.ok) return leaf;
    const model = modelOf(plan.kind === "model" ? value : plan.shared.model);
    if (!model.ok) return model;
    let settings = shared.value;
    let name = value;
    if (plan.kind === "rules") {
      const own = await readRuleSettings(values, value);
      const preset = await readPreset(value);
      if (!own.ok) return own;
      settings = own.value;
      if (preset.ok) name = preset.value.name;
    }
    sides.push({ name, leaf: leaf.value, settings, model: model.value });
  }
  return ok([sides[0] as Side, sides[1] as Side]);
}

const entryRef = (tree: EntryTree, index: number): string => {
  const entry = tree.entries[index];
  return entry?.id ?? `line:${entry?.line ?? "?"}`;
};

/** What `diff --jsonl` prints: the comparison with entries named by id (or line:N), and each side's name. */
export function diffRecord(tree: EntryTree, kind: Kind, sides: readonly [Side, Side], comparison: Comparison) {
  const side = (s: Side, summary: Comparison["a"]) => ({
    ...summary,
    name: s.name,
    leaf: entryRef(tree, summary.leaf),
    line: tree.entries[summary.leaf]?.line ?? 0,
  });
  return {
    file: tree.file.name,
    compare: kind,
    ...comparison,
    a: side(sides[0], comparison.a),
    b: side(sides[1], comparison.b),
    changes: comparison.changes.map((c) => ({ ...c, entries: c.entries.map((e) => entryRef(tree, e)) })),
  };
}

const MARK: Readonly<Record<ItemChange["kind"], string>> = { added: "+", removed: "-", changed: "~", unchanged: " " };

const figure = (f: TokenFigure | undefined) => (f ? `${formatTokens(f.value)} (${f.kind})` : "not counted");

/**
 * Characters kept at each end of a long run: unchanged text is context, removed and added text is the change. Fewer
 * than the app shows, where the diff scrolls in a box: a rule that truncates a tool result removes thousands of lines.
 */
const KEEP: Readonly<Record<DiffPart["op"], number>> = { same: 60, removed: 400, added: 400 };

/** "[… 19,680 characters unchanged …]", "[… 39,978,000 more characters removed …]" */
const leftOut = ({ op, skipped }: ShownRun): string =>
  `[… ${skipped.toLocaleString("en")} ${op === "same" ? "characters unchanged" : `more characters ${op}`} …]`;

/** A text diff as git's --word-diff prints it: [-removed-]{+added+}, long runs shortened to their ends. */
export function plainTextDiff(diff: TextDiff): string {
  if (diff.addedChars === 0 && diff.removedChars === 0) return "(the text the model reads is the same)";
  const text = diff.parts
    .map((part) => {
      const run = shownRun(part, KEEP[part.op]);
      const shown = run.skipped > 0 ? `${run.head}${leftOut(run)}${run.tail}` : run.head;
      return part.op === "removed" ? `[-${shown}-]` : part.op === "added" ? `{+${shown}+}` : shown;
    })
    .join("");
  return diff.exact ? text : `${text}\n(coarse: the texts differ too much for an exact diff)`;
}

function printComparison(
  tree: EntryTree,
  sides: readonly [Side, Side],
  c: Comparison,
  values: Record<string, unknown>,
  out: Output,
) {
  const describe = (s: Side, summary: Comparison["a"]) =>
    `leaf line ${tree.entries[summary.leaf]?.line}, ${summary.model}, ${summary.items} items (${s.name})`;
  out.line(`${tree.file.name}`);
  out.line(`  A: ${describe(sides[0], c.a)}`);
  out.line(`  B: ${describe(sides[1], c.b)}`);
  out.line(`  ${"Δ tokens".padStart(9)}  item`);
  for (const change of c.changes) {
    if (change.kind === "unchanged") continue;
    const delta = change.tokenDelta === undefined ? "" : formatTokenDelta(change.tokenDelta);
    out.line(`  ${delta.padStart(9)}  ${MARK[change.kind]} ${change.description}`);
    if (values["text-diff"] && change.textDiff)
      for (const line of plainTextDiff(change.textDiff).split("\n")) out.line(`${" ".repeat(15)}${line}`);
  }
  const { added, removed, changed, unchanged } = c.counts;
  out.line(`  ${added} added, ${removed} removed, ${changed} changed, ${unchanged} unchanged`);
  out.line(
    `total: A ${figure(c.a.total)}, B ${figure(c.b.total)}${c.tokenDelta === undefined ? "" : `, Δ ${formatTokenDelta(c.tokenDelta)} tokens`}`,
  );
  if (c.a.cost !== undefined && c.b.cost !== undefined && c.costDelta !== undefined)
    out.line(
      `cost at each model's input price: A ${formatUsd(c.a.cost)} ($${c.a.inputPrice}/M), B ${formatUsd(c.b.cost)} ($${c.b.inputPrice}/M), Δ ${formatUsdDelta(c.costDelta)}`,
    );
  if (c.tokensError) out.warn(`tokens not counted: ${c.tokensError}`);
  const d = c.divergence;
  if (!d) out.line("first divergence: none (a prompt cache sees the same request)");
  else
    out.line(
      `first divergence: ${d.description}${d.tokensAfter === undefined ? "" : `; ${formatTokens(d.tokensAfter)} tokens of B from there on cannot be served from a prompt cache (${formatTokens(d.tokensBefore ?? 0)} before it can)`}`,
    );
  if (c.json) {
    out.line(`JSON diff (${c.json.changes.length}${c.json.truncated ? "+" : ""} paths):`);
    for (const j of c.json.changes)
      out.line(
        `  ${j.kind === "added" ? "+" : j.kind === "removed" ? "-" : "~"} ${j.path}: ${j.kind === "added" ? j.after : j.kind === "removed" ? j.before : `${j.before} → ${j.after}`}`,
      );
  }
}

export async function diffCommand(args: readonly string[], out: Output): Promise<number> {
  const parsed = parse(args, {
    leaf: { type: "string", multiple: true },
    model: { type: "string", multiple: true },
    ...RULE_OPTIONS,
    rules: { type: "string", multiple: true },
    "text-diff": { type: "boolean" },
    "json-diff": { type: "boolean" },
    jsonl: { type: "boolean" },
  });
  if (!parsed.ok) return out.usage(parsed.error, DIFF_USAGE);
  const { values, positionals } = parsed.value;
  if (positionals.length !== 1) return out.usage("name one session file", DIFF_USAGE);
  const plan = planDiff(values);
  if (!plan.ok) return out.usage(plan.error, DIFF_USAGE);
  const path = positionals[0] as string;
  const tree = await readSession(path);
  if (!reportLoad(tree.ok ? tree.value : undefined, path, out, tree.ok ? undefined : tree.error) || !tree.ok) return 1;
  const sides = await sidesOf(tree.value, plan.value, values);
  if (!sides.ok) return out.fail(sides.error);
  const counter = new TokenCounter(await loadTokenizers());
  const count: CountSide = (side, projection) =>
    projectionTokens(tree.value, projection, counter, {
      options: projectionOptions(side.settings),
      asPiSends: changedRules(side.settings).length === 0,
    });
  const json = Boolean(values["jsonl"] || values["json-diff"]);
  const comparison = await compareSides(tree.value, sides.value[0], sides.value[1], count, { json });
  if (!comparison.ok) return out.fail(`${tree.value.file.name}: ${comparison.error}`);
  if (values["jsonl"]) out.line(JSON.stringify(diffRecord(tree.value, plan.value.kind, sides.value, comparison.value)));
  else printComparison(tree.value, sides.value, comparison.value, values, out);
  return 0;
}
