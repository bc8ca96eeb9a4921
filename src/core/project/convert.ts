/**
 * Stage 6: agent messages → LLM messages, as pi's `convertToLlm` plus its `blockImages` setting:
 * bash executions become user text (unless excluded with `!!`), extension messages and summaries become user
 * messages, unknown roles are left out. Records, for every input message, what became of it.
 */
import type { AssistantMessage, ImageContent, LlmMessage, TextContent, ToolResultMessage } from "../llm/types.ts";
import type { AgentMessage } from "./context.ts";
import { PerObject } from "./memo.ts";
import { NON_TEXT_KEYS, redactValue, type Redaction } from "./redact.ts";

export const COMPACTION_SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
export const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
export const BRANCH_SUMMARY_SUFFIX = "</summary>";
export const IMAGES_BLOCKED_TEXT = "Image reading is disabled.";

export type BashMode = "pi" | "exclude" | "head-tail";

export interface ConvertOptions {
  /** pi's `images.blockImages` setting: every image becomes "Image reading is disabled.". */
  readonly blockImages?: boolean;
  /** pi honours `excludeFromContext` on bash executions (the `!!` prefix); off = send them anyway. */
  readonly honourExcludeFromContext?: boolean;
  /** Bash executions: as pi, left out, or only their first/last lines with a note where the rest is. */
  readonly bash?: { readonly mode: BashMode; readonly head?: number; readonly tail?: number };
  /** Leave out every thinking block of assistant messages (pi sends them). */
  readonly dropThinking?: boolean;
  /** Cut the text of tool results longer than this many characters, saying so in the text (pi: no limit). */
  readonly truncateToolResults?: number;
  /** Replace secrets (API keys, tokens, private keys, …) in every text with a marker naming what was there. */
  readonly redactSecrets?: boolean;
  /** Where the agent message at this index came from ("line 12 of a.jsonl"), for notes that point back to it. */
  readonly locate?: (agentIndex: number) => string;
}

export type ConvertFate =
  | { readonly kind: "converted"; readonly changedBy?: readonly string[] }
  | { readonly kind: "excluded"; readonly rule: string; readonly reason: string }
  | { readonly kind: "dropped"; readonly reason: string };

export interface LlmConversion {
  readonly messages: readonly LlmMessage[];
  /** For each output message, the index of the agent message it came from. */
  readonly from: readonly number[];
  /** For each input message, what became of it. */
  readonly fates: readonly ConvertFate[];
  /** Secrets replaced by the redaction rule, with the output message they were in. */
  readonly redactions: readonly MessageRedaction[];
}

export interface MessageRedaction extends Redaction {
  /** Index into `messages`. */
  readonly message: number;
  /** Where in the message, e.g. "content[0].text". */
  readonly path: string;
}

/** pi's `bashExecutionToText`. */
export function bashExecutionToText(m: AgentMessage): string {
  let text = `Ran \`${String(m["command"])}\`\n`;
  text += m["output"] ? `\`\`\`\n${String(m["output"])}\n\`\`\`` : "(no output)";
  const exitCode = m["exitCode"];
  if (m["cancelled"]) text += "\n\n(command cancelled)";
  else if (exitCode !== null && exitCode !== undefined && exitCode !== 0)
    text += `\n\nCommand exited with code ${String(exitCode)}`;
  if (m["truncated"] && m["fullOutputPath"])
    text += `\n\n[Output truncated. Full output: ${String(m["fullOutputPath"])}]`;
  return text;
}

const cutBash = new PerObject<AgentMessage, AgentMessage>();

/** Only the first `head` and last `tail` lines of a bash output, with a note of what was left out and where it is. */
export function bashHeadTail(m: AgentMessage, head: number, tail: number, where: string): AgentMessage {
  return cutBash.get(m, `${head} ${tail} ${where}`, () => cutBashOutput(m, head, tail, where));
}

function cutBashOutput(m: AgentMessage, head: number, tail: number, where: string): AgentMessage {
  const output = m["output"];
  if (typeof output !== "string") return m;
  const lines = output.split("\n");
  if (lines.length <= head + tail) return m;
  const omitted = lines.length - head - tail;
  const full = m["truncated"] && m["fullOutputPath"] ? String(m["fullOutputPath"]) : where;
  const note = `[… ${omitted} lines left out by Context Lens; the full output is in ${full}]`;
  return { ...m, output: [...lines.slice(0, head), note, ...lines.slice(lines.length - tail)].join("\n") };
}

