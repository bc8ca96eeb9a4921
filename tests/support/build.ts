/**
 * Tiny builders for session files in tests: `session(header(), msg("a", null, "user", "hi"), …)` → JSONL text.
 * Entries are plain objects so tests can also write malformed ones.
 */
type Raw = Record<string, unknown>;

let clock = Date.parse("2026-01-01T00:00:00.000Z");
const stamp = () => new Date((clock += 1000)).toISOString();

export function header(fields: Raw = {}): Raw {
  return {
    type: "session",
    version: 3,
    id: "sess-0001",
    timestamp: "2026-01-01T00:00:00.000Z",
    cwd: "/work/demo",
    ...fields,
  };
}

export function entry(type: string, id: string | undefined, parentId: string | null, fields: Raw = {}): Raw {
  return { type, ...(id !== undefined ? { id } : {}), parentId, timestamp: stamp(), ...fields };
}

export function user(id: string, parentId: string | null, content: unknown = "hello"): Raw {
  return entry("message", id, parentId, { message: { role: "user", content, timestamp: clock } });
}

export interface AssistantOptions {
  readonly provider?: string;
  readonly model?: string;
  readonly api?: string;
  readonly stopReason?: string;
  readonly usage?: Raw;
}

export function assistant(
  id: string,
  parentId: string | null,
  content: unknown[] | string = "ok",
  o: AssistantOptions = {},
): Raw {
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : content;
  return entry("message", id, parentId, {
    message: {
      role: "assistant",
      content: blocks,
      api: o.api ?? "anthropic-messages",
      provider: o.provider ?? "anthropic",
      model: o.model ?? "claude-sonnet-4-5",
      usage: o.usage ?? {
        input: 10,
        output: 5,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 15,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: o.stopReason ?? (blocks.some((b) => (b as Raw)["type"] === "toolCall") ? "toolUse" : "stop"),
      timestamp: clock,
    },
  });
}

export const toolCall = (id: string, name = "read", args: Raw = { path: "README.md" }): Raw => ({
  type: "toolCall",
  id,
  name,
  arguments: args,
});
export const thinking = (text: string, signature?: string): Raw => ({
  type: "thinking",
  thinking: text,
  ...(signature ? { thinkingSignature: signature } : {}),
});
export const text = (t: string): Raw => ({ type: "text", text: t });
export const image = (data = "iVBORw0KGgo=", mimeType = "image/png"): Raw => ({ type: "image", data, mimeType });

export function toolResult(
  id: string,
  parentId: string | null,
  toolCallId: string,
  content: unknown[] | string = "file contents",
  isError = false,
): Raw {
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : content;
  return entry("message", id, parentId, {
    message: { role: "toolResult", toolCallId, toolName: "read", content: blocks, isError, timestamp: clock },
  });
}

export function bash(id: string, parentId: string | null, command: string, output: string, fields: Raw = {}): Raw {
  return entry("message", id, parentId, {
    message: {
      role: "bashExecution",
      command,
      output,
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: clock,
      ...fields,
    },
  });
}

export const modelChange = (id: string, parentId: string | null, provider: string, modelId: string): Raw =>
  entry("model_change", id, parentId, { provider, modelId });
export const thinkingChange = (id: string, parentId: string | null, thinkingLevel: string): Raw =>
  entry("thinking_level_change", id, parentId, { thinkingLevel });
export const compaction = (
  id: string,
  parentId: string | null,
  firstKeptEntryId: string,
  summary = "Earlier: we read the README.",
): Raw => entry("compaction", id, parentId, { summary, firstKeptEntryId, tokensBefore: 12345 });
export const branchSummary = (
  id: string,
  parentId: string | null,
  fromId: string,
  summary = "Tried approach A; it failed.",
): Raw => entry("branch_summary", id, parentId, { fromId, summary });
export const customMessage = (
  id: string,
  parentId: string | null,
  customType: string,
  content: unknown = "extension note",
  display = true,
): Raw => entry("custom_message", id, parentId, { customType, content, display });
export const label = (id: string, parentId: string | null, targetId: string, labelText: string | undefined): Raw =>
  entry("label", id, parentId, { targetId, ...(labelText !== undefined ? { label: labelText } : {}) });

/** JSONL text of the given lines; strings are written as they are (for malformed lines). */
export function session(...lines: (Raw | string)[]): string {
  return `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`;
}

/** A one-question session as a picked file (what the page's file input gives the library). */
export const pickedSession = (name: string, id: string): { file: Blob; name: string } => ({
  file: new Blob([session(header({ id }), user("u1", null, `From ${name}`))]),
  name,
});
