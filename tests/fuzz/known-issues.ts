/**
 * Bugs the fuzzer found in code this suite does not fix itself (src/core/project, providers, tokens), each with the
 * smallest input that shows it. A known issue is not a pass: every hit is counted and printed by `npm run fuzz` as
 * "known issue: …", and only the exact failure is let through (its error, thrown from its function), so anything
 * else still fails the property. Delete an entry once its bug is fixed; the property then guards against it.
 */

export interface KnownIssue {
  readonly id: string;
  /** What goes wrong, and the smallest input that shows it. */
  readonly what: string;
  /** An exception from the code: its constructor name and message … */
  readonly error?: RegExp;
  /** … and the function (and file) it is thrown from: one of the first five frames under src/. */
  readonly frame?: RegExp;
  /** Or a property that fails without an exception: the failure's message. */
  readonly failure?: RegExp;
}

export const KNOWN_ISSUES: readonly KnownIssue[] = [];

/** The first stack frame under src/ ("at cutToolResult (/…/src/core/project/convert.ts:99:33)"). */
export function sourceFrame(error: Error): string {
  return (
    error.stack
      ?.split("\n")
      .find((l) => l.includes("/src/"))
      ?.trim() ?? "(no frame in src/)"
  );
}

/** The known issue an exception thrown by the code under test is, if any. */
export function knownIssue(error: unknown): KnownIssue | undefined {
  if (!(error instanceof Error)) return undefined;
  const frames = (error.stack ?? "").split("\n").filter((l) => l.includes("/src/"));
  const top = frames.slice(0, 5).join("\n");
  return KNOWN_ISSUES.find((k) => k.error?.test(`${error.name}: ${error.message}`) && k.frame?.test(top));
}

/** The known issue a property failure (no exception: a wrong result) is, if any. */
export function knownFailure(message: string): KnownIssue | undefined {
  return KNOWN_ISSUES.find((k) => k.failure?.test(message));
}
