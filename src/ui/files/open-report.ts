/**
 * What opening many files did, and what a restart of the session worker kept, said in one message each: every
 * file that was not opened is named, with why.
 */
import { assertNever } from "../../core/result.ts";
import type { FileKind } from "../../core/session/types.ts";
import { count, listed } from "./drop.ts";

/** How one file of an open ended. */
export type OpenOutcome =
  | { readonly kind: "opened"; readonly name: string; readonly key: string }
  /** Found in a folder and not a pi session: named for what it is, not listed. */
  | { readonly kind: "not-session"; readonly name: string; readonly fileKind: FileKind }
  | { readonly kind: "failed"; readonly name: string; readonly message: string }
  | { readonly kind: "cancelled"; readonly name: string }
  /** The session worker stopped while reading it: the restart message names it. */
  | { readonly kind: "interrupted"; readonly name: string };

export interface Report {
  readonly kind: "error" | "warning" | "info";
  readonly text: string;
  /** One line per file that was not opened (or not saved), for the person who wants all of them. */
  readonly details: readonly string[];
}

/** What a file that is not a pi session is, in a few words. */
export function describeKind(kind: FileKind): string {
  switch (kind) {
    case "pi-session":
      return "a pi session";
    case "pi-json-events":
      return "pi's --mode json output";
    case "claude-code":
      return "a Claude Code transcript";
    case "codex":
      return "a Codex CLI transcript";
    case "json-document":
      return "a JSON document";
    case "jsonl":
      return "JSON Lines without a pi session header";
    case "text":
      return "not JSON";
    case "binary":
      return "a binary file";
    case "empty":
      return "empty";
    default:
      return assertNever(kind, "file kind");
  }
}

/**
 * One message for an open of several files: how many opened, and each that did not (files the worker was reading
 * when it stopped are left to the restart message). `unsaved` are files opened but not stored for the next visit.
 */
export function describeOpened(
  outcomes: readonly OpenOutcome[],
  unsaved: { readonly names: readonly string[]; readonly reason: string } | undefined,
): Report {
  const by = <K extends OpenOutcome["kind"]>(kind: K) =>
    outcomes.filter((o): o is Extract<OpenOutcome, { kind: K }> => o.kind === kind);
  const opened = by("opened");
  const foreign = by("not-session");
  const failed = by("failed");
  const cancelled = by("cancelled");
  const interrupted = by("interrupted");
  const parts = [`Opened ${opened.length.toLocaleString("en")} of ${count(outcomes.length, "file")}`];
  if (foreign.length > 0)
    parts.push(
      `${count(foreign.length, "file")} in folders ${are(foreign.length)} not pi sessions: ${listed(foreign.map((f) => `${f.name} (${describeKind(f.fileKind)})`))}`,
    );
  if (failed.length > 0)
    parts.push(`${count(failed.length, "file")} could not be opened: ${listed(failed.map((f) => f.name))}`);
  if (cancelled.length > 0) parts.push(`${count(cancelled.length, "file")} ${are(cancelled.length)} cancelled`);
  if (interrupted.length > 0)
    parts.push(`${count(interrupted.length, "file")} ${are(interrupted.length)} being read when the worker stopped`);
  if (unsaved && unsaved.names.length > 0)
    parts.push(
      `${count(unsaved.names.length, "file")} ${are(unsaved.names.length)} not saved for the next visit (${unsaved.reason}); they stay open until you reload`,
    );
  const details = [
    ...foreign.map((f) => `${f.name}: ${describeKind(f.fileKind)}, not opened`),
    ...failed.map((f) => `${f.name}: ${f.message}`),
    ...cancelled.map((f) => `${f.name}: cancelled`),
    ...(unsaved?.names ?? []).map((name) => `${name}: not saved for the next visit`),
  ];
  const kind = failed.length > 0 ? "error" : details.length > 0 || interrupted.length > 0 ? "warning" : "info";
  return { kind, text: `${parts.join("; ")}.`, details };
}

const are = (n: number) => (n === 1 ? "was" : "were");

/**
 * After the session worker stopped and a new one read the open sessions again: "The session worker stopped while
 * reading big.jsonl (reason); big.jsonl was not loaded; the other 2 sessions were re-opened."
 */
export function describeRestart(restart: {
  readonly reason: string;
  readonly interrupted: readonly { readonly name: string }[];
  readonly reopened: number;
  readonly lost: readonly { readonly name: string; readonly why: string }[];
  readonly repeated: boolean;
  readonly running: boolean;
}): string {
  const names = restart.interrupted.map((i) => i.name);
  const reading = names.length > 0 ? ` while reading ${listed(names, 10)}` : "";
  const parts = [`The session worker stopped${reading} (${restart.reason})`];
  if (names.length === 1) parts.push(`${names[0]} was not loaded`);
  else if (names.length > 1) parts.push(`they were not loaded`);
  if (!restart.running) {
    parts.push("no new worker could be started, so no session can be shown; reload the page to try again");
    return `${parts.join("; ")}.`;
  }
  const n = restart.reopened;
  if (names.length > 0 && n > 0)
    parts.push(n === 1 ? "the other session was re-opened" : `the other ${n} sessions were re-opened`);
  else if (n > 0) parts.push(n === 1 ? "the open session was re-opened" : `the ${n} open sessions were re-opened`);
  for (const lost of restart.lost) parts.push(`${lost.name} could not be re-opened (${lost.why}) and was closed`);
  if (restart.repeated)
    parts.push("it stopped twice while working on the same view, so that view was not asked for again");
  return `${parts.join("; ")}.`;
}
