/** Where the CLI writes: results to stdout, messages to stderr, never a stack trace. */
import { describeDiagnostic } from "../core/session/diagnostics.ts";
import type { EntryTree } from "../core/session/tree.ts";

export interface Output {
  line(text: string): void;
  warn(text: string): void;
  /** A loading diagnostic, already saying its file, line and severity. */
  diagnostic(text: string): void;
  error(text: string): void;
  /** Reports a failure and returns the exit code to use. */
  fail(text: string): number;
  usage(problem: string, usage: string): number;
}

export function processOutput(): Output {
  return {
    line: (text) => void process.stdout.write(`${text}\n`),
    warn: (text) => void process.stderr.write(`warning: ${text}\n`),
    diagnostic: (text) => void process.stderr.write(`${text}\n`),
    error: (text) => void process.stderr.write(`error: ${text}\n`),
    fail(text) {
      this.error(text);
      return 1;
    },
    usage(problem, usage) {
      this.error(`${problem}\nusage: npm run cli -- ${usage}`);
      return 2;
    },
  };
}

/**
 * Tells stderr what went wrong while loading; true when the file is a session that can be projected.
 * Diagnostics of a damaged but usable file are printed as warnings and the file is still used.
 */
export function reportLoad(tree: EntryTree | undefined, path: string, out: Output, readError?: string): boolean {
  if (!tree) {
    out.error(readError ?? `${path}: cannot be read`);
    return false;
  }
  if (tree.file.kind !== "pi-session") {
    out.error(`${path}: ${tree.file.kindDescription}`);
    return false;
  }
  for (const d of [...tree.file.diagnostics, ...tree.diagnostics]) {
    if (d.severity !== "info") out.diagnostic(describeDiagnostic(d, path));
  }
  return true;
}
