/** Recognises what a file is, so a file that is not a pi session is named for what it looks like. */
import type { LineStats } from "./lines.ts";
import type { FileKind } from "./types.ts";

interface Classified {
  readonly kind: FileKind;
  readonly description: string;
}

const PI_EVENT_TYPES = new Set([
  "agent_start",
  "agent_end",
  "turn_start",
  "turn_end",
  "message_start",
  "message_update",
  "message_end",
  "tool_execution_start",
  "tool_execution_update",
  "tool_execution_end",
  "auto_compaction_start",
  "auto_compaction_end",
  "auto_retry_start",
  "auto_retry_end",
]);
const CLAUDE_CODE_TYPES = new Set(["user", "assistant", "summary", "system", "file-history-snapshot"]);
const CODEX_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);

/** True for the first line pi accepts as a session header: `type: "session"` with a string `id`. */
export function isPiHeader(value: unknown): boolean {
  return isObject(value) && value["type"] === "session" && typeof value["id"] === "string";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeOf(value: unknown): unknown {
  return isObject(value) ? value["type"] : undefined;
}

function share(values: readonly { value: unknown }[], test: (value: unknown) => boolean): number {
  if (values.length === 0) return 0;
  let hits = 0;
  for (const v of values) if (test(v.value)) hits += 1;
  return hits / values.length;
}

export function classifyFile(
  values: readonly { readonly line: number; readonly value: unknown }[],
  stats: LineStats,
  blankLines: number,
): Classified {
  if (stats.nulBytes)
    return { kind: "binary", description: "This is a binary file, not a pi session (JSON Lines text)." };
  if (stats.bytes === 0 || (values.length === 0 && stats.lines === 0)) {
    return { kind: "empty", description: "The file is empty: there is no session header and no entries." };
  }
  if (values.length === 0 && blankLines === stats.lines)
    return {
      kind: "empty",
      description: "The file holds only blank lines: there is no session header and no entries.",
    };
  if (values.length === 0) return classifyUnparsed(stats);
  const first = values[0]?.value;
  const rest = values.slice(1, 200);
  if (isPiHeader(first)) {
    if (rest.length > 0 && share(rest, (v) => PI_EVENT_TYPES.has(typeOf(v) as string)) > 0.5) {
      return {
        kind: "pi-json-events",
        description:
          "This is pi's `--mode json` event output (agent_start, message_update, …), not a session file. Open the session file from ~/.pi/agent/sessions instead.",
      };
    }
    return { kind: "pi-session", description: "A pi session file." };
  }
  return classifyForeign(values.slice(0, 200), first);
}

function classifyUnparsed(stats: LineStats): Classified {
  if (stats.lines > 1) {
    return {
      kind: "json-document",
      description:
        "No line of this file is a JSON value on its own: it looks like a pretty-printed JSON document or plain text, not a pi session (JSON Lines).",
    };
  }
  return { kind: "text", description: "This file is not JSON, so it is not a pi session." };
}

function classifyForeign(sample: readonly { value: unknown }[], first: unknown): Classified {
  const has = (key: string) => share(sample, (v) => isObject(v) && key in v) > 0.5;
  if (
    share(sample, (v) => CLAUDE_CODE_TYPES.has(typeOf(v) as string)) > 0.5 &&
    (has("uuid") || has("sessionId") || has("parentUuid"))
  ) {
    return {
      kind: "claude-code",
      description: "This is a Claude Code transcript (entries with uuid/parentUuid), not a pi session.",
    };
  }
  if (
    share(sample, (v) => CODEX_TYPES.has(typeOf(v) as string)) > 0.5 ||
    (isObject(first) && "instructions" in first && !("type" in first))
  ) {
    return {
      kind: "codex",
      description: "This is an OpenAI Codex CLI transcript (session_meta/response_item lines), not a pi session.",
    };
  }
  if (sample.length === 1) {
    return {
      kind: "json-document",
      description:
        'This is a single JSON value, not a pi session: a session starts with a header line {"type":"session","id":…}.',
    };
  }
  return {
    kind: "jsonl",
    description:
      'This is JSON Lines, but its first line is not a pi session header ({"type":"session","id":…}); pi would not load it.',
  };
}
