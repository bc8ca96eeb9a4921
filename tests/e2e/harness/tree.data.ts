/**
 * Generated sessions for the tree harness: a small hand-made one whose shape the spec knows by heart, and large
 * ones (long linear turns, branches started from earlier answers) to prove the tree stays fluid.
 */
import { codeStrings } from "../../../src/worker/coded-strings.ts";
import { packStrings } from "../../../src/worker/packed-strings.ts";
import type { EntryColumns, SessionSummary } from "../../../src/worker/protocol.ts";

export interface EntrySpec {
  readonly parent: number;
  readonly kind: string;
  readonly preview: string;
  readonly label?: string;
}

export function summaryOf(fileName: string, entries: readonly EntrySpec[]): SessionSummary {
  const columns: EntryColumns = {
    count: entries.length,
    ids: entries.map((_, i) => `e${i}`),
    lines: Int32Array.from(entries, (_, i) => i + 2),
    parents: Int32Array.from(entries, (e) => e.parent),
    kinds: codeStrings(entries.map((e) => e.kind)),
    previews: packStrings(entries.map((e) => e.preview)),
    labels: new Map(entries.flatMap((e, i) => (e.label === undefined ? [] : [[i, e.label] as const]))),
    inCycle: [],
  };
  return {
    key: fileName,
    fileName,
    bytes: 0,
    kind: "pi-session",
    kindDescription: "pi session",
    sessionId: fileName,
    parentSession: undefined,
    cwd: "/demo",
    timestamp: undefined,
    title: fileName,
    version: 3,
    models: [],
    diagnostics: [],
    entries: columns,
    defaultLeaf: entries.length > 0 ? entries.length - 1 : undefined,
  };
}

/**
 * 0 user → 1–6 assistant/tool work (a run) → 7 "fixed" (labelled, a branch point) → { 8 user → 9 model change →
 * 10 assistant } and { 11 user → 12 assistant → 13 compaction → 14 user → 15 assistant, the leaf }.
 */
export function smallSession(): SessionSummary {
  return summaryOf("small.jsonl", [
    { parent: -1, kind: "user", preview: "Fix the parser bug" },
    { parent: 0, kind: "assistant", preview: "Let me look at the parser" },
    { parent: 1, kind: "toolResult", preview: "read src/parser.ts" },
    { parent: 2, kind: "assistant", preview: "Found the off-by-one" },
    { parent: 3, kind: "toolResult", preview: "edit src/parser.ts" },
    { parent: 4, kind: "assistant", preview: "Running the tests" },
    { parent: 5, kind: "toolResult", preview: "npm test: 3 passed" },
    { parent: 6, kind: "assistant", preview: "Fixed, the tests pass", label: "fixed" },
    { parent: 7, kind: "user", preview: "Now add docs" },
    { parent: 8, kind: "model_change", preview: "anthropic/claude-sonnet-4" },
    { parent: 9, kind: "assistant", preview: "Docs added" },
    { parent: 7, kind: "user", preview: "Instead, refactor the lexer" },
    { parent: 11, kind: "assistant", preview: "Refactoring the lexer" },
    { parent: 12, kind: "compaction", preview: "Compacted 12 entries" },
    { parent: 13, kind: "user", preview: "Continue" },
    { parent: 14, kind: "assistant", preview: "Done with the lexer" },
  ]);
}

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOOLS = ["read", "edit", "bash", "grep", "write"];
const TASKS = ["fix the failing test", "explain this function", "add a CLI flag", "refactor the loader", "write docs"];

/** About `count` entries: turns of user → (assistant → tool result)×1–5 → assistant, `branches` of them forked. */
export function largeSession(count: number, branches: number, seed = 1): SessionSummary {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const entries: EntrySpec[] = [];
  const answers: number[] = [];
  const add = (parent: number, kind: string, preview: string, label?: string) =>
    entries.push({ parent, kind, preview, ...(label ? { label } : {}) }) - 1;
  const turn = (parent: number): number => {
    let p = parent;
    const r = rnd();
    if (r < 0.02) p = add(p, "model_change", `${pick(["anthropic", "openai"])}/model-${entries.length}`);
    else if (r < 0.03) p = add(p, "compaction", `Compacted ${entries.length} entries`);
    else if (r < 0.04) p = add(p, "thinking_level_change", pick(["low", "high", "off"]));
    p = add(p, "user", `Turn ${entries.length}: ${pick(TASKS)}`);
    for (let s = 1 + Math.floor(rnd() * 5); s > 0; s--) {
      const tool = pick(TOOLS);
      p = add(p, "assistant", `Calling ${tool}`);
      p = add(p, "toolResult", `${tool}: ok (${Math.floor(rnd() * 400)} lines)`);
    }
    const label = entries.length % 400 < 12 ? `checkpoint ${entries.length}` : undefined;
    p = add(p, "assistant", `Done: ${pick(TASKS)}`, label);
    answers.push(p);
    return p;
  };
  const perChain = Math.floor(count / (branches + 1));
  for (let chain = 0; chain <= branches; chain++) {
    const end = Math.min(count, entries.length + perChain);
    let tip = chain === 0 ? -1 : pick(answers);
    while (entries.length < end) tip = turn(tip);
  }
  return summaryOf(`large-${count}.jsonl`, entries);
}
