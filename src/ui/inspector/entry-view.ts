/**
 * What the inspector shows of one entry, read from its migrated JSON. Entries may be malformed (the loader keeps
 * them with a diagnostic), so every field is read defensively and anything unrecognised falls back to "generic".
 */
import { tooDeepAt } from "../../core/nesting.ts";
import { assertNever } from "../../core/result.ts";
import { tooDeepNote } from "./raw-json.ts";

type Raw = Readonly<Record<string, unknown>>;

export type ContentBlock =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "thinking"; readonly thinking: string; readonly redacted: boolean }
  | { readonly kind: "toolCall"; readonly id: string; readonly name: string; readonly arguments: unknown }
  | { readonly kind: "image"; readonly mimeType: string; readonly data: string }
  | { readonly kind: "unknown"; readonly value: unknown };

/** One labelled value of an entry ("Exit code: 1"). */
export interface Fact {
  readonly label: string;
  readonly value: string;
}

export type EntryView =
  | { readonly kind: "user"; readonly content: readonly ContentBlock[] }
  | {
      readonly kind: "assistant";
      readonly content: readonly ContentBlock[];
      readonly model: readonly Fact[];
      readonly stopReason: string | undefined;
      readonly errorMessage: string | undefined;
      readonly usage: readonly Fact[];
      readonly cost: string | undefined;
    }
  | {
      readonly kind: "toolResult";
      readonly toolName: string | undefined;
      readonly toolCallId: string | undefined;
      readonly isError: boolean;
      readonly content: readonly ContentBlock[];
    }
  | {
      readonly kind: "bashExecution";
      readonly command: string;
      readonly output: string;
      readonly facts: readonly Fact[];
      readonly excludeFromContext: boolean;
      readonly fullOutputPath: string | undefined;
    }
  | {
      readonly kind: "custom";
      readonly facts: readonly Fact[];
      readonly content: readonly ContentBlock[];
      /** The extension's own state of a `custom` entry (never sent to the model). */
      readonly data: unknown;
    }
  | { readonly kind: "summary"; readonly summary: string; readonly facts: readonly Fact[] }
  | { readonly kind: "facts"; readonly facts: readonly Fact[] }
  | { readonly kind: "generic" };

const isRecord = (value: unknown): value is Raw => typeof value === "object" && value !== null && !Array.isArray(value);
const str = (raw: Raw, key: string) => (typeof raw[key] === "string" ? raw[key] : undefined);
const num = (raw: Raw, key: string) => (typeof raw[key] === "number" ? raw[key] : undefined);
const rec = (raw: Raw, key: string): Raw => (isRecord(raw[key]) ? raw[key] : {});

/** Facts for the fields that are present, in the given order. */
function factsOf(raw: Raw, fields: readonly (readonly [key: string, label: string])[]): Fact[] {
  return fields.flatMap(([key, label]) => {
    const value = raw[key];
    if (value === undefined) return [];
    if (typeof value === "string") return [{ label, value }];
    const at = tooDeepAt(value);
    return [{ label, value: at === undefined ? JSON.stringify(value) : tooDeepNote(at) }];
  });
}

function toBlock(value: unknown): ContentBlock {
  if (!isRecord(value)) return { kind: "unknown", value };
  switch (value["type"]) {
    case "text":
      return typeof value["text"] === "string" ? { kind: "text", text: value["text"] } : { kind: "unknown", value };
    case "thinking":
      return { kind: "thinking", thinking: str(value, "thinking") ?? "", redacted: value["redacted"] === true };
    case "toolCall":
      return {
        kind: "toolCall",
        id: str(value, "id") ?? "",
        name: str(value, "name") ?? "",
        arguments: value["arguments"],
      };
    case "image":
      return typeof value["data"] === "string"
        ? { kind: "image", mimeType: str(value, "mimeType") ?? "", data: value["data"] }
        : { kind: "unknown", value };
    default:
      return { kind: "unknown", value };
  }
}

/** Content as blocks: a plain string is one text block; a missing content is no blocks. */
export function toContentBlocks(content: unknown): readonly ContentBlock[] {
  if (typeof content === "string") return [{ kind: "text", text: content }];
  return Array.isArray(content) ? content.map(toBlock) : [];
}

/** Dollars: cents for a dollar or more, else four decimals ($0.0042). */
export function formatCost(total: number): string {
  return `$${total.toFixed(total >= 1 || total === 0 ? 2 : 4)}`;
}

const USAGE_FIELDS = [
  ["input", "Input"],
  ["output", "Output"],
  ["cacheRead", "Cache read"],
  ["cacheWrite", "Cache write"],
  ["totalTokens", "Total tokens"],
] as const;

