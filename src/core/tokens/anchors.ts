/**
 * The recorded requests a token estimate is anchored on: for an entry and a model, the latest recorded turn of
 * that model on the path to the entry not across a compaction, the earliest one since the last resume (a long
 * pause between two entries) and the earliest one at all.
 *
 * Kept per session and model for every entry asked about, each filled from its parent's: asking for the
 * requests along one path costs each entry once. Walking every request's path to the root instead made a cache
 * series quadratic (each of the 20,678 requests on the path of a 100 MB session walked up to 50,000 entries, over
 * half of the series' time).
 */
import { entryTime } from "../session/times.ts";
import type { EntryTree } from "../session/tree.ts";
import { recordedTurns, type RecordedTurn } from "./turns.ts";

export interface Anchors {
  /** The latest recorded turn of the model on the path, not across a compaction. */
  readonly previous: RecordedTurn | undefined;
  /** The earliest one since the last resume on the path. */
  readonly sinceResume: RecordedTurn | undefined;
  /** The earliest one on the path. */
  readonly atAll: RecordedTurn | undefined;
}

/**
 * A pause this long between two entries on a path is taken for a resume: pi was restarted, and its system prompt
 * (which holds the date, AGENTS.md, the tools) may have changed.
 */
export const RESUME_GAP_MS = 30 * 60 * 1000;

/** Whether the pause from `entry`'s parent to `entry` is a resume. */
export function resumedAt(tree: EntryTree, entry: number): boolean {
  const parent = tree.parentOf[entry];
  return parent !== undefined && entryTime(tree, entry) - entryTime(tree, parent) > RESUME_GAP_MS;
}

/** Not filled yet; NONE = no such turn (the others are positions in the session's recorded turns). */
const UNKNOWN = -2;
const NONE = -1;

/** One model's anchors for every entry filled so far: positions in `turns`, or NONE. */
interface Table {
  readonly previous: Int32Array;
  readonly sinceResume: Int32Array;
  readonly atAll: Int32Array;
}

interface SessionAnchors {
  readonly turns: readonly RecordedTurn[];
  /** Entry index → its position in `turns`, or NONE. */
  readonly turnAt: Int32Array;
  /** By "provider/id", the most recently used last. */
  readonly tables: Map<string, Table>;
}

/** A few models per session (the session's own, a comparison's): 12 bytes per entry each. */
const TABLES_PER_SESSION = 4;

const sessions = new WeakMap<EntryTree, SessionAnchors>();

function sessionAnchors(tree: EntryTree): SessionAnchors {
  let known = sessions.get(tree);
  if (known === undefined) {
    const turns = recordedTurns(tree);
    const turnAt = new Int32Array(tree.entries.length).fill(NONE);
    turns.forEach((turn, position) => (turnAt[turn.entry] = position));
    known = { turns, turnAt, tables: new Map() };
    sessions.set(tree, known);
  }
  return known;
}

/** The session's recorded turns (the same array on every call: never mutate it). */
export function sessionTurns(tree: EntryTree): readonly RecordedTurn[] {
  return sessionAnchors(tree).turns;
}

/** The position in `sessionTurns` of the turn recorded at `entry`, if any. */
export function turnPosition(tree: EntryTree, entry: number): number | undefined {
  const position = sessionAnchors(tree).turnAt[entry];
  return position === undefined || position === NONE ? undefined : position;
}

/** The recorded turn made at `entry` to `provider`/`modelId`, if any. */
export function turnOfModel(
  tree: EntryTree,
  entry: number,
  provider: string,
  modelId: string,
): RecordedTurn | undefined {
  const { turns, turnAt } = sessionAnchors(tree);
  const turn = turns[turnAt[entry] ?? NONE];
  return turn && turn.provider === provider && turn.modelId === modelId ? turn : undefined;
}

function tableOf(tree: EntryTree, session: SessionAnchors, provider: string, modelId: string): Table {
  const key = `${provider}/${modelId}`;
  let table = session.tables.get(key);
  if (table !== undefined) {
    session.tables.delete(key); // used again: it goes last
  } else {
    const n = tree.entries.length;
    table = {
      previous: new Int32Array(n).fill(UNKNOWN),
      sinceResume: new Int32Array(n).fill(UNKNOWN),
      atAll: new Int32Array(n).fill(UNKNOWN),
    };
    for (const oldest of session.tables.keys()) {
      if (session.tables.size < TABLES_PER_SESSION) break;
      session.tables.delete(oldest);
    }
  }
  session.tables.set(key, table);
  return table;
}

/**
 * Fills the table for `entry` and every ancestor not filled yet, root first. For an entry with parent p:
 * the earliest at all is p's, else the entry's own turn; the earliest since the resume restarts at the entry
 * when the pause from p is a resume; the latest is the entry's own turn, none at a compaction, else p's.
 * False, filling nothing, when the path to `entry` runs into a parent cycle: it has no root, and pi could not walk it.
 */
function fill(
  tree: EntryTree,
  session: SessionAnchors,
  table: Table,
  entry: number,
  provider: string,
  modelId: string,
): boolean {
  const unfilled: number[] = [];
  const cycles = tree.inCycle.size > 0;
  for (let node: number | undefined = entry; node !== undefined && table.atAll[node] === UNKNOWN;) {
    if (cycles && tree.inCycle.has(node)) return false;
    unfilled.push(node);
    node = tree.parentOf[node];
  }
  for (let k = unfilled.length - 1; k >= 0; k -= 1) {
    const node = unfilled[k] as number;
    const parent = tree.parentOf[node];
    const position = session.turnAt[node] as number;
    const turn = session.turns[position];
    const own = turn && turn.provider === provider && turn.modelId === modelId ? position : NONE;
    if (parent === undefined) {
      table.atAll[node] = table.sinceResume[node] = table.previous[node] = own;
      continue;
    }
    const before = table.atAll[parent] as number;
    table.atAll[node] = before !== NONE ? before : own;
    const since = table.sinceResume[parent] as number;
    table.sinceResume[node] = since === NONE || resumedAt(tree, node) ? own : since;
    table.previous[node] =
      own !== NONE ? own : tree.entries[node]?.type === "compaction" ? NONE : (table.previous[parent] as number);
  }
  return true;
}

const NO_ANCHORS: Anchors = Object.freeze({ previous: undefined, sinceResume: undefined, atAll: undefined });

/**
 * The anchors on the path to `entry` (the entry included) for `provider`/`modelId`; none on a path that runs into a
 * parent cycle (a turn recorded below one, whose request cannot be rebuilt).
 */
export function anchorsAt(tree: EntryTree, entry: number, provider: string, modelId: string): Anchors {
  const session = sessionAnchors(tree);
  const table = tableOf(tree, session, provider, modelId);
  if (!fill(tree, session, table, entry, provider, modelId)) return NO_ANCHORS;
  const at = (positions: Int32Array) => session.turns[positions[entry] as number];
  return { previous: at(table.previous), sinceResume: at(table.sinceResume), atAll: at(table.atAll) };
}