const truncated = new PerObject<ToolResultMessage, ToolResultMessage>();

/** The text of a tool result cut to `limit` characters, with a note saying how much was left out. */
export function truncateToolResult(message: ToolResultMessage, limit: number): ToolResultMessage {
  return truncated.get(message, limit, () => cutToolResult(message, limit));
}

/** `toLocaleString("en-US")` builds a formatter per call (µs each, for every tool result a toggle cuts). */
const THOUSANDS = new Intl.NumberFormat("en-US");

function cutToolResult(message: ToolResultMessage, limit: number): ToolResultMessage {
  const total = message.content.reduce((n, c) => n + (c.type === "text" ? c.text.length : 0), 0);
  if (total <= limit) return message;
  let budget = limit;
  const content: (TextContent | ImageContent)[] = [];
  for (const block of message.content) {
    if (block.type !== "text") {
      content.push(block);
      continue;
    }
    if (budget <= 0) continue;
    content.push(block.text.length <= budget ? block : { ...block, text: block.text.slice(0, budget) });
    budget -= block.text.length;
  }
  const note = `\n\n[Tool result truncated by Context Lens: ${THOUSANDS.format(limit)} of ${THOUSANDS.format(total)} characters kept]`;
  const last = content.findLastIndex((c) => c.type === "text");
  if (last >= 0)
    content[last] = { ...(content[last] as TextContent), text: (content[last] as TextContent).text + note };
  else content.push({ type: "text", text: note.trimStart() });
  return { ...message, content };
}

const withoutThinking = new PerObject<AssistantMessage, AssistantMessage>();

function dropThinking(message: AssistantMessage): AssistantMessage {
  return withoutThinking.get(message, undefined, () => ({
    ...message,
    content: message.content.filter((c) => c.type !== "thinking"),
  }));
}

/** Keys whose values are never prose and never hold a secret worth hiding (and are expensive to scan). */
const NOT_TEXT: readonly string[] = [...NON_TEXT_KEYS, "id", "toolCallId"];

const userText = (text: string, timestamp: unknown): LlmMessage =>
  ({ role: "user", content: [{ type: "text", text }], timestamp }) as LlmMessage;

/** The user message pi makes of a bash execution, an extension message or a summary: one per agent message. */
const asUser = new PerObject<AgentMessage, LlmMessage>();

function convertOne(m: AgentMessage, options: ConvertOptions): LlmMessage | ConvertFate {
  const made = madeMessage(m, options);
  return made === undefined ? (m as unknown as LlmMessage) : "kind" in made ? made : asUser.get(m, undefined, made);
}

/** Why `m` is left out, or how to make its user message; undefined for messages that pass unchanged. */
function madeMessage(m: AgentMessage, options: ConvertOptions): ConvertFate | (() => LlmMessage) | undefined {
  switch (m.role) {
    case "bashExecution":
      if (m["excludeFromContext"] && options.honourExcludeFromContext !== false) {
        return {
          kind: "excluded",
          rule: "exclude-from-context",
          reason: "bash command run with !! (excludeFromContext)",
        };
      }
      if (options.bash?.mode === "exclude")
        return { kind: "excluded", rule: "bash", reason: "bash executions left out by rule" };
      return () => userText(bashExecutionToText(m), m["timestamp"]);
    case "custom":
      return () => {
        const content = typeof m["content"] === "string" ? [{ type: "text", text: m["content"] }] : m["content"];
        return { role: "user", content, timestamp: m["timestamp"] } as LlmMessage;
      };
    case "branchSummary":
      return () => userText(BRANCH_SUMMARY_PREFIX + String(m["summary"]) + BRANCH_SUMMARY_SUFFIX, m["timestamp"]);
    case "compactionSummary":
      return () =>
        userText(COMPACTION_SUMMARY_PREFIX + String(m["summary"]) + COMPACTION_SUMMARY_SUFFIX, m["timestamp"]);
    case "user":
    case "assistant":
    case "toolResult":
      return undefined;
    default:
      return {
        kind: "dropped",
        reason: `role ${JSON.stringify(m.role)} is not one convertToLlm knows, so pi leaves it out`,
      };
  }
}

