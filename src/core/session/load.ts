/**
 * Stages 1–3 together: bytes → lines → JSON values → a validated, migrated `SessionFile`.
 * Incremental: feed chunks with `push`, then `finish`. Nothing is dropped without a diagnostic.
 */
import type { Diagnostic } from "./diagnostics.ts";
import { MAX_NESTING, tooDeepAt } from "../nesting.ts";
import { parseJsonLine } from "./json-line.ts";
import { LineSplitter, MAX_LINE_CHARS, type LineLimits, type LineStats, type LongLine, type RawLine } from "./lines.ts";
import { classifyFile, isPiHeader } from "./kind.ts";
import { migrateEntries, CURRENT_VERSION } from "./migrate.ts";
import { checkHeader } from "./schema.ts";
import { validateEntries } from "./validate.ts";
import type { SessionFile, SessionHeader } from "./types.ts";

/** A line that held one JSON value, as pi's reader would have kept it. */
export interface ParsedValue {
  readonly line: number;
  readonly value: unknown;
}

export class SessionLoader {
  readonly #name: string;
  readonly #values: ParsedValue[] = [];
  readonly #diagnostics: Diagnostic[] = [];
  readonly #splitter: LineSplitter;
  readonly #maxLineChars: number;
  #blankLines = 0;

  /** `limits` are for tests; files are read with the splitter's defaults. */
  constructor(name: string, limits: LineLimits = {}) {
    this.#name = name;
    this.#splitter = new LineSplitter((line) => this.#acceptLine(line), limits);
    this.#maxLineChars = limits.maxChars ?? MAX_LINE_CHARS;
  }

  /** Number of JSON values read so far (for progress). */
  get valueCount(): number {
    return this.#values.length;
  }

  push(chunk: Uint8Array): void {
    this.#splitter.push(chunk);
  }

  pushText(text: string): void {
    this.#splitter.pushText(text);
  }

  finish(): SessionFile {
    const stats = this.#splitter.end();
    const diagnostics = [...fileDiagnostics(stats, this.#maxLineChars), ...this.#diagnostics];
    return buildSessionFile(this.#name, this.#values, diagnostics, stats, this.#blankLines);
  }

  #acceptLine(line: RawLine): void {
    if (line.skipped) return; // too long to hold: reported from the line stats
    const parsed = parseJsonLine(line.text);
    switch (parsed.kind) {
      case "blank":
        this.#blankLines += 1;
        return;
      case "value": {
        this.#values.push({ line: line.number, value: parsed.value });
        const at = line.text.length > 2 * MAX_NESTING ? tooDeepAt(parsed.value) : undefined;
        if (at !== undefined)
          this.#diagnostics.push({
            severity: "warning",
            code: "nested-too-deep",
            line: line.number,
            message:
              `Line ${line.number} nests arrays or objects more than ${MAX_NESTING.toLocaleString("en")} levels deep ` +
              `(at ${at}). pi reads it, but JSON cannot be written that deep, so pi could not send it to a model: ` +
              "paths whose context holds it get no payload, and its JSON is not shown.",
          });
        return;
      }
      case "multiple-values":
        this.#report(
          line.number,
          "multiple-values",
          `holds ${parsed.count} JSON objects on one line; pi skips the whole line, so none of them is loaded`,
        );
        return;
      case "incomplete":
        if (line.unterminated)
          this.#report(
            line.number,
            "truncated-line",
            "is cut off at the end of the file (an interrupted write?); pi skips it",
          );
        else
          this.#report(
            line.number,
            "not-json",
            `is not JSON: its object is never closed (${parsed.reason}); pi skips it`,
          );
        return;
      case "not-json":
        this.#report(line.number, "not-json", `is not JSON (${parsed.reason}); pi skips it`);
        return;
    }
  }

  #report(line: number, code: Diagnostic["code"], what: string): void {
    this.#diagnostics.push({
      severity: "error",
      code,
      line,
      message: `Line ${line} ${what}. The rest of the file was loaded.`,
    });
  }
}

