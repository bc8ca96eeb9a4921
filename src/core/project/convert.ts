/**
 * Stage 6: agent messages → LLM messages, as pi's `convertToLlm` plus its `blockImages` setting:
 * bash executions become user text (unless excluded with `!!`), extension messages and summaries become user
 * messages, unknown roles are left out. Records, for every input message, what became of it.
 */
import type { ImageContent, LlmMessage, TextContent } from "../llm/types.ts";
import type { AgentMessage } from "./context.ts";

export const COMPACTION_SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
export const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
export const BRANCH_SUMMARY_SUFFIX = "</summary>";
export const IMAGES_BLOCKED_TEXT = "Image reading is disabled.";

export interface ConvertOptions {
  /** pi's `images.blockImages` setting: every image becomes "Image reading is disabled.". */
  readonly blockImages?: boolean;
  /** pi honours `excludeFromContext` on bash executions (the `!!` prefix); off = send them anyway. */
  readonly honourExcludeFromContext?: boolean;
}

export type ConvertFate =
  | { readonly kind: "converted" }
  | { readonly kind: "excluded"; readonly rule: string; readonly reason: string }
  | { readonly kind: "dropped"; readonly reason: string };

export interface LlmConversion {
  readonly messages: readonly LlmMessage[];
  /** For each output message, the index of the agent message it came from. */
  readonly from: readonly number[];
  /** For each input message, what became of it. */
  readonly fates: readonly ConvertFate[];
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

const userText = (text: string, timestamp: unknown): LlmMessage =>
  ({ role: "user", content: [{ type: "text", text }], timestamp }) as LlmMessage;

function convertOne(m: AgentMessage, options: ConvertOptions): LlmMessage | ConvertFate {
  switch (m.role) {
    case "bashExecution":
      if (m["excludeFromContext"] && options.honourExcludeFromContext !== false) {
        return {
          kind: "excluded",
          rule: "exclude-from-context",
          reason: "bash command run with !! (excludeFromContext)",
        };
      }
      return userText(bashExecutionToText(m), m["timestamp"]);
    case "custom": {
      const content = typeof m["content"] === "string" ? [{ type: "text", text: m["content"] }] : m["content"];
      return { role: "user", content, timestamp: m["timestamp"] } as LlmMessage;
    }
    case "branchSummary":
      return userText(BRANCH_SUMMARY_PREFIX + String(m["summary"]) + BRANCH_SUMMARY_SUFFIX, m["timestamp"]);
    case "compactionSummary":
      return userText(COMPACTION_SUMMARY_PREFIX + String(m["summary"]) + COMPACTION_SUMMARY_SUFFIX, m["timestamp"]);
    case "user":
    case "assistant":
    case "toolResult":
      return m as unknown as LlmMessage;
    default:
      return {
        kind: "dropped",
        reason: `role ${JSON.stringify(m.role)} is not one convertToLlm knows, so pi leaves it out`,
      };
  }
}

/** pi's blockImages wrapper: images → placeholder text, consecutive placeholders collapsed. */
export function blockImages(message: LlmMessage): LlmMessage {
  if (message.role === "assistant" || !Array.isArray(message.content)) return message;
  const content = message.content as readonly (TextContent | ImageContent)[];
  if (!content.some((c) => c.type === "image")) return message;
  const mapped = content.map((c): TextContent | ImageContent =>
    c.type === "image" ? { type: "text", text: IMAGES_BLOCKED_TEXT } : c,
  );
  const isPlaceholder = (c: TextContent | ImageContent | undefined) =>
    c?.type === "text" && c.text === IMAGES_BLOCKED_TEXT;
  const deduped = mapped.filter((c, i) => !(isPlaceholder(c) && i > 0 && isPlaceholder(mapped[i - 1])));
  return { ...message, content: deduped } as LlmMessage;
}

/** pi's `convertToLlm` (and blockImages), with provenance. */
export function toLlmMessages(messages: readonly AgentMessage[], options: ConvertOptions = {}): LlmConversion {
  const out: LlmMessage[] = [];
  const from: number[] = [];
  const fates: ConvertFate[] = [];
  messages.forEach((m, index) => {
    const result = convertOne(m ?? {}, options);
    if ("kind" in result && !("role" in result)) {
      fates.push(result);
      return;
    }
    const message = result as LlmMessage;
    out.push(options.blockImages ? blockImages(message) : message);
    from.push(index);
    fates.push({ kind: "converted" });
  });
  return { messages: out, from, fates };
}
