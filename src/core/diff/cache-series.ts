/**
 * Turn by turn along a path: for every request pi made (each assistant turn), the prompt size under some rules
 * and how much of it a prompt cache could serve — the longest prefix it shares with the previous request under
 * the same rules. A rule that rewrites earlier messages shows as a prefix that stops short of the previous
 * request; one that only touches new messages keeps the whole previous request cacheable.
 *
 * This is an upper bound: a provider serves a prefix only up to a cache breakpoint it has stored, within its
 * retention time and above its minimum size.
 */
import { projectLeaf, type Projection, type ProjectionOptions } from "../project/project.ts";
import { pathToLeaf, type EntryTree } from "../session/tree.ts";
import type { ProjectionTokens, TokenFigure } from "../tokens/projection.ts";
import { assistantOf } from "../tokens/turns.ts";
import { recordedRequest } from "../tokens/usage.ts";
import { divergence, type Divergence } from "./divergence.ts";
import { cacheUnits, type CacheUnit } from "./items.ts";
import { seriesOf } from "./series-totals.ts";

export interface CacheTurn {
  /** The assistant entry that answered this request. */
  readonly entry: number;
  /** The request's leaf: the entry before the assistant turn. */
  readonly leaf: number;
  /** "PROVIDER/ID" the request is projected for. */
  readonly model?: string;
  /** The prompt size, when the request could be projected and counted. */
  readonly prompt?: TokenFigure;
  /** Tokens of the prefix shared with the previous request (0 for the first). */
  readonly reusable?: number;
  /** Where this request departs from the previous one, relative to it; undefined when it extends it. */
  readonly breaks?: Divergence;
  /** Why this request could not be projected or counted. */
  readonly error?: string;
  /** What the session recorded for this turn (prompt and cache reads), when it is a real measurement. */
  readonly recorded?: { readonly prompt: number; readonly cacheRead: number; readonly cacheWrite: number };
}

export interface CacheSeries {
  readonly turns: readonly CacheTurn[];
  /** Turns after the first whose request does not keep all of the previous one (a cache break). */
  readonly breaks: number;
  /** Σ prompt tokens, and Σ of the parts that had to be processed again (prompt − reusable). */
  readonly promptTokens: number;
  readonly uncachedTokens: number;
}

/** Counts one request (sync in the CLI, async in the worker where tokenizers load lazily). */
export type CountProjection = (projection: Projection) => ProjectionTokens | Promise<ProjectionTokens>;

const num = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

function recorded(tree: EntryTree, entry: number): CacheTurn["recorded"] {
  const message = assistantOf(tree, entry);
  if (!message) return undefined;
  const request = recordedRequest(message, tree.entries[entry]?.raw["timestamp"]);
  if (!request.ok) return undefined;
  const usage = message["usage"] as Record<string, unknown>;
  return { prompt: request.prompt, cacheRead: num(usage["cacheRead"]), cacheWrite: num(usage["cacheWrite"]) };
}

function breakWords(d: Divergence): string {
  switch (d.at) {
    case "model":
      return "another model than the previous request: nothing is cached across models";
    case "tools":
      return "the tool definitions differ from the previous request";
    case "system":
      return "the system prompt differs from the previous request";
    case "item":
      return `item ${d.itemB} differs from the previous request's item ${d.itemA ?? d.itemB}`;
    case "end":
      return "the request is shorter than the previous one";
  }
}

/** A request pi made: the assistant entry that answered it, and the entry before it (the request's leaf). */
interface Request {
  readonly entry: number;
  readonly leaf: number;
}

/** The assistant entries on the path to `leaf` (each one is a request pi made), with the leaf of each request. */
export function requestsOnPath(tree: EntryTree, leaf: number): Request[] {
  const path = pathToLeaf(tree, leaf);
  if (!path.ok) return [];
  const out: Request[] = [];
  path.value.forEach((entry, k) => {
    const parent = path.value[k - 1];
    if (parent !== undefined && assistantOf(tree, entry)) out.push({ entry, leaf: parent });
  });
  return out;
}

/**
 * Called before each request is projected, with the turns measured so far (the series' own array, growing: read
 * it, never keep or change it). The worker yields to its message queue there (a long session has thousands of
 * requests), sends what was measured since it last did, and throws to stop a series nobody waits for any more.
 */
export type BetweenRequests = (done: number, total: number, turns: readonly CacheTurn[]) => void | Promise<void>;

/**
 * Prompt size and cache-reusable prefix of every request on the path to `leaf`, under `options`. `measured` is
 * the first turns of this same series, measured before (a series stopped part way): it goes on after them.
 */
export async function cacheSeries(
  tree: EntryTree,
  leaf: number,
  options: ProjectionOptions,
  count: CountProjection,
  between?: BetweenRequests,
  measured: readonly CacheTurn[] = [],
): Promise<CacheSeries> {
  const requests = requestsOnPath(tree, leaf);
  const resumes = measured.length <= requests.length && measured.every((t, k) => t.entry === requests[k]?.entry);
  const turns: CacheTurn[] = resumes ? [...measured] : [];
  // The request before the first one measured here is projected again for its cache units (nothing else of it).
  const goesOn = turns.length > 0 && turns.length < requests.length;
  const before = goesOn ? projectLeaf(tree, (requests[turns.length - 1] as Request).leaf, options) : undefined;
  let previous: readonly CacheUnit[] | undefined = before?.ok ? cacheUnits(before.value) : undefined;
  for (let done = turns.length; done < requests.length; done += 1) {
    const request = requests[done] as Request;
    await between?.(done, requests.length, turns);
    const base = { entry: request.entry, leaf: request.leaf, recorded: recorded(tree, request.entry) };
    const projection = projectLeaf(tree, request.leaf, options);
    if (!projection.ok) {
      turns.push({ ...base, error: projection.error });
      previous = undefined;
      continue;
    }
    const units = cacheUnits(projection.value);
    const model = `${projection.value.model.provider}/${projection.value.model.id}`;
    let tokens: ProjectionTokens;
    try {
      tokens = await count(projection.value);
    } catch (error) {
      turns.push({ ...base, model, error: error instanceof Error ? error.message : String(error) });
      previous = units;
      continue;
    }
    const d = previous ? divergence(previous, units, tokens) : undefined;
    const total = Math.round(tokens.total.value);
    const reusable = !previous ? 0 : d ? (d.tokensBefore ?? 0) : total;
    // A break: this request does not extend the previous one (it departs before the previous request's end).
    const broke = previous !== undefined && d !== undefined && d.unit < previous.length;
    turns.push({
      ...base,
      model,
      prompt: tokens.total,
      reusable,
      ...(broke && d ? { breaks: { ...d, description: breakWords(d) } } : {}),
    });
    previous = units;
  }
  return seriesOf(turns);
}
