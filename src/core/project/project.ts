/**
 * The whole projection for one leaf and one model: path → agent messages → LLM messages → payload,
 * with the fate of every path entry and the entries behind every message and payload item.
 */
import type {
  CacheRetention,
  LlmMessage,
  ModelInfo,
  PayloadResult,
  SessionThinkingLevel,
  ThinkingLevel,
  ToolDefinition,
  TransformOptions,
} from "../llm/types.ts";
import { findModel } from "../models/registry.ts";
import { MAX_NESTING } from "../nesting.ts";
import { buildPayload } from "../providers/index.ts";
import { err, ok, type Result } from "../result.ts";
import { modelRefText } from "../session/describe.ts";
import { pathToLeaf, type EntryTree } from "../session/tree.ts";
import { pathModel, toAgentMessages, type AgentContext, type ContextOptions } from "./context.ts";
import { toLlmMessages, type ConvertOptions, type LlmConversion } from "./convert.ts";
import { singleIndex } from "./memo.ts";
import { PathFates } from "./path-fates.ts";
import { failedTurnReason } from "./transform.ts";

export interface ProjectionOptions extends ContextOptions, ConvertOptions {
  /** Target model; undefined = the model the path ends with, as pi resumes. */
  readonly model?: ModelInfo;
  readonly systemPrompt?: string;
  readonly tools?: readonly ToolDefinition[];
  readonly cacheRetention?: CacheRetention;
  /** What-if switches for pi-ai's transform; undefined = as pi-ai. */
  readonly transform?: TransformOptions;
  /** Overrides the path's thinking level (pi: the level in force at the leaf). */
  readonly thinkingLevel?: SessionThinkingLevel;
}

export type EntryFate =
  | { readonly kind: "in-context"; readonly changedBy?: readonly string[] }
  | { readonly kind: "compaction-summary" }
  | { readonly kind: "summarised"; readonly compaction: number }
  | { readonly kind: "setting"; readonly what: string }
  | { readonly kind: "no-message"; readonly reason: string }
  | { readonly kind: "excluded"; readonly rule: string; readonly reason: string }
  | { readonly kind: "dropped"; readonly reason: string };

export interface Projection {
  readonly leaf: number;
  /** Entry indices root → leaf. */
  readonly path: readonly number[];
  readonly context: AgentContext;
  readonly llm: LlmConversion;
  /** For each LLM message, the entry it came from. */
  readonly llmSources: readonly number[];
  readonly model: ModelInfo;
  readonly reasoning: ThinkingLevel | undefined;
  readonly payload: PayloadResult;
  /** For each item of the payload's main list, the entries it came from. */
  readonly itemSources: readonly (readonly number[])[];
  /** The fate of every path entry. */
  readonly fates: PathFates<EntryFate>;
}

/** The model the path ends with, looked up in pi-ai's registry. */
export function sessionModel(context: AgentContext): Result<ModelInfo> {
  if (!context.model)
    return err("no model on this path (no model_change entry and no assistant message before the leaf); pass a model");
  const { provider, modelId } = context.model;
  const model = findModel(provider, modelId);
  return model
    ? ok(model)
    : err(
        `the session's model ${modelRefText(provider, modelId)} is not in pi-ai's model registry (nor in a models.json in use)`,
      );
}

const IN_CONTEXT: EntryFate = { kind: "in-context" };

/** What stages 5 and 6 made of every path entry. */
function conversationFates(path: readonly number[], context: AgentContext, llm: LlmConversion): PathFates<EntryFate> {
  const fates = new PathFates<EntryFate>(
    path,
    context.fates.map((fate) => (fate.kind === "message" ? IN_CONTEXT : fate)),
  );
  const changes: [number, EntryFate][] = [];
  llm.fates.forEach((fate, agentIndex) => {
    const entry = context.sources[agentIndex] as number;
    if (fate.kind !== "converted") changes.push([entry, fate]);
    else if (fate.changedBy) changes.push([entry, { kind: "in-context", changedBy: fate.changedBy }]);
  });
  return changes.length === 0 ? fates : fates.with(changes);
}

