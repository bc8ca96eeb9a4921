/**
 * The recorded requests of a session — every assistant turn whose usage measures the prompt it was sent —
 * and the request context behind each one.
 */
import type { ModelInfo } from "../llm/types.ts";
import { findModel } from "../models/registry.ts";
import { projectLeaf, type Projection, type ProjectionOptions } from "../project/project.ts";
import type { Result } from "../result.ts";
import type { EntryTree } from "../session/tree.ts";
import { recordedRequest } from "./usage.ts";
import { fieldText } from "../session/describe.ts";

export interface RecordedTurn {
  /** Entry index of the assistant message. */
  readonly entry: number;
  readonly line: number;
  readonly id: string | undefined;
  readonly provider: string;
  readonly modelId: string;
  readonly api: string;
  /** Prompt tokens of the request that produced it (exact, as the provider reported them). */
  readonly prompt: number;
  readonly output: number;
}

type Raw = Readonly<Record<string, unknown>>;

/** The assistant message of an entry, if it is one. */
export function assistantOf(tree: EntryTree, index: number): Raw | undefined {
  const entry = tree.entries[index];
  if (entry?.type !== "message") return undefined;
  const message = entry.raw["message"];
  return typeof message === "object" && message !== null && (message as Raw)["role"] === "assistant"
    ? (message as Raw)
    : undefined;
}

/** Every assistant turn whose recorded usage measures a real request, in file order. */
export function recordedTurns(tree: EntryTree): RecordedTurn[] {
  const turns: RecordedTurn[] = [];
  for (const entry of tree.entries) {
    const message = assistantOf(tree, entry.index);
    if (!message) continue;
    const recorded = recordedRequest(message, entry.raw["timestamp"]);
    if (!recorded.ok) continue;
    turns.push({
      entry: entry.index,
      line: entry.line,
      id: entry.id,
      provider: fieldText(message["provider"]),
      modelId: fieldText(message["model"]),
      api: fieldText(message["api"]),
      prompt: recorded.prompt,
      output: recorded.output,
    });
  }
  return turns;
}

/**
 * The model a turn was sent to: pi-ai's registry entry, or — for a model the registry does not know (a custom
 * provider, an older id) — a stand-in with the recorded API, provider and id, which is all counting needs.
 */
export function turnModel(turn: Pick<RecordedTurn, "provider" | "modelId" | "api">): ModelInfo {
  return (
    findModel(turn.provider, turn.modelId) ?? {
      id: turn.modelId,
      name: turn.modelId,
      api: turn.api,
      provider: turn.provider,
      baseUrl: "",
      reasoning: true,
      input: ["text", "image"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      contextWindow: 0,
      maxTokens: 0,
    }
  );
}

/** The context a turn's request carried: the path to the entry before it, projected for the turn's model. */
export function turnRequest(
  tree: EntryTree,
  turn: RecordedTurn,
  options: ProjectionOptions = {},
): Result<Projection> | undefined {
  const parent = tree.parentOf[turn.entry];
  if (parent === undefined) return undefined;
  return projectLeaf(tree, parent, { ...options, model: turnModel(turn) });
}
