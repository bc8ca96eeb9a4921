/**
 * Fitting the per-family coefficients on recorded sessions, and leave-one-group-out evaluation: every group
 * (repository) measured with coefficients fitted on all the others.
 */
import { turnErrors, type ReplySample, type SessionSample, type TurnError } from "./accuracy.ts";
import type { ContextFeatures } from "./context.ts";
import { FAMILY_COEFFICIENTS, familyVocabulary, type FamilyCoefficients, type FamilyId } from "./family.ts";

/** Solves the weighted least-squares problem min Σ w (x·c − y)² by the normal equations. */
function leastSquares(
  rows: readonly (readonly number[])[],
  y: readonly number[],
  w: readonly number[],
): number[] | undefined {
  const n = rows[0]?.length ?? 0;
  const a = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0));
  rows.forEach((x, r) => {
    const weight = w[r] as number;
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < n; j += 1) (a[i] as number[])[j]! += weight * (x[i] as number) * (x[j] as number);
      (a[i] as number[])[n]! += weight * (x[i] as number) * (y[r] as number);
    }
  });
  for (let i = 0; i < n; i += 1) (a[i] as number[])[i]! += 1e-9; // keeps an unused column solvable
  for (let col = 0; col < n; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < n; r += 1) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-12) return undefined;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let r = 0; r < n; r += 1) {
      if (r === col) continue;
      const factor = a[r]![col]! / a[col]![col]!;
      for (let k = col; k <= n; k += 1) a[r]![k]! -= factor * a[col]![k]!;
    }
  }
  return a.map((row, i) => row[n]! / row[i]!);
}

/** Least absolute relative error, by iteratively reweighted least squares (robust to a few odd turns). */
function fitRelativeL1(
  rows: readonly (readonly number[])[],
  y: readonly number[],
  scale: readonly number[],
): number[] | undefined {
  let weights = scale.map((s) => 1 / (s * s));
  let coef = leastSquares(rows, y, weights);
  for (let iteration = 0; coef && iteration < 30; iteration += 1) {
    const c = coef;
    weights = rows.map((x, r) => {
      const residual =
        Math.abs(x.reduce((sum, v, i) => sum + v * (c[i] as number), 0) - (y[r] as number)) / (scale[r] as number);
      return 1 / ((scale[r] as number) ** 2 * Math.max(residual, 1e-4));
    });
    coef = leastSquares(rows, y, weights) ?? coef;
  }
  return coef;
}

/** Non-negative least squares for a handful of columns: the best of every subset whose solution is ≥ 0. */
function fitNonNegative(rows: readonly (readonly number[])[], y: readonly number[]): number[] | undefined {
  const n = rows[0]?.length ?? 0;
  let best: { coef: number[]; loss: number } | undefined;
  for (let mask = 1; mask < 1 << n; mask += 1) {
    const columns = [...Array(n).keys()].filter((i) => mask & (1 << i));
    const sub = leastSquares(
      rows.map((x) => columns.map((i) => x[i] as number)),
      y,
      y.map(() => 1),
    );
    if (!sub || sub.some((v) => v < 0)) continue;
    const coef = new Array<number>(n).fill(0);
    columns.forEach((i, k) => (coef[i] = sub[k] as number));
    const loss = rows.reduce(
      (sum, x, r) => sum + (x.reduce((s, v, i) => s + v * (coef[i] as number), 0) - (y[r] as number)) ** 2,
      0,
    );
    if (!best || loss < best.loss) best = { coef, loss };
  }
  return best?.coef;
}

const MIN_REPLIES = 10;
const MIN_TURNS = 20;

/** What replaying thinking costs, from replies: tokens per visible-thinking token and per encrypted character. */
function fitThinking(replies: readonly ReplySample[], withOpaque: boolean): { thinking: number; opaque: number } {
  if (replies.length < MIN_REPLIES) return { thinking: 1, opaque: 0 };
  const coef = fitNonNegative(
    replies.map((r) => [r.visible, r.thinking, withOpaque ? r.opaque : 0]),
    replies.map((r) => r.output),
  );
  if (!coef || !(coef[0]! > 0)) return { thinking: 1, opaque: 0 };
  return { thinking: coef[1]! / coef[0]!, opaque: coef[2]! };
}