const withFailedTurns = new WeakMap<Conversation, PathFates<EntryFate>>();

/**
 * The conversation's fates with the errored and aborted turns pi-ai's transform drops: they depend on the LLM
 * messages alone, so they are worked out once per conversation, for all its models.
 */
function fatesWithFailedTurns(conversation: Conversation): PathFates<EntryFate> {
  let fates = withFailedTurns.get(conversation);
  if (fates === undefined) {
    const { context, llm } = conversation;
    const dropped: [number, EntryFate][] = [];
    llm.messages.forEach((message, i) => {
      const reason = failedTurnReason(message);
      if (reason !== undefined)
        dropped.push([context.sources[llm.from[i] as number] as number, { kind: "dropped", reason }]);
    });
    fates = dropped.length === 0 ? conversation.fates : conversation.fates.with(dropped);
    withFailedTurns.set(conversation, fates);
  }
  return fates;
}

/**
 * The path, its agent messages and their LLM messages: what does not depend on the target model. The fates of the
 * path's entries are worked out when first read (a token count or a cache series never reads them, and on a long
 * path they are the largest thing a projection makes).
 */
class Conversation {
  #fates: PathFates<EntryFate> | undefined;

  constructor(
    readonly path: readonly number[],
    readonly context: AgentContext,
    readonly llm: LlmConversion,
  ) {}

