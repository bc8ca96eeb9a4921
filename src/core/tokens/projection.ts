/**
 * Token figures for one projection, as the app shows them: per payload item and in total, each number saying
 * what it is — exact (provider-reported), calibrated (anchored on a recorded request of this session, with the
 * anchored estimator's measured error here) or estimated (tokenizers and fixed coefficients alone).
 */
import type { Projection, ProjectionOptions } from "../project/project.ts";
import type { EntryTree } from "../session/tree.ts";
import type { ErrorStats } from "./accuracy.ts";
import { contextFeatures, estimateContext, featureTokens, itemParts, type ContextTokens } from "./context.ts";
import { countPayload, type TokenCounter } from "./count.ts";
import { anchorsAt, turnOfModel } from "./anchors.ts";
import { familyOf, tokenizersFor, type Family } from "./family.ts";
import { turnRequest, type RecordedTurn } from "./turns.ts";

/** A number with what it is. */
export type TokenFigure =
  | { readonly kind: "exact"; readonly value: number; readonly basis: string }
  | {
      readonly kind: "calibrated";
      readonly value: number;
      readonly basis: string;
      /** How far the anchored estimator was from the recorded prompt sizes of this session, if measured. */
      readonly error: ErrorStats | undefined;
    }
  | { readonly kind: "estimated"; readonly value: number; readonly basis: string };

export interface ProjectionTokens extends ContextTokens {
  /** The size of the whole prompt: system prompt, tools and messages. */
  readonly total: TokenFigure;
  /**
   * The system prompt and tools: counted when the projection was given them, else inferred from the earliest
   * recorded request of the target model on the path (undefined when there is none).
   */
  readonly systemAndTools: TokenFigure | undefined;
}

export interface ProjectionTokenOptions {
  /** The options the projection was made with (its system prompt and tools are counted when given). */
  readonly options?: ProjectionOptions;
  /**
   * The projection is what pi itself would send (pi's rules, no system prompt or tools given): when the session
   * recorded a request with exactly this context, its prompt size is the exact answer.
   */
  readonly asPiSends?: boolean;
  /** The anchored estimator's error on this session (from `sessionAccuracy`), shown with calibrated numbers. */
  readonly accuracy?: ErrorStats;
}

interface ProjectionAnchors {
  /** The recorded request made with exactly this context, if any (a child of the leaf). */
  readonly exact: RecordedTurn | undefined;
  /** The latest recorded request of the target model on the path, not across a compaction. */
  readonly previous: RecordedTurn | undefined;
  /** The earliest one since the last resume (else the earliest at all): the system-prompt-and-tools source. */
  readonly first: RecordedTurn | undefined;
}

function findAnchors(tree: EntryTree, projection: Projection): ProjectionAnchors {
  const { provider, id } = projection.model;
  let exact: RecordedTurn | undefined;
  for (const child of tree.children[projection.leaf] ?? []) {
    exact = turnOfModel(tree, child, provider, id);
    if (exact) break;
  }
  const onPath = anchorsAt(tree, projection.leaf, provider, id);
  return { exact, previous: onPath.previous, first: onPath.sinceResume ?? onPath.atAll };
}

/** Per session: the estimates of its recorded turns' requests (they never change: pi's own rules). */
const requestEstimates = new WeakMap<EntryTree, Map<string, number | undefined>>();

/** Messages estimate of a recorded turn's own request, standalone or with replies at their recorded output. */
function requestTokens(
  tree: EntryTree,
  turn: RecordedTurn,
  counter: TokenCounter,
  family: Family,
  replay: boolean,
): number | undefined {
  let requests = requestEstimates.get(tree);
  if (requests === undefined) requestEstimates.set(tree, (requests = new Map()));
  const key = `${turn.entry} ${family.id} ${replay}`;
  if (requests.has(key)) return requests.get(key);
  const request = turnRequest(tree, turn);
  let value: number | undefined;
  if (request?.ok) {
    const counts = countPayload(request.value, counter, tokenizersFor(family));
    value = featureTokens(
      contextFeatures(counts, itemParts(request.value, counts, family, { replayRecordedOutput: replay })),
      family.coefficients,
    );
  }
  requests.set(key, value);
  return value;
}

