/**
 * Stage 4: index the entries as a tree, with pi's lookup rules (an id seen twice resolves to its last entry),
 * and report missing parents, duplicate ids and parent cycles. Entries are addressed by their index.
 */
import { err, ok, type Result } from "../result.ts";
import type { Diagnostic } from "./diagnostics.ts";
import type { SessionEntry, SessionFile } from "./types.ts";

export interface EntryLabel {
  readonly label: string;
  /** Index of the label entry that set it. */
  readonly from: number;
}

export interface EntryTree {
  readonly file: SessionFile;
  readonly entries: readonly SessionEntry[];
  /** id → index of the last entry with that id (pi's `byId`). */
  readonly byId: ReadonlyMap<string, number>;
  /** index → parent index, or undefined for a root (no parent, or a parent that does not exist). */
  readonly parentOf: readonly (number | undefined)[];
  readonly children: readonly (readonly number[])[];
  readonly roots: readonly number[];
  /** Target id → its current label (the latest label entry wins; an empty one clears). */
  readonly labels: ReadonlyMap<string, EntryLabel>;
  /** From the latest `session_info` entry, as pi's `getSessionName`. */
  readonly name: string | undefined;
  /** pi's default leaf: the last entry of the file. */
  readonly defaultLeaf: number | undefined;
  /**
   * Entries on a parent cycle; pi would never finish walking from them, nor from the entries below them (which
   * `pathToLeaf` refuses when their walk reaches the cycle).
   */
  readonly inCycle: ReadonlySet<number>;
  /** Entries holding a value nested too deep to write as JSON (the loader's "nested-too-deep" diagnostics). */
  readonly tooDeep: ReadonlySet<number>;
  readonly diagnostics: readonly Diagnostic[];
}

function indexIds(entries: readonly SessionEntry[], diagnostics: Diagnostic[]): Map<string, number> {
  const byId = new Map<string, number>();
  for (const entry of entries) {
    if (entry.id === undefined) continue;
    const earlier = byId.get(entry.id);
    if (earlier !== undefined) {
      diagnostics.push({
        severity: "warning",
        code: "duplicate-id",
        line: entry.line,
        entryId: entry.id,
        message: `Line ${entry.line} reuses id ${entry.id} from line ${entries[earlier]?.line}; like pi, the later entry wins wherever that id is looked up. Use line:${entries[earlier]?.line} to address the earlier one.`,
      });
    }
    byId.set(entry.id, entry.index);
  }
  return byId;
}

function linkParents(
  entries: readonly SessionEntry[],
  byId: Map<string, number>,
  diagnostics: Diagnostic[],
): (number | undefined)[] {
  return entries.map((entry) => {
    if (!entry.parentId) return undefined;
    const parent = byId.get(entry.parentId);
    if (parent === undefined) {
      diagnostics.push({
        severity: "warning",
        code: "missing-parent",
        line: entry.line,
        ...(entry.id !== undefined ? { entryId: entry.id } : {}),
        message: `Line ${entry.line} names parent ${entry.parentId}, which is not in the file; the path to the root stops there, as in pi.`,
      });
    }
    return parent;
  });
}

/** Marks every entry that lies on a parent cycle (iterative: a cycle never hangs this). */
function findCycles(parentOf: readonly (number | undefined)[]): Set<number> {
  const state = new Uint8Array(parentOf.length); // 0 new, 1 on current walk, 2 done
  const inCycle = new Set<number>();
  for (let start = 0; start < parentOf.length; start += 1) {
    const walk: number[] = [];
    let node: number | undefined = start;
    while (node !== undefined && state[node] === 0) {
      state[node] = 1;
      walk.push(node);
      node = parentOf[node];
    }
    if (node !== undefined && state[node] === 1) {
      for (let i = walk.indexOf(node); i < walk.length; i += 1) inCycle.add(walk[i] as number);
    }
    for (const n of walk) state[n] = 2;
  }
  return inCycle;
}

/** Entries off every cycle whose parent chain runs into one: no root leads to them, and pi loops on them too. */
function belowCycles(children: readonly (readonly number[])[], inCycle: ReadonlySet<number>): number[] {
  const seen = new Set(inCycle);
  const stack = [...inCycle];
  const below: number[] = [];
  while (stack.length > 0) {
    for (const child of children[stack.pop()!] ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      below.push(child);
      stack.push(child);
    }
  }
  return below.sort((a, b) => a - b);
}

function cycleDiagnostic(entries: readonly SessionEntry[], inCycle: ReadonlySet<number>, below: number[]): Diagnostic {
  const lines = (of: readonly number[]) =>
    of
      .slice(0, 10)
      .map((i) => entries[i]?.line)
      .join(", ") + (of.length > 10 ? ", …" : "");
  const cycle = [...inCycle];
  const descendants = below.length > 0 ? ` and ${below.length} more descend from it (lines ${lines(below)})` : "";
  return {
    severity: "error",
    code: "parent-cycle",
    line: entries[cycle[0]!]?.line,
    message: `${inCycle.size} entries form a parent cycle (lines ${lines(cycle)})${descendants}; no root leads to them, and pi would loop forever building context from any leaf below it.`,
  };
}