  get fates(): PathFates<EntryFate> {
    return (this.#fates ??= conversationFates(this.path, this.context, this.llm));
  }
}

/** The options stages 5 and 6 read, as a key: two projections with the same key share their conversation. */
function conversationKey(leaf: number, o: ProjectionOptions): string {
  return JSON.stringify([
    leaf,
    o.applyCompaction,
    o.includeBranchSummaries,
    o.excludeCustomTypes,
    o.excludeCustomRoleTypes,
    o.blockImages,
    o.honourExcludeFromContext,
    o.bash,
    o.dropThinking,
    o.truncateToolResults,
    o.redactSecrets,
  ]);
}

/**
 * Conversations remembered per session, the most recently used first to stay: one leaf projected for several
 * models or rules (the rules panel measures a dozen alternatives per view). Bounded in number and in path
 * entries held, so a session with a path of 50,000 entries keeps a few of them, not a dozen.
 */
const conversations = new WeakMap<EntryTree, Map<string, Result<Conversation>>>();
const CONVERSATIONS_PER_SESSION = 16;
const CONVERSATION_ENTRIES_PER_SESSION = 200_000;

function converse(tree: EntryTree, leaf: number, options: ProjectionOptions): Result<Conversation> {
  let known = conversations.get(tree);
  if (known === undefined) conversations.set(tree, (known = new Map()));
  const key = conversationKey(leaf, options);
  let conversation = known.get(key);
  if (conversation !== undefined) {
    known.delete(key); // used again: it goes last, where the newest are
    known.set(key, conversation);
    return conversation;
  }
  conversation = makeConversation(tree, leaf, options);
  known.set(key, conversation);
  let held = 0;
  for (const c of known.values()) held += c.ok ? c.value.path.length : 0;
  for (const [oldest, c] of known) {
    if (known.size <= 1 || (known.size <= CONVERSATIONS_PER_SESSION && held <= CONVERSATION_ENTRIES_PER_SESSION)) break;
    known.delete(oldest);
    held -= c.ok ? c.value.path.length : 0;
  }
  return conversation;
}

function makeConversation(tree: EntryTree, leaf: number, options: ProjectionOptions): Result<Conversation> {
  const path = pathToLeaf(tree, leaf);
  if (!path.ok) return path;
  const context = toAgentMessages({ entries: tree.entries, indices: path.value }, options);
  if (!context.ok) return context;
  const sources = context.value.sources;
  const locate = (agentIndex: number): string => {
    const entry = tree.entries[sources[agentIndex] as number];
    return entry ? `line ${entry.line} of ${tree.file.name}` : tree.file.name;
  };
  const llm = toLlmMessages(context.value.messages, { ...options, locate });
  if (tree.tooDeep.size > 0) {
    const deep = llm.from.map((agentIndex) => sources[agentIndex] as number).find((i) => tree.tooDeep.has(i));
    if (deep !== undefined)
      return err(
        `line ${tree.entries[deep]?.line} of ${tree.file.name} nests values more than ${MAX_NESTING.toLocaleString("en")} ` +
          "levels deep and reaches the model on this path; JSON cannot be written that deep, so pi could not send " +
          "this request and there is no payload",
      );
  }
  return ok(new Conversation(path.value, context.value, llm));
}

/**
 * Projects the path to `leaf` into the payload pi would send (with the given what-if options). The path's
 * conversation (stages 5 and 6) is shared by projections of the same leaf under the same context and convert
 * options — other models, thinking levels, system prompts, transform switches — and must never be mutated.
 */
export function projectLeaf(tree: EntryTree, leaf: number, options: ProjectionOptions = {}): Result<Projection> {
  try {
    return project(tree, leaf, options);
  } catch (error) {
    // Session data of a shape pi never writes (a field of the wrong type, nesting too deep to serialise) can make
    // a stage throw, as it would make pi throw: say so, and where, rather than fail the whole view.
    const line = tree.entries[leaf]?.line;
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const culprit = firstThrowingEntry(tree, leaf, options);
    const at =
      culprit === undefined || culprit === leaf
        ? ""
        : `; it fails at line ${tree.entries[culprit]?.line} of ${tree.file.name}`;
    return err(
      `the path to ${line === undefined ? `entry ${leaf}` : `line ${line}`} holds data pi does not write, and ` +
        `projecting it failed (${why})${at}`,
    );
  }
}

/**
 * The entry where projecting the path to `leaf` first throws: the shortest path from the root whose projection
 * throws ends with it (an entry pi does not write makes every path through it throw). Only asked after a throw: a
 * few projections, by bisection.
 */
function firstThrowingEntry(tree: EntryTree, leaf: number, options: ProjectionOptions): number | undefined {
  const path = pathToLeaf(tree, leaf);
  if (!path.ok) return undefined;
  const throws = (entries: number): boolean => {
    try {
      project(tree, path.value[entries - 1] as number, options);
      return false;
    } catch {
      return true;
    }
  };
  return path.value[shortestFailingPrefix(path.value.length, throws) - 1];
}

/**
 * The length of the shortest prefix that `fails`, by bisection: `fails(length)` is known to be true and the empty
 * prefix is taken to pass. Asked only after a failure, to say where it starts.
 */
function shortestFailingPrefix(length: number, fails: (prefix: number) => boolean): number {
  let low = 0; // a prefix this long passes
  let high = length; // a prefix this long fails
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (fails(mid)) high = mid;
    else low = mid;
  }
  return high;
}

/** What stage 7 is given besides the messages: the target model and the request's settings. */
interface Builder {
  readonly model: ModelInfo;
  readonly reasoning: ThinkingLevel | undefined;
  readonly build: (messages: readonly LlmMessage[]) => Result<PayloadResult>;
}

function builder(tree: EntryTree, context: AgentContext, options: ProjectionOptions): Result<Builder> {
  const model = options.model ? ok(options.model) : sessionModel(context);
  if (!model.ok) return model;
  const level = options.thinkingLevel ?? context.thinkingLevel;
  const reasoning = level === "off" ? undefined : (level as ThinkingLevel);
  const build = (messages: readonly LlmMessage[]) =>
    buildPayload(model.value, {
      messages: messages as LlmMessage[],
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
      ...(options.tools !== undefined ? { tools: options.tools } : {}),
      reasoning,
      sessionId: tree.file.header?.id,
      cacheRetention: options.cacheRetention,
      ...(options.transform ? { transform: options.transform } : {}),
    });
  return ok({ model: model.value, reasoning, build });
}

