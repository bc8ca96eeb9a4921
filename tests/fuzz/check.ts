/** Assertions for the fuzz properties: a failed one throws with what was expected, which fast-check then shrinks. */
import { knownFailure, knownIssue, sourceFrame, type KnownIssue } from "./known-issues.ts";

export class PropertyFailure extends Error {
  override readonly name = "PropertyFailure";
}

export function expectThat(condition: boolean, what: string): asserts condition {
  if (condition) return;
  const known = knownFailure(what);
  throw known ? new KnownIssueHit(known) : new PropertyFailure(what);
}

/** A known issue (known-issues.ts) was met: the caller counts it and goes on with the next case. */
export class KnownIssueHit extends Error {
  override readonly name = "KnownIssueHit";
  constructor(readonly issue: KnownIssue) {
    super(`known issue ${issue.id}: ${issue.what}`);
  }
}

/** Runs `f`; an exception becomes a failure that says which stage threw on the input (or a known issue's hit). */
export function noThrow<T>(stage: string, f: () => T): T {
  try {
    return f();
  } catch (error) {
    if (error instanceof PropertyFailure || error instanceof KnownIssueHit) throw error;
    const known = knownIssue(error);
    if (known) throw new KnownIssueHit(known);
    const e = error instanceof Error ? error : new Error(String(error));
    throw new PropertyFailure(`${stage} threw ${e.name}: ${e.message} — ${sourceFrame(e)}`, { cause: e });
  }
}

/** Runs `f`, counting a known issue it meets instead of failing; true when it ran through. */
export function unlessKnown(f: () => void): boolean {
  try {
    f();
    return true;
  } catch (error) {
    if (!(error instanceof KnownIssueHit)) throw error;
    tally(`known issue: ${error.issue.id}`);
    return false;
  }
}

export async function noReject<T>(stage: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (error) {
    return noThrow(stage, () => {
      throw error;
    });
  }
}

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
const prototypeKeys = () => PROTOTYPES.map((p) => Object.getOwnPropertyNames(p).join(",")).join(";");
const PRISTINE = prototypeKeys();

/** Nothing the input said may have reached a built-in prototype (`__proto__`, `constructor` keys). */
export function expectNoPollution(): void {
  expectThat(prototypeKeys() === PRISTINE, "a built-in prototype gained or lost a property (prototype pollution)");
}

/** A `Result`'s error must say something. */
export function expectStatedError(stage: string, error: unknown): void {
  expectThat(
    typeof error === "string" && error.trim().length > 0,
    `${stage} failed without saying why: ${JSON.stringify(error)}`,
  );
}

const tallies = new Map<string, number>();

/** Counts an outcome, so a run can show what the inputs led to (how many refusals of which kind). */
export function tally(what: string): void {
  tallies.set(what, (tallies.get(what) ?? 0) + 1);
}

/** The counts since the last call, most frequent first. */
export function takeTallies(): [string, number][] {
  const out = [...tallies].sort((a, b) => b[1] - a[1]);
  tallies.clear();
  return out;
}