const imagesBlocked = new PerObject<LlmMessage, LlmMessage>();

/** pi's blockImages wrapper: images → placeholder text, consecutive placeholders collapsed. */
export function blockImages(message: LlmMessage): LlmMessage {
  if (message.role === "assistant" || !Array.isArray(message.content)) return message;
  const content = message.content as readonly (TextContent | ImageContent)[];
  if (!content.some((c) => c.type === "image")) return message;
  return imagesBlocked.get(message, undefined, () => withImagesBlocked(message, content));
}

function withImagesBlocked(message: LlmMessage, content: readonly (TextContent | ImageContent)[]): LlmMessage {
  const mapped = content.map((c): TextContent | ImageContent =>
    c.type === "image" ? { type: "text", text: IMAGES_BLOCKED_TEXT } : c,
  );
  const isPlaceholder = (c: TextContent | ImageContent | undefined) =>
    c?.type === "text" && c.text === IMAGES_BLOCKED_TEXT;
  const deduped = mapped.filter((c, i) => !(isPlaceholder(c) && i > 0 && isPlaceholder(mapped[i - 1])));
  return { ...message, content: deduped } as LlmMessage;
}

/**
 * The convert-stage rules beyond pi's own, applied to one converted message; the rules that changed it are added
 * to `changedBy`.
 */
function applyRules(message: LlmMessage, options: ConvertOptions, changedBy: string[]): LlmMessage {
  let out = message;
  if (options.blockImages) {
    const blocked = blockImages(out);
    if (blocked !== out) changedBy.push("block-images");
    out = blocked;
  }
  if (options.dropThinking && out.role === "assistant" && out.content.some((c) => c.type === "thinking")) {
    out = dropThinking(out);
    changedBy.push("drop-thinking");
  }
  if (options.truncateToolResults !== undefined && out.role === "toolResult") {
    const cut = truncateToolResult(out, options.truncateToolResults);
    if (cut !== out) changedBy.push("truncate-tool-results");
    out = cut;
  }
  return out;
}

/**
 * The fate of every message no rule changed: one shared object, not one per message and projection (objects that
 * live as long as a projection, made by an object literal, V8 learns to allocate in its old generation, where
 * each later projection's copies pile up until a full collection: see CountedItem in tokens/count.ts).
 */
const CONVERTED: ConvertFate = Object.freeze({ kind: "converted" });

/** Each message with its secrets redacted: the detectors read every character, once per message is enough. */
const redactedMessages = new PerObject<LlmMessage, ReturnType<typeof redactValue<LlmMessage>>>();

/** pi's `convertToLlm` (and blockImages), with provenance, plus the convert-stage what-if rules. */
export function toLlmMessages(messages: readonly AgentMessage[], options: ConvertOptions = {}): LlmConversion {
  const out: LlmMessage[] = [];
  const from: number[] = [];
  const fates: ConvertFate[] = [];
  const redactions: MessageRedaction[] = [];
  const changedBy: string[] = [];
  messages.forEach((m, index) => {
    let agent = m ?? {};
    changedBy.length = 0;
    if (agent.role === "bashExecution" && options.bash?.mode === "head-tail") {
      const cut = bashHeadTail(
        agent,
        options.bash.head ?? 20,
        options.bash.tail ?? 20,
        options.locate?.(index) ?? "the session file",
      );
      if (cut !== agent) changedBy.push("bash");
      agent = cut;
    }
    const result = convertOne(agent, options);
    if ("kind" in result && !("role" in result)) {
      fates.push(result);
      return;
    }
    let message = applyRules(result as LlmMessage, options, changedBy);
    if (options.redactSecrets) {
      const redacted = redactedMessages.get(message, undefined, () => redactValue(message, { skipKeys: NOT_TEXT }));
      if (redacted.redactions.length > 0) {
        message = redacted.value;
        changedBy.push("redact-secrets");
        for (const r of redacted.redactions) redactions.push({ ...r, message: out.length });
      }
    }
    out.push(message);
    from.push(index);
    fates.push(changedBy.length > 0 ? { kind: "converted", changedBy: [...changedBy] } : CONVERTED);
  });
  return { messages: out, from, fates, redactions };
}