/** A part of a long path's messages built at a time by `projectInParts`. */
export const PART_MESSAGES = 4_000;

/**
 * `projectLeaf`, made a part at a time: the conversation first, then the payload of its messages `part` at a time,
 * yielding after each, and the projection last. What each part builds is remembered per message (see `PerObject`),
 * so the projection at the end is a pass over what was remembered. For a long path whose messages were never built
 * for this model and these rules (compaction off on a long compacted session: 48,000 messages take 0.4–0.7 s to
 * build the first time, 0.1 s after), which `projectLeaf` would build in one step that nothing else can interrupt.
 */
export function* projectInParts(
  tree: EntryTree,
  leaf: number,
  options: ProjectionOptions = {},
  part = PART_MESSAGES,
): Generator<void, Result<Projection>, void> {
  let messages: readonly LlmMessage[] = [];
  let build: Builder["build"] | undefined;
  try {
    const conversation = converse(tree, leaf, options);
    const made = conversation.ok ? builder(tree, conversation.value.context, options) : undefined;
    if (conversation.ok && made?.ok) {
      build = made.value.build;
      messages = conversation.value.llm.messages;
    }
  } catch {
    // The projection at the end says what fails, and where.
  }
  if (build !== undefined && messages.length > part) {
    for (let from = 0; from < messages.length; from += part) {
      yield;
      try {
        build(messages.slice(from, from + part));
      } catch {
        // A part is built only for what it leaves remembered; the projection says what fails, and where.
      }
    }
    yield;
  }
  return projectLeaf(tree, leaf, options);
}

function project(tree: EntryTree, leaf: number, options: ProjectionOptions): Result<Projection> {
  const conversation = converse(tree, leaf, options);
  if (!conversation.ok) return conversation;
  const { path, llm, context } = conversation.value;
  const made = builder(tree, context, options);
  if (!made.ok) return made;
  const { model, reasoning, build } = made.value;
  const payload = build(llm.messages);
  const llmSources = llm.from.map((agentIndex) => context.sources[agentIndex] as number);
  if (!payload.ok) {
    const culprit = firstFailingMessage(llm.messages, build);
    const line = culprit === undefined ? undefined : tree.entries[llmSources[culprit] as number]?.line;
    return line === undefined ? payload : err(`${payload.error}; it fails at line ${line} of ${tree.file.name}`);
  }
  const dropsFailedTurns = options.transform?.dropFailedTurns !== false;
  return ok({
    leaf,
    path,
    context,
    llm,
    llmSources,
    model,
    reasoning,
    payload: payload.value,
    itemSources: payload.value.origins.map((origin) =>
      origin.length === 1 ? singleIndex(llmSources[origin[0] as number]) : origin.map((i) => llmSources[i] as number),
    ),
    get fates() {
      return dropsFailedTurns ? fatesWithFailedTurns(conversation.value) : conversation.value.fates;
    },
  });
}

/**
 * The message the build first fails on: the shortest failing prefix ends with it (a builder fails on a message
 * of a shape pi does not write, whatever follows it). Only asked after a failure: a few builds, by bisection.
 */
function firstFailingMessage(
  messages: readonly LlmMessage[],
  build: (messages: readonly LlmMessage[]) => Result<unknown>,
): number | undefined {
  if (build([]).ok === false) return undefined; // nothing to do with the messages (base URL, tools, …)
  return shortestFailingPrefix(messages.length, (prefix) => !build(messages.slice(0, prefix)).ok) - 1;
}

/** "PROVIDER/ID" of the model the path to `leaf` ends with, whether or not the registry knows it. */
export function pathModelRef(tree: EntryTree, leaf: number): string | undefined {
  const path = pathToLeaf(tree, leaf);
  if (!path.ok) return undefined;
  const model = pathModel({ entries: tree.entries, indices: path.value });
  return model ? modelRefText(model.provider, model.modelId) : undefined;
}