function fileDiagnostics(stats: LineStats, maxLineChars: number): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (stats.bom)
    out.push({
      severity: "info",
      code: "bom",
      line: 1,
      message: "The file starts with a UTF-8 byte-order mark; it was ignored, as pi does.",
    });
  if (stats.crlfLines > 0) {
    out.push({
      severity: "info",
      code: "crlf",
      message: `${stats.crlfLines} line(s) end in CRLF (Windows line endings); read as plain line ends, as pi does.`,
    });
  }
  for (const long of stats.longLines) out.push(describeLongLine(long, maxLineChars));
  if (stats.invalidUtf8)
    out.push({
      severity: "warning",
      code: "invalid-utf8",
      message: "The file holds bytes that are not valid UTF-8; they were read as U+FFFD.",
    });
  return out;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const characters = (n: number) => (n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} M` : n.toLocaleString("en"));

function describeLongLine({ line, bytes, skipped }: LongLine, maxLineChars: number): Diagnostic {
  return skipped
    ? {
        severity: "error",
        code: "line-too-long",
        line,
        message: `Line ${line} is ${megabytes(bytes)} long, more than the ${characters(maxLineChars)} characters Context Lens reads in one line; it was skipped, so its entry is missing. The rest of the file was loaded.`,
      }
    : {
        severity: "info",
        code: "long-line",
        line,
        message: `Line ${line} is ${megabytes(bytes)} long; it was loaded in full.`,
      };
}

/** Turns the JSON values of a file into a SessionFile: header, migrated entries, diagnostics. */
export function buildSessionFile(
  name: string,
  values: readonly ParsedValue[],
  diagnostics: Diagnostic[],
  stats: LineStats,
  blankLines: number,
): SessionFile {
  const kind = classifyFile(values, stats, blankLines);
  const first = values[0];
  if (kind.kind !== "pi-session" || !first || !isPiHeader(first.value)) {
    diagnostics.unshift({
      severity: "error",
      code: kind.kind === "empty" ? "empty-file" : "not-a-session",
      message: kind.description,
    });
    return {
      name,
      kind: kind.kind,
      kindDescription: kind.description,
      header: undefined,
      headerLine: undefined,
      version: 0,
      entries: [],
      diagnostics,
      stats,
    };
  }
  const header = first.value as SessionHeader;
  const version = typeof header.version === "number" ? header.version : 1;
  if (version > CURRENT_VERSION) {
    diagnostics.push({
      severity: "warning",
      code: "newer-version",
      line: first.line,
      message: `The header says session version ${version}; this tool knows pi's version ${CURRENT_VERSION}. It was loaded as version ${CURRENT_VERSION}; newer fields are kept but may be shown as unknown.`,
    });
  }
  const headerIssues = checkHeader(header);
  if (headerIssues.length > 0) {
    diagnostics.push({
      severity: "warning",
      code: "invalid-header",
      line: first.line,
      message: `Line ${first.line} (the session header) does not match pi's schema: ${headerIssues.map((i) => `${i.path || "(header)"}: ${i.message}`).join("; ")}. It was read as it is.`,
    });
  }
  const entries = migrateEntries(values, header, version, diagnostics);
  validateEntries(entries, diagnostics);
  return {
    name,
    kind: "pi-session",
    kindDescription: kind.description,
    header,
    headerLine: first.line,
    version,
    entries,
    diagnostics,
    stats,
  };
}

/** Loads a whole session held in memory (CLI, tests). The app streams through `SessionLoader` instead. */
export function loadSessionText(name: string, text: string): SessionFile {
  const loader = new SessionLoader(name);
  loader.pushText(text);
  return loader.finish();
}

export function loadSessionBytes(name: string, bytes: Uint8Array, chunkSize = 32 * 1024 * 1024): SessionFile {
  const loader = new SessionLoader(name);
  for (let offset = 0; offset < bytes.byteLength; offset += chunkSize) {
    loader.push(bytes.subarray(offset, offset + chunkSize));
  }
  return loader.finish();
}
