/** Every problem found while loading a session: what is wrong and where, never a silent skip. */

export type Severity = "error" | "warning" | "info";

export type DiagnosticCode =
  | "bom"
  | "crlf"
  | "not-json"
  | "not-object"
  | "multiple-values"
  | "truncated-line"
  | "missing-header"
  | "header-not-first"
  | "newer-version"
  | "invalid-header"
  | "invalid-entry"
  | "unknown-entry-type"
  | "unknown-role"
  | "unknown-field"
  | "missing-id"
  | "duplicate-id"
  | "missing-parent"
  | "parent-cycle"
  | "invalid-utf8"
  | "long-line"
  | "line-too-long"
  | "binary"
  | "empty-file"
  | "not-a-session"
  | "nested-too-deep";

export interface Diagnostic {
  readonly severity: Severity;
  readonly code: DiagnosticCode;
  /** 1-based line number in the file, when the problem belongs to one line. */
  readonly line?: number;
  readonly entryId?: string;
  readonly message: string;
}

export function describeDiagnostic(d: Diagnostic, file?: string): string {
  const where = [file, d.line !== undefined ? `line ${d.line}` : undefined].filter(Boolean).join(":");
  return `${where ? `${where}: ` : ""}${d.severity}: ${d.message}`;
}
