/**
 * Measuring the estimators on recorded sessions: the samples (turns and replies), error statistics, and the
 * error on one session that calibrated figures show. Fitting lives in fit.ts.
 */
import type { EntryTree } from "../session/tree.ts";
import type { TokenCounter } from "./count.ts";
import { sessionTurns } from "./anchors.ts";
import {
  estimateFromFeatures,
  someTurnFeatures,
  type CoefficientsFor,
  type TurnEstimate,
  type TurnFeatures,
} from "./estimate.ts";
import { familyOf, familyVocabulary, type FamilyId } from "./family.ts";
import { renderArguments } from "./text.ts";
import { assistantOf } from "./turns.ts";
import { recordedRequest } from "./usage.ts";
import { fieldText } from "../session/describe.ts";

/** One session's turns, with the group (repository) it is held out by and what its replies cost. */
export interface SessionSample {
  readonly name: string;
  readonly group: string;
  readonly turns: readonly TurnFeatures[];
  readonly replies: readonly ReplySample[];
  /**
   * Features by position in the session's recorded turns, those of `turns`' anchors among them, when `turns` are
   * not all of the session's turns (`someTurnFeatures`); else the anchors are read from `turns` by position.
   */
  readonly anchors?: ReadonlyMap<number, TurnFeatures>;
}

/** An assistant message that replays thinking: what it cost to write, and what of it we can see. */
export interface ReplySample {
  readonly family: FamilyId;
  readonly output: number;
  /** Tokens (family vocabulary) of its text and tool calls. */
  readonly visible: number;
  /** Tokens (family vocabulary) of its visible thinking text. */
  readonly thinking: number;
  /** Characters of encrypted reasoning it carries. */
  readonly opaque: number;
}

export interface ErrorStats {
  readonly turns: number;
  /** Median absolute relative error (0.01 = 1%). */
  readonly median: number;
  readonly p90: number;
  /** The session's recorded turns, when the statistics are over the spread of them `measuredTurns` picks. */
  readonly of?: number;
}

export function errorStats(errors: readonly number[]): ErrorStats {
  const sorted = [...errors].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number) : Number.NaN;
  return { turns: sorted.length, median: at(0.5), p90: at(0.9) };
}

export interface TurnError {
  readonly family: FamilyId;
  readonly session: string;
  readonly estimate: TurnEstimate;
  readonly standalone: number | undefined;
  readonly anchored: number | undefined;
}

const relative = (estimate: number | null, actual: number): number | undefined =>
  estimate === null ? undefined : Math.abs(estimate - actual) / actual;

/** Errors of both estimators on every turn of some sessions. */
export function turnErrors(sessions: readonly SessionSample[], coefficientsFor?: CoefficientsFor): TurnError[] {
  return sessions.flatMap((session) =>
    estimateFromFeatures(session.turns, coefficientsFor, session.anchors).map((estimate, k) => ({
      family: (session.turns[k] as TurnFeatures).family,
      session: session.name,
      estimate,
      standalone: relative(estimate.standalone, estimate.actual),
      anchored: relative(estimate.anchored, estimate.actual),
    })),
  );
}

export interface AccuracyReport {
  readonly standalone: ErrorStats;
  readonly anchored: ErrorStats;
  readonly byFamily: Readonly<Partial<Record<FamilyId, { standalone: ErrorStats; anchored: ErrorStats }>>>;
}

export function summarize(errors: readonly TurnError[]): AccuracyReport {
  const pick = (list: readonly TurnError[], kind: "standalone" | "anchored") =>
    errorStats(list.flatMap((e) => (e[kind] === undefined ? [] : [e[kind]])));
  const byFamily: Partial<Record<FamilyId, { standalone: ErrorStats; anchored: ErrorStats }>> = {};
  for (const family of new Set(errors.map((e) => e.family))) {
    const list = errors.filter((e) => e.family === family);
    byFamily[family] = { standalone: pick(list, "standalone"), anchored: pick(list, "anchored") };
  }
  return { standalone: pick(errors, "standalone"), anchored: pick(errors, "anchored"), byFamily };
}

/* ---------- samples ---------- */