const line = (turn: RecordedTurn): string => `line ${turn.line}`;

/**
 * Counts a projection item by item and sizes its whole prompt, anchored on the session's recorded requests where
 * it can be. The counter must hold the tokenizers `tokenizersFor(familyOf(model))` names.
 */
export function projectionTokens(
  tree: EntryTree,
  projection: Projection,
  counter: TokenCounter,
  settings: ProjectionTokenOptions = {},
): ProjectionTokens {
  const family = familyOf(projection.model.id, projection.model.provider);
  const counts = countPayload(projection, counter, tokenizersFor(family));
  const context = estimateContext(projection, counts, { replayRecordedOutput: true }, family);
  const given = settings.options?.systemPrompt !== undefined || settings.options?.tools !== undefined;
  const anchors = findAnchors(tree, projection);
  const inferred = anchors.first === undefined ? undefined : requestTokens(tree, anchors.first, counter, family, false);
  const systemAndTools: TokenFigure | undefined = given
    ? { kind: "estimated", value: Math.round(context.system + context.tools), basis: "tokenizer, as given" }
    : anchors.first && inferred !== undefined
      ? {
          kind: "estimated",
          value: Math.round(anchors.first.prompt - inferred),
          basis: `the recorded request on ${line(anchors.first)} less its estimated messages`,
        }
      : undefined;
  return {
    ...context,
    total: totalFigure(tree, projection, counter, family, context, anchors, systemAndTools, given, settings),
    systemAndTools,
  };
}

function totalFigure(
  tree: EntryTree,
  projection: Projection,
  counter: TokenCounter,
  family: Family,
  context: ContextTokens,
  anchors: ProjectionAnchors,
  systemAndTools: TokenFigure | undefined,
  given: boolean,
  settings: ProjectionTokenOptions,
): TokenFigure {
  if (anchors.exact && settings.asPiSends)
    return {
      kind: "exact",
      value: anchors.exact.prompt,
      basis: `recorded usage of the request on ${line(anchors.exact)}`,
    };
  const anchor = anchors.previous ?? anchors.first;
  const anchorTokens = anchor ? requestTokens(tree, anchor, counter, family, true) : undefined;
  if (anchor && anchorTokens !== undefined) {
    // Recorded prompt of the anchor, less what we estimate of its messages, plus what we estimate of ours.
    let value = anchor.prompt - anchorTokens + context.messages;
    if (given) {
      if (systemAndTools === undefined || anchors.first === undefined)
        return standalone(context, "tokenizer; the given system prompt and tools are counted");
      const inferredSystem = anchors.first.prompt - (requestTokens(tree, anchors.first, counter, family, false) ?? 0);
      value += context.system + context.tools - inferredSystem;
    }
    // The anchor recorded fewer tokens than this request is estimated to leave out of it: the estimated difference
    // is wrong by more than the anchor holds (usage that is not a prompt size, or rules that remove most of a path
    // the tokenizers over-count), and a prompt has no fewer than zero tokens. Count this request on its own.
    if (value < 0)
      return standalone(
        context,
        `tokenizer; the recorded request on ${line(anchor)} (${anchor.prompt.toLocaleString("en")} tokens) holds ` +
          "less than this request is estimated to leave out of it, so it cannot anchor this estimate",
      );
    return {
      kind: "calibrated",
      value: Math.round(value),
      basis: `anchored on the recorded request on ${line(anchor)}`,
      error: settings.accuracy,
    };
  }
  return standalone(
    context,
    given
      ? "tokenizer; the given system prompt and tools are counted"
      : "tokenizer; no recorded request of this model on the path, so the system prompt and tools are not included",
  );
}

function standalone(context: ContextTokens, basis: string): TokenFigure {
  return { kind: "estimated", value: Math.round(context.messages + context.system + context.tools), basis };
}
