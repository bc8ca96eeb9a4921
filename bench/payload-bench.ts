/**
 * Figure 2: the payload of every leaf, for the session's model and a few fixed ones, built by our core
 * (`projectLeaf`) and by pi's own functions, each from a session loaded once outside the timed region.
 */
import { performance } from "node:perf_hooks";
import type { Api, Model } from "@mariozechner/pi-ai";
import type { ModelInfo } from "../src/core/llm/types.ts";
import { findModel } from "../src/core/models/registry.ts";
import { projectLeaf } from "../src/core/project/project.ts";
import { loadSessionText } from "../src/core/session/load.ts";
import { indexTree, leavesOf, type EntryTree } from "../src/core/session/tree.ts";
import { referenceModel } from "../tests/reference/pi.ts";
import { loadPiSession, piAllPayloads, type PiSession } from "./pi-payloads.ts";
import { compare, type Figure } from "./timing.ts";

/** Besides the session's own model (undefined here). */
export const FIXED_MODELS: readonly (readonly [string, string])[] = [
  ["anthropic", "claude-sonnet-4-5"],
  ["openai", "gpt-5.1-codex"],
  ["google", "gemini-2.5-pro"],
];

interface Prepared {
  readonly tree: EntryTree;
  /** Our leaf indices, and the same leaves' file lines for pi (leaves pi cannot address by id are left out). */
  readonly leaves: readonly number[];
  readonly leafLines: readonly number[];
  readonly pi: PiSession;
  readonly ourModels: readonly (ModelInfo | undefined)[];
  readonly piModels: readonly (Model<Api> | undefined)[];
}

function prepare(text: string, name: string): Prepared {
  const tree = indexTree(loadSessionText(name, text));
  const pi = loadPiSession(text);
  const leaves: number[] = [];
  const leafLines: number[] = [];
  for (const leaf of leavesOf(tree)) {
    const entry = tree.entries[leaf];
    if (!entry || (entry.id !== undefined && tree.byId.get(entry.id) !== leaf)) continue; // pi resolves a reused id to its last entry
    if (!pi.idOnLine.has(entry.line)) continue;
    leaves.push(leaf);
    leafLines.push(entry.line);
  }
  const ourModels = [
    undefined,
    ...FIXED_MODELS.map(([provider, id]) => required(findModel(provider, id), `${provider}/${id}`)),
  ];
  const piModels = [
    undefined,
    ...FIXED_MODELS.map(([provider, id]) => required(referenceModel(provider, id), `${provider}/${id}`)),
  ];
  return { tree, leaves, leafLines, pi, ourModels, piModels };
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined)
    throw new Error(`model ${what} is not in the registry; update FIXED_MODELS in bench/payload-bench.ts`);
  return value;
}

/** Our payload for every (leaf, model); returns how many were built. */
export function ourAllPayloads(
  tree: EntryTree,
  leaves: readonly number[],
  models: readonly (ModelInfo | undefined)[],
): number {
  let built = 0;
  for (const leaf of leaves) {
    for (const model of models) if (projectLeaf(tree, leaf, model ? { model } : {}).ok) built += 1;
  }
  return built;
}

/** A timed run repeats the all-leaves pass until it lasts about this long, so small files are not noise. */
const MIN_RUN_MS = 150;

function passesFor(p: Prepared): number {
  const start = performance.now();
  ourAllPayloads(p.tree, p.leaves, p.ourModels);
  return Math.max(1, Math.ceil(MIN_RUN_MS / Math.max(0.01, performance.now() - start)));
}

/**
 * Times both sides on one session (ms per all-leaves pass); `name` labels the row. Each pass, ours and pi's,
 * starts from a session read afresh (untimed), as when a file is opened: what our core remembers per session
 * object may serve the other leaves and models of the same pass, as in the app, but never a later pass; and
 * neither side finds the session's objects still in the processor's caches from the pass before.
 */
export async function payloadFigure(name: string, text: string, reps: number): Promise<Figure> {
  const p = prepare(text, name);
  const ours = ourAllPayloads(p.tree, p.leaves, p.ourModels);
  const theirs = await piAllPayloads(p.pi, p.leafLines, p.piModels);
  const passes = passesFor(p);
  let trees: EntryTree[] = [];
  let sessions: PiSession[] = [];
  const times = await compare(
    () => {
      for (const tree of trees) ourAllPayloads(tree, p.leaves, p.ourModels);
    },
    async () => {
      for (const session of sessions) await piAllPayloads(session, p.leafLines, p.piModels);
    },
    reps,
    true,
    {
      ours: () => (trees = Array.from({ length: passes }, () => indexTree(loadSessionText(name, text)))),
      baseline: () => (sessions = Array.from({ length: passes }, () => loadPiSession(text))),
    },
  );
  const counts = ours === theirs ? `${ours} payloads` : `payloads ours ${ours} / pi ${theirs} (MISMATCH)`;
  return {
    name,
    ours: times.ours / passes,
    baseline: times.baseline / passes,
    baselineName: "pi",
    target: 2,
    note: `[${p.tree.entries.length} entries, ${p.leaves.length} leaves × ${p.ourModels.length} models, ${counts}${passes > 1 ? `; ms per pass, ${passes} passes per run` : ""}]`,
  };
}
