/** The loaded session: what stages 1–3 (parse, validate, migrate) produce and every later stage reads. */
import type { Diagnostic } from "./diagnostics.ts";
import type { LineStats } from "./lines.ts";

/** The header line. Only `type` and `id` are checked before a file is taken for a session: the rest is as the file has it. */
export interface SessionHeader {
  readonly type: "session";
  readonly version?: unknown;
  readonly id: string;
  readonly timestamp?: unknown;
  readonly cwd?: unknown;
  readonly parentSession?: unknown;
  readonly [key: string]: unknown;
}

/** One entry of the file after migration, exactly the object pi would hold, plus where it came from. */
export interface SessionEntry {
  /** 1-based line in the file. */
  readonly line: number;
  /** Position among the session's entries (header excluded), in file order. */
  readonly index: number;
  /** The entry's id; undefined only for a v3 entry that has none (reported). */
  readonly id: string | undefined;
  readonly parentId: string | null | undefined;
  readonly type: string;
  /** The migrated JSON object; never mutated after loading. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** What a file turned out to be. Only "pi-session" has entries to project. */
export type FileKind =
  "pi-session" | "pi-json-events" | "claude-code" | "codex" | "json-document" | "jsonl" | "text" | "binary" | "empty";

export interface SessionFile {
  readonly name: string;
  readonly kind: FileKind;
  /** One sentence naming the file's kind for people ("pi --mode json event output, not a session file"). */
  readonly kindDescription: string;
  readonly header: SessionHeader | undefined;
  /** The header's line in the file (1 unless blank or unreadable lines come first). */
  readonly headerLine: number | undefined;
  /** The file's own version (before migration); 1 when the header has none. */
  readonly version: number;
  readonly entries: readonly SessionEntry[];
  readonly diagnostics: readonly Diagnostic[];
  readonly stats: LineStats;
}