/** Shorter signatures are names or ids (pi keeps "reasoning_content" there for some APIs), not encrypted reasoning. */
const MIN_OPAQUE_CHARS = 100;

/** Length of the encrypted reasoning a thinking signature carries (OpenAI keeps a JSON reasoning item there). */
function opaqueLength(signature: unknown): number {
  if (typeof signature !== "string" || signature.length < MIN_OPAQUE_CHARS) return 0;
  if (signature.startsWith("{")) {
    try {
      const item = JSON.parse(signature) as { encrypted_content?: unknown };
      if (typeof item.encrypted_content === "string") return item.encrypted_content.length;
    } catch {
      // not JSON after all: an opaque signature
    }
  }
  return signature.length;
}

/** Every assistant message with thinking and a usable recorded output: what replaying thinking costs. */
export function replySamples(tree: EntryTree, counter: TokenCounter): ReplySample[] {
  const samples: ReplySample[] = [];
  for (const entry of tree.entries) {
    const message = assistantOf(tree, entry.index);
    if (!message || !Array.isArray(message["content"])) continue;
    const recorded = recordedRequest(message, entry.raw["timestamp"]);
    if (!recorded.ok || recorded.output <= 0) continue;
    const family = familyOf(fieldText(message["model"]), fieldText(message["provider"])).id;
    const visible: string[] = [];
    const thinking: string[] = [];
    let opaque = 0;
    let hasThinking = false;
    for (const block of message["content"] as Record<string, unknown>[]) {
      if (block?.["type"] === "text" && typeof block["text"] === "string") visible.push(block["text"]);
      else if (block?.["type"] === "toolCall")
        visible.push(fieldText(block["name"]), renderArguments(block["arguments"]));
      else if (block?.["type"] === "thinking") {
        hasThinking = true;
        if (!block["redacted"] && typeof block["thinking"] === "string") thinking.push(block["thinking"]);
        opaque += opaqueLength(block["thinkingSignature"]);
      }
    }
    if (!hasThinking) continue;
    const vocabulary = [familyVocabulary(family)];
    samples.push({
      family,
      output: recorded.output,
      visible: counter.count(visible, vocabulary)[vocabulary[0]!] ?? 0,
      thinking: counter.count(thinking, vocabulary)[vocabulary[0]!] ?? 0,
      opaque,
    });
  }
  return samples;
}

/**
 * At most this many of a session's recorded turns are measured for its "measured error", in the app and the CLI
 * alike: each turn projects and counts its own request, so all 20,861 turns of a 100 MB session took the CLI
 * two and a half minutes.
 */
export const MEASURED_TURNS = 120;

/** Positions of the recorded turns measured: all of them up to `MEASURED_TURNS`, else that many spread evenly. */
export function measuredTurns(recorded: number): number[] {
  if (recorded <= MEASURED_TURNS) return Array.from({ length: recorded }, (_, i) => i);
  return Array.from({ length: MEASURED_TURNS }, (_, i) => Math.round((i * (recorded - 1)) / (MEASURED_TURNS - 1)));
}

/** `report` of the turns `measuredTurns(recorded)` picked, saying so when they are not all of them. */
export function measuredReport(report: AccuracyReport, recorded: number): AccuracyReport {
  if (recorded <= MEASURED_TURNS) return report;
  const of = (stats: ErrorStats): ErrorStats => ({ ...stats, of: recorded });
  const byFamily: AccuracyReport["byFamily"] = Object.fromEntries(
    Object.entries(report.byFamily).map(([family, e]) => [
      family,
      { standalone: of(e.standalone), anchored: of(e.anchored) },
    ]),
  );
  return { standalone: of(report.standalone), anchored: of(report.anchored), byFamily };
}

/**
 * How far both estimators come on one session's own recorded requests (the "measured error" of its figures),
 * over the turns `measuredTurns` picks.
 */
export function sessionAccuracy(tree: EntryTree, counter: TokenCounter): AccuracyReport {
  const recorded = sessionTurns(tree).length;
  const { turns, anchors } = someTurnFeatures(tree, counter, measuredTurns(recorded));
  return measuredReport(
    summarize(turnErrors([{ name: tree.file.name, group: tree.file.name, turns, replies: [], anchors }])),
    recorded,
  );
}
