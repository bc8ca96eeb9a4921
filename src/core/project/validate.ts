/**
 * What a provider would reject, or what looks wrong, in a projection — each finding linked to the entries behind
 * it. Runs on the converted messages (what pi hands to pi-ai), knowing what pi-ai's transform will do to them.
 */
import type { ImageContent, LlmMessage, ModelInfo, TextContent, TransformOptions } from "../llm/types.ts";
import type { Projection } from "./project.ts";
import { failedTurnReason } from "./transform.ts";
import { fieldText } from "../session/describe.ts";

export type Severity = "error" | "warning" | "info";

export interface Finding {
  readonly severity: Severity;
  readonly code:
    | "tool-call-without-result"
    | "tool-result-without-call"
    | "duplicate-tool-call-id"
    | "image-to-text-only-model"
    | "empty-message"
    | "context-window";
  readonly message: string;
  /** Entry indices the finding is about (the first is the one to show). */
  readonly entries: readonly number[];
}

export interface ValidateOptions {
  readonly transform?: TransformOptions;
  /** The payload's prompt size, when counted; checked against the model's context window. */
  readonly promptTokens?: number;
}

const hasImage = (m: LlmMessage): boolean =>
  m.role !== "assistant" && Array.isArray(m.content) && m.content.some((c) => c.type === "image");

function isEmpty(m: LlmMessage): boolean {
  if (m.role === "assistant") return m.content.length === 0;
  if (typeof m.content === "string") return m.content.trim() === "";
  const blocks = m.content as readonly (TextContent | ImageContent)[];
  return blocks.every((c) => c?.type === "text" && fieldText(c.text).trim() === "");
}

const roleName = (m: LlmMessage): string =>
  m.role === "toolResult" ? "tool result" : m.role === "assistant" ? "assistant message" : "user message";

/** Every finding for one projection, in path order. */
export function validateProjection(projection: Projection, options: ValidateOptions = {}): Finding[] {
  const findings: Finding[] = [];
  const { messages } = projection.llm;
  const source = (i: number): number => projection.llmSources[i] as number;
  const model: ModelInfo = projection.model;
  const dropFailed = options.transform?.dropFailedTurns !== false;
  const synthesize = options.transform?.synthesizeMissingResults !== false;

  // Tool calls and results pair up within one turn: from an assistant message to the next assistant or user one.
  const open = new Map<string, { entry: number; name: string }>();
  const answered = new Set<string>();
  const seenIds = new Map<string, number>();
  const closeTurn = (): void => {
    for (const [id, call] of open) {
      if (answered.has(id)) continue;
      findings.push(
        synthesize
          ? {
              severity: "warning",
              code: "tool-call-without-result",
              message: `tool call ${fieldText(call.name)} (${fieldText(id)}) has no result; pi-ai sends "No result provided" as an error result in its place`,
              entries: [call.entry],
            }
          : {
              severity: "error",
              code: "tool-call-without-result",
              message: `tool call ${fieldText(call.name)} (${fieldText(id)}) has no result, and with synthetic results switched off the provider would reject the request`,
              entries: [call.entry],
            },
      );
    }
    open.clear();
    answered.clear();
  };

  messages.forEach((m, i) => {
    if (m.role === "assistant") {
      closeTurn();
      if (dropFailed && failedTurnReason(m)) return;
      for (const block of m.content) {
        if (block.type !== "toolCall") continue;
        const earlier = seenIds.get(block.id);
        if (earlier !== undefined) {
          findings.push({
            severity: "warning",
            code: "duplicate-tool-call-id",
            message: `tool call id ${fieldText(block.id)} is used again (first by an earlier turn); providers match results by id`,
            entries: [source(i), earlier],
          });
        } else seenIds.set(block.id, source(i));
        open.set(block.id, { entry: source(i), name: block.name });
      }
    } else if (m.role === "toolResult") {
      const call = open.get(m.toolCallId);
      if (!call) {
        findings.push({
          severity: "error",
          code: "tool-result-without-call",
          message: `tool result for ${fieldText(m.toolName)} (${fieldText(m.toolCallId)}) answers no tool call of the turn before it; providers reject such a result`,
          entries: [source(i)],
        });
      }
      answered.add(m.toolCallId);
    } else {
      closeTurn();
    }
    if (hasImage(m) && !model.input.includes("image")) {
      findings.push({
        severity: "warning",
        code: "image-to-text-only-model",
        message: `an image in a ${roleName(m)} goes to ${model.provider}/${model.id}, which reads only text; pi-ai replaces it with a placeholder`,
        entries: [source(i)],
      });
    }
    if (isEmpty(m) && !(m.role === "assistant" && dropFailed && failedTurnReason(m))) {
      findings.push({
        severity: "warning",
        code: "empty-message",
        message: `empty ${roleName(m)}: some providers reject messages without content`,
        entries: [source(i)],
      });
    }
  });
  closeTurn();

  const overflow =
    options.promptTokens === undefined ? undefined : contextWindowFinding(model, projection.leaf, options.promptTokens);
  if (overflow) findings.push(overflow);
  return findings;
}

/**
 * A payload bigger than the model's context window. Separate because the prompt size is known only once the
 * tokens are counted, after the rest of the validation (the app adds it when the count arrives).
 */
export function contextWindowFinding(model: ModelInfo, leaf: number, promptTokens: number): Finding | undefined {
  if (!(model.contextWindow > 0) || promptTokens <= model.contextWindow) return undefined;
  return {
    severity: "error",
    code: "context-window",
    message: `the payload is about ${promptTokens.toLocaleString("en-US")} tokens, more than ${model.provider}/${model.id}'s context window of ${model.contextWindow.toLocaleString("en-US")}`,
    entries: [leaf],
  };
}