function vocabularyOf(f: ContextFeatures, vocabulary: "o200k" | "claude") {
  return f[vocabulary];
}

/** Fits one family's coefficients on the standalone differences of its turns (and the thinking cost of its replies). */
function fitFamily(family: FamilyId, sessions: readonly SessionSample[]): FamilyCoefficients | undefined {
  const vocabulary = familyVocabulary(family);
  // What encrypted reasoning is worth is the provider's own business: pooled families do not share it.
  const replies = sessions.flatMap((s) => s.replies.filter((r) => r.family === family));
  const { thinking, opaque } = fitThinking(replies, family !== "other");
  const rows: number[][] = [];
  const y: number[] = [];
  const scale: number[] = [];
  for (const session of sessions) {
    for (const turn of session.turns) {
      if (turn.family !== family || turn.first === undefined) continue;
      const anchor = session.turns[turn.first];
      if (!turn.standalone || !anchor?.standalone) continue;
      const mine = vocabularyOf(turn.standalone, vocabulary);
      const theirs = vocabularyOf(anchor.standalone, vocabulary);
      rows.push([
        mine.text - theirs.text + thinking * (mine.thinking - theirs.thinking),
        mine.toolArgs - theirs.toolArgs,
        turn.standalone.items - anchor.standalone.items,
      ]);
      y.push(
        turn.turn.prompt -
          anchor.turn.prompt -
          (turn.standalone.imageTokens - anchor.standalone.imageTokens) -
          opaque * (turn.standalone.opaque - anchor.standalone.opaque),
      );
      scale.push(turn.turn.prompt);
    }
  }
  if (rows.length < MIN_TURNS) return undefined;
  const coef = fitRelativeL1(rows, y, scale);
  if (!coef || !(coef[0]! > 0) || !(coef[1]! > 0)) return undefined;
  const ratio = coef[0]!;
  return {
    o200k: vocabulary === "o200k" ? ratio : 0,
    claude: vocabulary === "claude" ? ratio : 0,
    framing: Math.max(0, coef[2]!),
    toolArgs: coef[1]! / ratio,
    thinking,
    opaque,
  };
}

const FAMILIES: readonly FamilyId[] = Object.keys(FAMILY_COEFFICIENTS) as FamilyId[];

/**
 * Coefficients for every family, fitted on the given sessions. A family with too few turns takes the fit of all
 * o200k families pooled ("other"); with too few of those, the shipped coefficients.
 */
export function fitCoefficients(sessions: readonly SessionSample[]): Record<FamilyId, FamilyCoefficients> {
  const pooled = sessions.map((s) => ({
    ...s,
    turns: s.turns.map((t) => (familyVocabulary(t.family) === "o200k" ? { ...t, family: "other" as const } : t)),
    replies: s.replies.map((r) => (familyVocabulary(r.family) === "o200k" ? { ...r, family: "other" as const } : r)),
  }));
  const other = fitFamily("other", pooled) ?? FAMILY_COEFFICIENTS.other;
  const out = {} as Record<FamilyId, FamilyCoefficients>;
  for (const family of FAMILIES) {
    out[family] =
      (family === "other" ? other : fitFamily(family, sessions)) ??
      (family === "claude" ? FAMILY_COEFFICIENTS.claude : other);
  }
  return out;
}

/** Leave-one-group-out: every group's turns measured with coefficients fitted on all the other groups. */
export function heldOutErrors(sessions: readonly SessionSample[]): TurnError[] {
  const groups = [...new Set(sessions.map((s) => s.group))];
  return groups.flatMap((group) => {
    const coefficients = fitCoefficients(sessions.filter((s) => s.group !== group));
    return turnErrors(
      sessions.filter((s) => s.group === group),
      (family) => coefficients[family],
    );
  });
}
