/**
 * Properties of loading (bytes → lines → entries) and of the tree index, checked against oracles written here
 * independently of the code under test: how a text splits into lines, which entries sit on parent cycles, which
 * can be reached from a root.
 */
import type { Diagnostic, DiagnosticCode } from "../../src/core/session/diagnostics.ts";
import { entryKind, entryText, preview } from "../../src/core/session/describe.ts";
import { passesFilter, searchEntries, TREE_FILTERS } from "../../src/core/session/filter.ts";
import { loadSessionBytes, loadSessionText, SessionLoader } from "../../src/core/session/load.ts";
import { indexTree, leavesOf, pathToLeaf, resolveEntryRef, type EntryTree } from "../../src/core/session/tree.ts";
import type { SessionFile } from "../../src/core/session/types.ts";
import { expectNoPollution, expectStatedError, expectThat, noThrow, tally } from "./check.ts";
import { jsonDifference } from "./json.ts";

/** Diagnostics that say a line was read but did not become an entry. */
const REJECTIONS: ReadonlySet<string> = new Set([
  "not-json",
  "multiple-values",
  "truncated-line",
  "not-object",
  "header-not-first",
  "line-too-long",
]);

/** The lines of a text as pi's reader sees them: split at "\n", one "\r" before it dropped, a leading BOM ignored. */
export function oracleLines(text: string): string[] {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (body === "") return [];
  const parts = body.split("\n");
  if (parts.at(-1) === "") parts.pop();
  return parts.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

function checkDiagnostics(diagnostics: readonly Diagnostic[], lineCount: number): Map<number, DiagnosticCode> {
  const rejected = new Map<number, DiagnosticCode>();
  for (const d of diagnostics) {
    expectStatedError(`diagnostic ${d.code}`, d.message);
    if (d.line === undefined) continue;
    expectThat(
      Number.isInteger(d.line) && d.line >= 1 && d.line <= Math.max(1, lineCount),
      `${d.code} names line ${d.line} of ${lineCount}`,
    );
    if (!REJECTIONS.has(d.code)) continue;
    expectThat(!rejected.has(d.line), `line ${d.line} is rejected twice (${rejected.get(d.line)}, ${d.code})`);
    expectThat(
      d.message.includes(`Line ${d.line} `),
      `the ${d.code} message does not name line ${d.line}: ${d.message}`,
    );
    rejected.set(d.line, d.code);
  }
  return rejected;
}

/**
 * Every non-blank line of `text` is exactly one of: the header, an entry, or a line a diagnostic rejects by number;
 * a file that is not a session has no entries and an error saying what it is instead. Entries of a version-3 file
 * are their lines' JSON, unchanged.
 */
export function checkAccounting(text: string, file: SessionFile): void {
  const lines = oracleLines(text);
  expectThat(file.stats.lines === lines.length, `stats.lines is ${file.stats.lines}, the text has ${lines.length}`);
  const rejected = checkDiagnostics(file.diagnostics, lines.length);
  tally(`file: ${file.kind}${file.kind === "pi-session" ? `, version ${file.version}` : ""}`);
  if (rejected.size > 0) tally("lines rejected with a diagnostic");
  file.entries.forEach((e, i) => {
    expectThat(e.index === i, `entry ${i} has index ${e.index}`);
    expectThat(i === 0 || e.line > file.entries[i - 1]!.line, `entry ${i} (line ${e.line}) is out of file order`);
  });
  if (file.kind !== "pi-session") {
    expectThat(file.entries.length === 0 && file.header === undefined, `a ${file.kind} file has entries or a header`);
    const said = file.diagnostics.some(
      (d) => d.severity === "error" && ["not-a-session", "empty-file"].includes(d.code),
    );
    expectThat(said, `a ${file.kind} file is not said to be one`);
    return;
  }
  const entryLines = new Set(file.entries.map((e) => e.line));
  lines.forEach((text, i) => {
    const line = i + 1;
    const roles = [line === file.headerLine, entryLines.has(line), rejected.has(line)].filter(Boolean).length;
    const shown = JSON.stringify(preview(text, 60));
    if (text.trim() === "") expectThat(roles === 0, `blank line ${line} (${shown}) was read as something`);
    else if (roles === 0) expectThat(false, `line ${line} ${shown} is lost: not the header, an entry, nor diagnosed`);
    else expectThat(roles === 1, `line ${line} ${shown} is counted ${roles} times`);
  });
  if (file.version < 3) return;
  for (const e of file.entries) {
    const difference = jsonDifference(e.raw, JSON.parse(lines[e.line - 1]!));
    expectThat(difference === undefined, `entry on line ${e.line} differs from its line: ${difference}`);
  }
}

/** Loading text: no throw, every line accounted for, the same result twice, no prototype touched. */
export function checkLoadText(text: string): void {
  const file = noThrow("loadSessionText", () => loadSessionText("fuzz.jsonl", text));
  checkAccounting(text, file);
  const again = loadSessionText("fuzz.jsonl", text);
  const difference = jsonDifference(file, again);
  expectThat(difference === undefined, `loading the same text twice differs at ${difference}`);
  expectNoPollution();
}

export interface ChunkedBytes {
  readonly bytes: Uint8Array;
  /** Chunk sizes, used in turn until the bytes run out. */
  readonly chunks: readonly number[];
}

function isWellFormedUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Loading bytes in chunks of any size gives what loading them whole gives; the byte statistics are true. */
export function checkLoadBytes({ bytes, chunks }: ChunkedBytes): void {
  const whole = noThrow("loadSessionBytes", () => loadSessionBytes("fuzz.jsonl", bytes));
  const loader = new SessionLoader("fuzz.jsonl");
  const chunked = noThrow("SessionLoader.push", () => {
    for (let at = 0, k = 0; at < bytes.length; k += 1) {
      const size = Math.max(1, chunks[k % chunks.length] ?? 1);
      loader.push(bytes.subarray(at, at + size));
      at += size;
    }
    return loader.finish();
  });
  const difference = jsonDifference(whole, chunked);
  expectThat(difference === undefined, `chunks of ${JSON.stringify(chunks)} load differently at ${difference}`);
  const { stats } = whole;
  expectThat(stats.bytes === bytes.length, `stats.bytes ${stats.bytes} for ${bytes.length} bytes`);
  expectThat(stats.nulBytes === bytes.includes(0), `stats.nulBytes is ${stats.nulBytes}`);
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  expectThat(stats.bom === bom, `stats.bom is ${stats.bom}`);
  const valid = isWellFormedUtf8(bytes);
  expectThat(
    stats.invalidUtf8 === !valid,
    `stats.invalidUtf8 is ${stats.invalidUtf8} for ${valid ? "" : "in"}valid UTF-8`,
  );
  checkAccounting(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), whole);
}