function collectLabels(entries: readonly SessionEntry[]): Map<string, EntryLabel> {
  const labels = new Map<string, EntryLabel>();
  for (const entry of entries) {
    if (entry.type !== "label") continue;
    const target = entry.raw["targetId"];
    if (typeof target !== "string") continue;
    const label = entry.raw["label"];
    if (typeof label === "string" && label) labels.set(target, { label, from: entry.index });
    else labels.delete(target);
  }
  return labels;
}

function sessionName(entries: readonly SessionEntry[]): string | undefined {
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i] as SessionEntry;
    if (entry.type !== "session_info") continue;
    const name = entry.raw["name"];
    return typeof name === "string" ? name.trim() || undefined : undefined;
  }
  return undefined;
}

export function indexTree(file: SessionFile): EntryTree {
  const entries = file.entries;
  const diagnostics: Diagnostic[] = [];
  const byId = indexIds(entries, diagnostics);
  const parentOf = linkParents(entries, byId, diagnostics);
  const children: number[][] = entries.map(() => []);
  const roots: number[] = [];
  parentOf.forEach((parent, index) => (parent === undefined ? roots.push(index) : children[parent]?.push(index)));
  const inCycle = findCycles(parentOf);
  if (inCycle.size > 0) diagnostics.push(cycleDiagnostic(entries, inCycle, belowCycles(children, inCycle)));
  const defaultLeaf = entries.length > 0 ? entries.length - 1 : undefined;
  const deepLines = new Set(file.diagnostics.filter((d) => d.code === "nested-too-deep").map((d) => d.line));
  const tooDeep = new Set(deepLines.size === 0 ? [] : entries.filter((e) => deepLines.has(e.line)).map((e) => e.index));
  return {
    file,
    entries,
    byId,
    parentOf,
    children,
    roots,
    labels: collectLabels(entries),
    name: sessionName(entries),
    defaultLeaf,
    inCycle,
    tooDeep,
    diagnostics,
  };
}

/** The path walked last in a tree, and each entry's place on it (-1 off it). */
interface WalkedPath {
  readonly path: readonly number[];
  readonly place: Int32Array;
}

const walked = new WeakMap<EntryTree, WalkedPath>();

/**
 * The path to `leaf` from the path walked last: that path down to where `leaf`'s branch leaves it, then the
 * entries walked up from `leaf` to there. A cache series asks for the path to every request along one path in
 * turn (thousands on a long session), each on the one walked last; a session's turns in file order each extend
 * the one before; a leaf picked in the tree shares its path down to the branch point. Only the entries off the
 * path walked last are walked, and only those entering or leaving it change their place.
 */
function pathFromWalked(tree: EntryTree, leaf: number): readonly number[] {
  const { parentOf } = tree;
  const last = walked.get(tree);
  const place = last?.place ?? new Int32Array(tree.entries.length).fill(-1);
  const tail: number[] = [];
  let node: number | undefined = leaf;
  while (node !== undefined && (place[node] as number) < 0) {
    tail.push(node);
    node = parentOf[node];
  }
  const at = node === undefined ? -1 : (place[node] as number);
  if (last !== undefined && tail.length === 0)
    return at === last.path.length - 1 ? last.path : last.path.slice(0, at + 1); // stays the one remembered
  // One array of the final length, filled: a long path is a large object, slow to allocate twice.
  const path = new Array<number>(at + 1 + tail.length);
  for (let k = 0; k <= at; k += 1) path[k] = (last as WalkedPath).path[k] as number;
  for (let k = 0; k < tail.length; k += 1) path[at + 1 + k] = tail[tail.length - 1 - k] as number;
  if (last !== undefined) for (let k = at + 1; k < last.path.length; k += 1) place[last.path[k] as number] = -1;
  for (let k = at + 1; k < path.length; k += 1) place[path[k] as number] = k;
  walked.set(tree, { path, place });
  return path;
}

/** Entry indices from the root down to `leaf`, or why pi could not walk it. */
export function pathToLeaf(tree: EntryTree, leaf: number): Result<readonly number[]> {
  if (tree.inCycle.size === 0) return ok(pathFromWalked(tree, leaf));
  const path: number[] = [];
  let node: number | undefined = leaf;
  while (node !== undefined) {
    if (tree.inCycle.has(node)) {
      return err(
        `the path from line ${tree.entries[leaf]?.line} to the root runs into a parent cycle at line ${tree.entries[node]?.line}; pi would loop forever`,
      );
    }
    path.push(node);
    node = tree.parentOf[node];
  }
  return ok(path.reverse());
}

/** Entries without children: the tips of every branch. */
export function leavesOf(tree: EntryTree): number[] {
  return tree.children.flatMap((kids, index) => (kids.length === 0 ? [index] : []));
}

/** Resolves "line:N" or an entry id (the last entry with that id, as pi) to an entry index. */
export function resolveEntryRef(tree: EntryTree, ref: string): Result<number> {
  const byLine = /^line:(\d+)$/.exec(ref.trim());
  if (byLine) {
    const line = Number(byLine[1]);
    const entry = tree.entries.find((e) => e.line === line);
    if (entry) return ok(entry.index);
    return err(`line ${line} holds no session entry (it is the header, blank, unreadable or past the end)`);
  }
  const index = tree.byId.get(ref);
  return index === undefined ? err(`no entry has id "${ref}"`) : ok(index);
}
