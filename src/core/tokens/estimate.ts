/**
 * The two estimators of a recorded request's prompt size (issue 4, TOKENS.md), neither of which looks at the
 * turn's own usage or anything after it:
 *   standalone — tokenizers and fixed per-family coefficients; recorded usage is used only to infer the size of
 *                the system prompt and tools (not in the file) from the earliest earlier request of the same model.
 *   anchored   — the latest earlier request of the same model on the path (not across a compaction), plus the
 *                estimated difference, with the model's own earlier replies priced at their recorded output.
 */
import type { ProjectionOptions } from "../project/project.ts";
import type { EntryTree } from "../session/tree.ts";
import { contextFeatures, featureTokens, itemParts, type ContextFeatures } from "./context.ts";
import { countPayload, type TokenCounter } from "./count.ts";
import { FAMILY_COEFFICIENTS, familyOf, type FamilyCoefficients, type FamilyId } from "./family.ts";
import type { TokenizerName } from "./tokenizer.ts";
import { turnRequest, type RecordedTurn } from "./turns.ts";
import { anchorsAt, resumedAt, sessionTurns, turnPosition } from "./anchors.ts";

/** What the estimators know about one recorded turn: its request's features and its usable anchors. */
export interface TurnFeatures {
  readonly turn: RecordedTurn;
  readonly family: FamilyId;
  /** Features of the request context, all priced by the tokenizers (undefined: it could not be built). */
  readonly standalone: ContextFeatures | undefined;
  /** Features with the model's own earlier replies at their recorded output. */
  readonly anchored: ContextFeatures | undefined;
  /** Position (in the session's list) of the earliest earlier request of the same model on the path (since the last resume, if there is one). */
  readonly first: number | undefined;
  /** Position of the latest earlier request of the same model on the path, not across a compaction. */
  readonly previous: number | undefined;
  /** Why the request context could not be built, if so. */
  readonly error?: string;
}

/**
 * The anchors of a turn among the earlier turns of the same model on its path (positions in the session's
 * recorded turns): the earliest one since the last resume (else the earliest at all), and the latest one not
 * across a compaction.
 */
function anchorsOf(tree: EntryTree, turn: RecordedTurn): { first: number | undefined; previous: number | undefined } {
  const parent = tree.parentOf[turn.entry];
  if (parent === undefined) return { first: undefined, previous: undefined };
  const before = anchorsAt(tree, parent, turn.provider, turn.modelId);
  // A resume between the parent and the turn puts every earlier turn before it.
  const first = (resumedAt(tree, turn.entry) ? undefined : before.sinceResume) ?? before.atAll;
  const position = (anchor: RecordedTurn | undefined) => (anchor ? turnPosition(tree, anchor.entry) : undefined);
  return { first: position(first), previous: position(before.previous) };
}

/**
 * Counts the request context of every recorded turn of a session. `names` are the vocabularies to run
 * (default: what each turn's family needs; the accuracy script asks for both).
 */
export function turnFeatures(
  tree: EntryTree,
  counter: TokenCounter,
  options: ProjectionOptions = {},
  names?: readonly TokenizerName[],
): TurnFeatures[] {
  return sessionTurns(tree).map((turn) => featuresOf(tree, counter, turn, turnRequest(tree, turn, options), names));
}

/** One turn's features, from its request context (`turnRequest` of it, made by the caller). */
export function featuresOf(
  tree: EntryTree,
  counter: TokenCounter,
  turn: RecordedTurn,
  request: ReturnType<typeof turnRequest>,
  names?: readonly TokenizerName[],
): TurnFeatures {
  const family = familyOf(turn.modelId, turn.provider);
  const anchors = anchorsOf(tree, turn);
  if (!request?.ok) {
    const error = request ? request.error : "the turn has no parent entry, so its request held no messages";
    return { turn, family: family.id, standalone: undefined, anchored: undefined, ...anchors, error };
  }
  const counts = countPayload(request.value, counter, names ?? vocabularies(family.coefficients));
  return {
    turn,
    family: family.id,
    standalone: contextFeatures(counts, itemParts(request.value, counts, family)),
    anchored: contextFeatures(counts, itemParts(request.value, counts, family, { replayRecordedOutput: true })),
    ...anchors,
  };
}

/** The vocabularies `turnFeatures` counts a turn's request with (its family's, where its coefficient is not 0). */
export function turnVocabularies(turn: RecordedTurn): TokenizerName[] {
  return vocabularies(familyOf(turn.modelId, turn.provider).coefficients);
}

function vocabularies(c: FamilyCoefficients): TokenizerName[] {
  return [...(c.o200k !== 0 ? (["o200k"] as const) : []), ...(c.claude !== 0 ? (["claude"] as const) : [])];
}