/** Entries whose parent chain comes back to themselves, found by walking at most n steps from each. */
function oracleCycle(parentOf: readonly (number | undefined)[]): Set<number> {
  const out = new Set<number>();
  parentOf.forEach((first, start) => {
    let node = first;
    for (let k = 0; k < parentOf.length && node !== undefined && node !== start; k += 1) node = parentOf[node];
    if (node === start) out.add(start);
  });
  return out;
}

function checkLinks(tree: EntryTree): void {
  const { entries, diagnostics } = tree;
  const last = new Map<string, number>();
  for (const e of entries) if (e.id !== undefined) last.set(e.id, e.index);
  expectThat(jsonDifference([...tree.byId], [...last]) === undefined, "byId is not the last entry of each id");
  const withId = entries.filter((e) => e.id !== undefined).length;
  const duplicates = diagnostics.filter((d) => d.code === "duplicate-id").length;
  expectThat(duplicates === withId - last.size, `${duplicates} duplicate-id diagnostics for ${withId - last.size}`);
  const children: number[][] = entries.map(() => []);
  for (const e of entries) {
    const parent = e.parentId ? last.get(e.parentId) : undefined;
    expectThat(tree.parentOf[e.index] === parent, `line ${e.line}: parent ${tree.parentOf[e.index]}, not ${parent}`);
    if (parent !== undefined) children[parent]!.push(e.index);
    else if (e.parentId)
      expectThat(
        diagnostics.some((d) => d.code === "missing-parent" && d.line === e.line),
        `line ${e.line} names a missing parent without a diagnostic`,
      );
  }
  expectThat(jsonDifference(tree.children, children) === undefined, "children are not the inverse of parentOf");
  const roots = entries.filter((e) => tree.parentOf[e.index] === undefined).map((e) => e.index);
  expectThat(jsonDifference(tree.roots, roots) === undefined, "roots are not the entries without a parent");
}

