/** Short human descriptions of entries, shared by the CLI outline and the app's tree and search. */
import type { SessionEntry } from "./types.ts";
import { isSpace } from "../whitespace.ts";

/**
 * A field's value as text, for any JSON a file may hold there: strings as they are, other scalars as `String`
 * writes them, objects and arrays as nothing (`String` throws on `{"toString": 0}`, and "[object Object]" says nothing).
 */
export function fieldText(value: unknown): string {
  if (typeof value === "string") return value;
  return typeof value === "object" && value !== null ? "" : String(value);
}

/**
 * "PROVIDER/ID" of a model as an entry names it (a model_change, an assistant message), whatever the fields hold:
 * a field that is not a string shows as its JSON (cut short), an absent one as "?", so a malformed model is seen
 * for what it is rather than as "/" or "undefined/undefined".
 */
export function modelRefText(provider: unknown, modelId: unknown): string {
  return `${modelFieldText(provider)}/${modelFieldText(modelId)}`;
}

const MODEL_FIELD_MAX = 40;

function modelFieldText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "?";
  const json = jsonText(value);
  return json.length > MODEL_FIELD_MAX ? `${json.slice(0, MODEL_FIELD_MAX - 1)}…` : json;
}

/** Every model the session's entries name (model changes and assistant messages), in file order, each once. */
export function sessionModels(entries: readonly SessionEntry[]): string[] {
  const seen = new Set<string>();
  for (const e of entries) {
    const m = e.raw["message"] as Record<string, unknown> | undefined;
    if (e.type === "message" && m?.["role"] === "assistant") seen.add(modelRefText(m["provider"], m["model"]));
    else if (e.type === "model_change") seen.add(modelRefText(e.raw["provider"], e.raw["modelId"]));
  }
  return [...seen];
}

/** JSON of a value from the file, or "…" when it cannot be written (nested too deep for `JSON.stringify`). */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "…";
  }
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => {
      const b = (block ?? {}) as Record<string, unknown>;
      if (b["type"] === "text") return fieldText(b["text"] ?? "");
      if (b["type"] === "image") return "[image]";
      if (b["type"] === "toolCall") return `${fieldText(b["name"])}(${jsonText(b["arguments"] ?? {})})`;
      if (b["type"] === "thinking") return "";
      return "";
    })
    .filter(Boolean)
    .join(" ");
}

/** The text a person would search for in an entry (message text, tool calls, summaries, commands). */
export function entryText(entry: SessionEntry): string {
  const raw = entry.raw;
  switch (entry.type) {
    case "message": {
      const m = (raw["message"] ?? {}) as Record<string, unknown>;
      if (m["role"] === "bashExecution") return `$ ${fieldText(m["command"])}\n${fieldText(m["output"] ?? "")}`;
      if (m["role"] === "branchSummary" || m["role"] === "compactionSummary") return fieldText(m["summary"] ?? "");
      return textOf(m["content"]);
    }
    case "custom_message":
      return textOf(raw["content"]);
    case "compaction":
    case "branch_summary":
      return fieldText(raw["summary"] ?? "");
    case "model_change":
      return `${fieldText(raw["provider"])}/${fieldText(raw["modelId"])}`;
    case "thinking_level_change":
      return fieldText(raw["thinkingLevel"]);
    case "label":
      return fieldText(raw["label"] ?? "");
    case "session_info":
      return fieldText(raw["name"] ?? "");
    default:
      return "";
  }
}

/** A one-word kind for display: the role for messages, else the entry type. */
export function entryKind(entry: SessionEntry): string {
  if (entry.type !== "message") return entry.type;
  const role = (entry.raw["message"] as Record<string, unknown> | undefined)?.["role"];
  return typeof role === "string" ? role : "message";
}

/**
 * `text` on one line — `text.replace(/\s+/g, " ").trim()` — cut to `max` characters ending in "…". Reads only as
 * much of the text as the preview needs: a tool's output can be megabytes, and the tree previews every entry of a
 * session as it loads (flattening all of a generated 100 MB session's text took 0.5 s).
 */
export function preview(text: string, max = 80): string {
  let flat = "";
  let space = false; // whitespace followed some text: one space, if more text comes
  for (let i = 0; i < text.length;) {
    if (isSpace(text.charCodeAt(i))) {
      space = flat !== "";
      i += 1;
      continue;
    }
    // A run of text that is flat already (single spaces between words stay as they are), read no further
    // than the preview can show.
    const limit = i + max + 1 - flat.length;
    let end = i + 1;
    while (end < limit && end < text.length) {
      const c = text.charCodeAt(end);
      if (c === 0x20 && end + 1 < text.length && !isSpace(text.charCodeAt(end + 1))) end += 2;
      else if (isSpace(c)) break;
      else end += 1;
    }
    end = Math.min(end, limit);
    flat += space ? ` ${text.slice(i, end)}` : text.slice(i, end);
    space = false;
    if (flat.length > max) return `${flat.slice(0, max - 1)}…`;
    i = end;
  }
  return flat;
}