/** One line of `tokens --turns`: the recorded prompt size and the two estimates of it. */
export interface TurnEstimate {
  readonly turn: RecordedTurn;
  /** Exact: prompt tokens the provider reported (TOKENS.md definition). */
  readonly actual: number;
  /** Estimated; null when no earlier request of the same model tells the system prompt and tools size. */
  readonly standalone: number | null;
  /** Calibrated on the latest earlier request of the same model; null when there is none. */
  readonly anchored: number | null;
}

export type CoefficientsFor = (family: FamilyId) => FamilyCoefficients;

const byFamily: CoefficientsFor = (family) => FAMILY_COEFFICIENTS[family];

/**
 * Both estimates for every turn, from its features and those of its anchors. `anchors` holds the anchors'
 * features by position in the session's recorded turns; without it, `features` must be all of them, in order.
 */
export function estimateFromFeatures(
  features: readonly TurnFeatures[],
  coefficientsFor: CoefficientsFor = byFamily,
  anchors?: ReadonlyMap<number, TurnFeatures>,
): TurnEstimate[] {
  return features.map((f) => {
    const c = coefficientsFor(f.family);
    const from = (anchor: number | undefined, kind: "standalone" | "anchored"): number | null => {
      const a = anchor === undefined ? undefined : anchors ? anchors.get(anchor) : features[anchor];
      const mine = f[kind];
      const theirs = a?.[kind];
      if (!a || !mine || !theirs) return null;
      return Math.round(a.turn.prompt - featureTokens(theirs, c) + featureTokens(mine, c));
    };
    return {
      turn: f.turn,
      actual: f.turn.prompt,
      standalone: from(f.first, "standalone"),
      anchored: from(f.previous, "anchored") ?? from(f.first, "anchored"),
    };
  });
}

/** Positions (in the session's recorded turns) of the anchors the estimates of `features` read. */
export function anchorPositions(features: Iterable<TurnFeatures>): number[] {
  const positions = new Set<number>();
  for (const f of features) {
    if (f.first !== undefined) positions.add(f.first);
    if (f.previous !== undefined) positions.add(f.previous);
  }
  return [...positions];
}

/** A session's recorded turns' features by position, each measured when first asked for. */
function measuredByPosition(
  tree: EntryTree,
  counter: TokenCounter,
  options: ProjectionOptions,
): {
  readonly byPosition: Map<number, TurnFeatures>;
  readonly measure: (position: number) => TurnFeatures | undefined;
} {
  const recorded = sessionTurns(tree);
  const byPosition = new Map<number, TurnFeatures>();
  const measure = (position: number): TurnFeatures | undefined => {
    const turn = recorded[position];
    if (turn === undefined) return undefined;
    let features = byPosition.get(position);
    if (features === undefined) {
      features = featuresOf(tree, counter, turn, turnRequest(tree, turn, options));
      byPosition.set(position, features);
    }
    return features;
  };
  return { byPosition, measure };
}

/**
 * Features of some of a session's recorded turns (`positions` in its list), and by position of those and of
 * their anchors, which their estimates read: a spread of a long session's turns measures up to three turns each.
 */
export function someTurnFeatures(
  tree: EntryTree,
  counter: TokenCounter,
  positions: readonly number[],
): { readonly turns: TurnFeatures[]; readonly anchors: Map<number, TurnFeatures> } {
  const { byPosition, measure } = measuredByPosition(tree, counter, {});
  const turns = positions.flatMap((position) => measure(position) ?? []);
  for (const position of anchorPositions(turns)) measure(position);
  return { turns, anchors: byPosition };
}

/**
 * `tokens --turns`: every recorded turn of a session with its standalone and anchored estimates, each given as
 * soon as it and its anchors are measured (every turn projects and counts its own request: all of a long
 * session's take minutes, and the first are there at once).
 */
export function* turnEstimates(
  tree: EntryTree,
  counter: TokenCounter,
  options: ProjectionOptions = {},
): Generator<TurnEstimate, void, undefined> {
  const { byPosition, measure } = measuredByPosition(tree, counter, options);
  for (let position = 0; position < sessionTurns(tree).length; position += 1) {
    const features = measure(position) as TurnFeatures;
    for (const anchor of anchorPositions([features])) measure(anchor);
    yield estimateFromFeatures([features], undefined, byPosition)[0] as TurnEstimate;
  }
}

/** Every recorded turn of a session with its standalone and anchored estimates (`turnEstimates`, all at once). */
export function estimateTurns(tree: EntryTree, counter: TokenCounter, options: ProjectionOptions = {}): TurnEstimate[] {
  return [...turnEstimates(tree, counter, options)];
}