/** Every entry is reachable from a root, or on a parent cycle, or below one, and the cycle diagnostic counts both. */
function checkReach(tree: EntryTree): void {
  const cycle = oracleCycle(tree.parentOf);
  expectThat(jsonDifference([...tree.inCycle].sort(), [...cycle].sort()) === undefined, "inCycle is not the cycles");
  const reached = new Set<number>();
  const stack = [...tree.roots];
  while (stack.length > 0) {
    const i = stack.pop()!;
    if (reached.has(i)) continue;
    reached.add(i);
    stack.push(...tree.children[i]!);
  }
  const below = tree.entries.filter((e) => !reached.has(e.index) && !cycle.has(e.index)).length;
  const said = tree.diagnostics.filter((d) => d.code === "parent-cycle");
  tally(cycle.size === 0 ? "no parent cycle" : below === 0 ? "a parent cycle" : "a parent cycle with entries below it");
  if (cycle.size === 0)
    return expectThat(said.length === 0 && below === 0, "a parent-cycle diagnostic without a cycle");
  expectThat(said.length === 1, `${said.length} parent-cycle diagnostics`);
  const message = said[0]!.message;
  expectThat(message.startsWith(`${cycle.size} entries form a parent cycle`), `the cycle is miscounted: ${message}`);
  const named = /and (\d+) more descend from it/.exec(message)?.[1];
  expectThat(Number(named ?? 0) === below, `${below} entries below the cycle, the diagnostic says ${named ?? "none"}`);
}

function checkPaths(tree: EntryTree): void {
  for (const e of tree.entries) {
    const path = noThrow("pathToLeaf", () => pathToLeaf(tree, e.index));
    if (!path.ok) {
      expectStatedError("pathToLeaf", path.error);
      continue;
    }
    const steps = path.value;
    expectThat(steps.at(-1) === e.index && tree.parentOf[steps[0]!] === undefined, `path to line ${e.line} is broken`);
    steps.forEach((s, k) => expectThat(k === 0 || tree.parentOf[s] === steps[k - 1], `path to line ${e.line} skips`));
    const ref = noThrow("resolveEntryRef", () => resolveEntryRef(tree, `line:${e.line}`));
    expectThat(ref.ok && ref.value === e.index, `line:${e.line} does not resolve to its entry`);
  }
  for (const leaf of leavesOf(tree)) expectThat(tree.children[leaf]!.length === 0, `leaf ${leaf} has children`);
}

function checkViews(tree: EntryTree, query: string): void {
  const leaf = tree.defaultLeaf;
  const passing = new Map(TREE_FILTERS.map((filter) => [filter, [] as number[]]));
  for (const e of tree.entries) {
    const text = noThrow("entryText", () => entryText(e));
    const kind = noThrow("entryKind", () => entryKind(e));
    expectThat(typeof text === "string" && typeof kind === "string", `line ${e.line} describes as a non-string`);
    noThrow("preview", () => preview(text));
    for (const filter of TREE_FILTERS)
      if (noThrow(`passesFilter ${filter}`, () => passesFilter(tree, e.index, filter, leaf)))
        passing.get(filter)!.push(e.index);
  }
  for (const filter of TREE_FILTERS) {
    const hits = noThrow(`searchEntries ${filter}`, () => searchEntries(tree, query, filter, leaf));
    const shown = passing.get(filter)!;
    expectThat(
      hits.every((h) => shown.includes(h)),
      `search hits with filter ${filter} that the filter hides`,
    );
    const all = searchEntries(tree, "", filter, leaf);
    expectThat(
      jsonDifference([...all], shown) === undefined,
      `the empty search with filter ${filter} is not the filter`,
    );
  }
}

export interface TreeInput {
  readonly text: string;
  /** A search query to run over the tree. */
  readonly query: string;
}

/** Indexing: links and roots as the entries say, cycles found, every entry reachable or diagnosed, paths end. */
export function checkTree({ text, query }: TreeInput): void {
  const file = noThrow("loadSessionText", () => loadSessionText("fuzz.jsonl", text));
  const tree = noThrow("indexTree", () => indexTree(file));
  for (const d of tree.diagnostics) expectStatedError(`diagnostic ${d.code}`, d.message);
  checkLinks(tree);
  checkReach(tree);
  checkPaths(tree);
  checkViews(tree, query);
  expectNoPollution();
}