function assistantView(message: Raw): EntryView {
  const usage = rec(message, "usage");
  const total = num(rec(usage, "cost"), "total");
  return {
    kind: "assistant",
    content: toContentBlocks(message["content"]),
    model: factsOf(message, [
      ["provider", "Provider"],
      ["model", "Model"],
      ["api", "API"],
    ]),
    stopReason: str(message, "stopReason"),
    errorMessage: str(message, "errorMessage"),
    usage: USAGE_FIELDS.flatMap(([key, label]) => {
      const count = num(usage, key);
      return count === undefined ? [] : [{ label, value: count.toLocaleString("en-US") }];
    }),
    cost: total === undefined ? undefined : formatCost(total),
  };
}

function bashView(message: Raw): EntryView {
  const exitCode = message["exitCode"];
  return {
    kind: "bashExecution",
    command: str(message, "command") ?? "",
    output: str(message, "output") ?? "",
    facts: [
      { label: "Exit code", value: typeof exitCode === "number" ? String(exitCode) : "none" },
      ...(message["cancelled"] === true ? [{ label: "Cancelled", value: "yes" }] : []),
    ],
    excludeFromContext: message["excludeFromContext"] === true,
    fullOutputPath: message["truncated"] === true ? (str(message, "fullOutputPath") ?? "not recorded") : undefined,
  };
}

function customView(raw: Raw): EntryView {
  return {
    kind: "custom",
    facts: factsOf(raw, [
      ["customType", "Custom type"],
      ["display", "Display"],
    ]),
    content: toContentBlocks(raw["content"]),
    data: undefined,
  };
}

function messageView(message: Raw): EntryView {
  const role = str(message, "role");
  switch (role) {
    case "user":
      return { kind: "user", content: toContentBlocks(message["content"]) };
    case "assistant":
      return assistantView(message);
    case "toolResult":
      return {
        kind: "toolResult",
        toolName: str(message, "toolName"),
        toolCallId: str(message, "toolCallId"),
        isError: message["isError"] === true,
        content: toContentBlocks(message["content"]),
      };
    case "bashExecution":
      return bashView(message);
    case "custom":
      return customView(message);
    case "branchSummary":
      return { kind: "summary", summary: str(message, "summary") ?? "", facts: factsOf(message, [["fromId", "From"]]) };
    case "compactionSummary":
      return {
        kind: "summary",
        summary: str(message, "summary") ?? "",
        facts: factsOf(message, [["tokensBefore", "Tokens before"]]),
      };
    default:
      return { kind: "generic" };
  }
}

/** The view of an entry of any type; unknown types and roles are "generic" (shown as raw JSON only). */
export function toEntryView(type: string, raw: Raw): EntryView {
  switch (type) {
    case "message":
      return messageView(rec(raw, "message"));
    case "compaction":
      return {
        kind: "summary",
        summary: str(raw, "summary") ?? "",
        facts: factsOf(raw, [
          ["tokensBefore", "Tokens before"],
          ["firstKeptEntryId", "First kept entry"],
          ["fromHook", "From hook"],
        ]),
      };
    case "branch_summary":
      return {
        kind: "summary",
        summary: str(raw, "summary") ?? "",
        facts: factsOf(raw, [
          ["fromId", "From"],
          ["fromHook", "From hook"],
        ]),
      };
    case "custom":
      return { kind: "custom", facts: factsOf(raw, [["customType", "Custom type"]]), content: [], data: raw["data"] };
    case "custom_message":
      return customView(raw);
    case "model_change":
      return {
        kind: "facts",
        facts: factsOf(raw, [
          ["provider", "Provider"],
          ["modelId", "Model"],
        ]),
      };
    case "thinking_level_change":
      return { kind: "facts", facts: factsOf(raw, [["thinkingLevel", "Thinking level"]]) };
    case "label":
      return {
        kind: "facts",
        facts: [...factsOf(raw, [["targetId", "Target"]]), { label: "Label", value: str(raw, "label") ?? "(cleared)" }],
      };
    case "session_info":
      return { kind: "facts", facts: factsOf(raw, [["name", "Name"]]) };
    default:
      return { kind: "generic" };
  }
}

/** The role of a message entry, else the entry type: what the header calls the entry. */
export function entryKindName(type: string, raw: Raw): string {
  return type === "message" ? (str(rec(raw, "message"), "role") ?? "message") : type;
}

const blocksText = (blocks: readonly ContentBlock[]) =>
  blocks.flatMap((block) => (block.kind === "text" ? [block.text] : [])).join("\n\n");

/** The entry's readable text for "Copy text": text blocks, a summary, a command and its output; "" if none. */
export function entryText(view: EntryView): string {
  switch (view.kind) {
    case "user":
    case "assistant":
    case "toolResult":
    case "custom":
      return blocksText(view.content);
    case "bashExecution":
      return `$ ${view.command}\n${view.output}`;
    case "summary":
      return view.summary;
    case "facts":
    case "generic":
      return "";
    default:
      return assertNever(view, "entry view");
  }
}
