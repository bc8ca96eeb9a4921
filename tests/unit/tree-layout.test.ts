/** The tree layout (src/ui/tree/layout.ts): lanes, runs, filters, roots, cycles, and its size and speed limits. */
import { describe, expect, it } from "vitest";
import { bandsIn } from "../../src/ui/tree/bands.ts";
import { buildMore, cardsNow, isSettled } from "../../src/ui/tree/cards.ts";
import { keyAction } from "../../src/ui/tree/keyboard.ts";
import {
  entryPath,
  layoutTree,
  nodeKey,
  placeLanes,
  type LayoutOptions,
  type TreeLayout,
} from "../../src/ui/tree/layout.ts";
import { nodesIn, revealTransform, viewWindow } from "../../src/ui/tree/viewport.ts";
import { codeStrings } from "../../src/worker/coded-strings.ts";
import { packStrings } from "../../src/worker/packed-strings.ts";
import type { EntryColumns } from "../../src/worker/protocol.ts";

type Row = readonly [parent: number, kind: string, label?: string];

/** Columns from rows of [parent, kind, label?]; the preview is the entry's index. */
function cols(rows: readonly Row[], inCycle: readonly number[] = []): EntryColumns {
  return {
    count: rows.length,
    ids: rows.map((_, i) => `e${i}`),
    lines: Int32Array.from(rows, (_, i) => i + 2),
    parents: Int32Array.from(rows, (r) => r[0]),
    kinds: codeStrings(rows.map((r) => r[1])),
    previews: packStrings(rows.map((_, i) => `entry ${i}`)),
    labels: new Map(rows.flatMap((r, i) => (r[2] === undefined ? [] : [[i, r[2]] as const]))),
    inCycle: [...inCycle],
  };
}

/** A chain: `kinds[i]`'s parent is i - 1. */
const chain = (...kinds: string[]): Row[] => kinds.map((kind, i) => [i - 1, kind] as const);
/** `n` alternating assistant / tool result entries. */
const work = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? "toolResult" : "assistant"));

function lay(columns: EntryColumns, options: Partial<LayoutOptions> = {}): TreeLayout {
  const leaf = "leaf" in options ? options.leaf : undefined;
  return layoutTree(columns, { expanded: new Set(), path: entryPath(columns, leaf), ...options });
}

/** Each node as "e3" or "r1-8" (run of entries 1…8), in display order. */
const shape = (layout: TreeLayout) =>
  [...layout.order].map((i) => {
    const n = layout.nodes[i]!;
    return n.kind === "run" ? `r${n.members![0]}-${n.members![n.count - 1]}` : `e${n.entry}`;
  });
const nodeOf = (layout: TreeLayout, entry: number) => layout.nodes[layout.nodeOfEntry[entry]!]!;

describe("layoutTree", () => {
  it("puts branches in separate lanes, side by side on the same rows, rows going down", () => {
    // 0 → 1 → { 2 → 3, 4 → 5 }
    const layout = lay(
      cols([
        [-1, "user"],
        [0, "assistant"],
        [1, "user"],
        [2, "assistant"],
        [1, "user"],
        [4, "assistant"],
      ]),
    );
    expect(shape(layout)).toEqual(["e0", "e1", "e2", "e3", "e4", "e5"]);
    const [a, b, c, d, e, f] = layout.nodes;
    expect(a!.x).toBe(b!.x);
    expect(c!.y).toBe(e!.y);
    expect(Math.abs(c!.x - e!.x)).toBe(layout.laneWidth);
    expect([d!.x, f!.x]).toEqual([c!.x, e!.x]);
    expect(layout.nodes.map((n) => n.y)).toEqual([0, 40, 80, 120, 80, 120]);
    expect(b!.isBranchPoint).toBe(true);
    expect(layout.nodes.map((n) => n.level)).toEqual([1, 1, 2, 2, 2, 2]);
    expect(layout.links.map((l) => [l.source, l.target])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [1, 4],
      [4, 5],
    ]);
    expect(layout.links[3]).toMatchObject({ x1: b!.x, y1: b!.y, x2: e!.x, y2: e!.y });
    expect(layout.segments).toHaveLength(3);
    expect(layout.branchLinks).toHaveLength(2);
    expect(layout.bounds).toEqual({ minX: Math.min(c!.x, e!.x), maxX: Math.max(c!.x, e!.x), minY: 0, maxY: 120 });
  });

  it("collapses four or more plain single-child entries into a run, and leaves shorter chains alone", () => {
    const long = lay(cols(chain("user", ...work(8), "user")));
    expect(shape(long)).toEqual(["e0", "r1-8", "e9"]);
    expect(long.nodes[1]).toMatchObject({ kind: "run", entry: 1, count: 8 });
    expect(nodeKey(nodeOf(long, 5))).toBe("r1");
    expect(shape(lay(cols(chain("user", ...work(3), "user"))))).toEqual(["e0", "e1", "e2", "e3", "e4"]);
    expect(shape(lay(cols(chain("user", ...work(4), "user"))))).toEqual(["e0", "r1-4", "e5"]);
    expect(shape(lay(cols(chain("user", ...work(4), "user")), { minRun: 5 }))).toEqual([
      "e0",
      "e1",
      "e2",
      "e3",
      "e4",
      "e5",
    ]);
  });

  it("keeps notable entries out of runs: labels, compactions, model and thinking changes, branch points", () => {
    const rows = chain(
      "user",
      ...work(5),
      "compaction",
      ...work(5),
      "model_change",
      ...work(4),
      "thinking_level_change",
      ...work(5),
    );
    expect(shape(lay(cols(rows)))).toEqual(["e0", "r1-5", "e6", "r7-11", "e12", "r13-16", "e17", "r18-21", "e22"]);
    const labelled = chain("user", ...work(10)).map((r, i) => (i === 5 ? ([r[0], r[1], "here"] as const) : r));
    const layout = lay(cols(labelled));
    expect(shape(layout)).toEqual(["e0", "r1-4", "e5", "r6-9", "e10"]);
    expect(nodeOf(layout, 5).label).toBe("here");
    // entry 4 has two children: it ends the run above it and is drawn
    const branched: Row[] = [...chain("user", ...work(9)), [4, "user"]];
    expect(shape(lay(cols(branched)))).toEqual(["e0", "e1", "e2", "e3", "e4", "r5-8", "e9", "e10"]);
  });

  it("shows an expanded run entry by entry, marking its first entry so it can fold again", () => {
    const layout = lay(cols(chain("user", ...work(8), "user")), { expanded: new Set([1]) });
    expect(shape(layout)).toEqual(["e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9"]);
    expect(layout.nodes.filter((n) => n.isRunStart).map((n) => n.entry)).toEqual([1]);
  });

  it("never hides the current leaf in a run, and keeps the two entries above it", () => {
    const columns = cols(chain("user", ...work(16), "user"));
    const layout = lay(columns, { leaf: 9 });
    expect(shape(layout)).toEqual(["e0", "r1-6", "e7", "e8", "e9", "r10-16", "e17"]);
    const leaf = nodeOf(layout, 9);
    expect(leaf).toMatchObject({ kind: "entry", isLeaf: true, onPath: true });
    expect(layout.nodes.filter((n) => n.isLeaf)).toHaveLength(1);
    expect(layout.nodes.map((n) => n.onPath)).toEqual([true, true, true, true, true, false, false]);
    expect(layout.segments[0]!.pathY2).toBe(leaf.y);
  });

  it("hangs a hidden entry's visible descendants from its nearest visible ancestor", () => {
    // 0 → 1 → { 2 → 3, 4 }; 1 and 2 hidden
    const columns = cols([
      [-1, "user"],
      [0, "assistant"],
      [1, "user"],
      [2, "assistant"],
      [1, "user"],
    ]);
    const layout = lay(columns, { visible: Int32Array.from([0, 3, 4]) });
    expect(shape(layout)).toEqual(["e0", "e3", "e4"]);
    expect(layout.nodes.map((n) => n.parent)).toEqual([-1, 0, 0]);
    expect(layout.nodes[0]!.isBranchPoint).toBe(true);
    expect(nodeOf(layout, 2).entry).toBe(0);
    // the filtered-out leaf is still drawn
    expect(shape(lay(columns, { visible: Int32Array.from([0]), leaf: 3 }))).toEqual(["e0", "e3"]);
    expect(shape(lay(columns, { visible: new Int32Array(0) }))).toEqual([]);
  });

  it("lays several roots side by side under a virtual root", () => {
    const layout = lay(
      cols([
        [-1, "user"],
        [0, "assistant"],
        [-1, "user"],
        [2, "assistant"],
        [-1, "session_info"],
      ]),
    );
    const roots = layout.nodes.filter((n) => n.parent === -1);
    expect(roots.map((n) => n.entry)).toEqual([0, 2, 4]);
    expect(roots.map((n) => n.depth)).toEqual([0, 0, 0]);
    expect(new Set(roots.map((n) => n.x)).size).toBe(3);
    expect(roots.map((n) => n.level)).toEqual([1, 1, 1]);
  });

  it("cuts parent cycles instead of looping on them", () => {
    // 0 is a root; 1 ⇄ 2 form a cycle with 3 hanging off 2; 4 is its own parent; 5 points past the end.
    const columns = cols(
      [
        [-1, "user"],
        [2, "user"],
        [1, "assistant"],
        [2, "user"],
        [4, "user"],
        [99, "user"],
      ],
      [1, 2, 4],
    );
    const layout = lay(columns, { leaf: 3 });
    expect(shape(layout)).toEqual(["e0", "e1", "e2", "e3", "e4", "e5"]);
    expect([1, 2, 3].map((e) => nodeOf(layout, e).depth)).toEqual([0, 1, 2]);
    expect(nodeOf(layout, 2).inCycle).toBe(true);
    expect([...entryPath(columns, 3)]).toEqual([3, 2, 1]);
  });

  it("numbers nodes in pre-order: a parent before its children, a first child right after its parent", () => {
    const rows: Row[] = [
      [-1, "user"],
      [0, "user"],
      [0, "user"],
      [1, "user"],
      [2, "user"],
      [1, "user"],
      [3, "user"],
    ];
    const layout = lay(cols(rows));
    expect(shape(layout)).toEqual(["e0", "e1", "e3", "e6", "e5", "e2", "e4"]);
    layout.nodes.forEach((n, i) => {
      expect(n.parent).toBeLessThan(i);
      if (n.childCount > 0) expect(layout.nodes[i + 1]!.parent).toBe(i);
    });
  });
});

/** A pseudo-random tree in pre-order: each node's parent is an earlier node, biased towards long chains. */
function randomForest(n: number, seed: number): Int32Array {
  let s = seed;
  const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const parent = new Int32Array(n);
  const order: number[] = [];
  // build as a tree, then renumber in pre-order
  const p = Array.from({ length: n }, (_, i) => (i === 0 ? -1 : rnd() < 0.9 ? i - 1 : Math.floor(rnd() * i)));
  const kids: number[][] = Array.from({ length: n }, () => []);
  p.forEach((q, i) => q >= 0 && kids[q]!.push(i));
  const stack = [0];
  while (stack.length) {
    const v = stack.pop()!;
    order.push(v);
    for (let c = kids[v]!.length - 1; c >= 0; c--) stack.push(kids[v]![c]!);
  }
  const rank = new Int32Array(n);
  order.forEach((v, i) => (rank[v] = i));
  order.forEach((v, i) => (parent[i] = p[v]! < 0 ? -1 : rank[p[v]!]!));
  return parent;
}

describe("placeLanes", () => {
  it("gives the same lanes with redundant rows contracted as d3's tidy tree over every row", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const parent = randomForest(400, seed);
      expect(placeLanes(parent, 1, true)).toEqual(placeLanes(parent, 1, false));
    }
  });
});

/** Median-free timing: the best of a few runs, so a busy machine measures the code rather than its neighbours. */
function bestOf<T>(runs: number, f: () => T): { ms: number; result: T } {
  let best = Infinity;
  let result: T | undefined;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    result = f();
    best = Math.min(best, performance.now() - t0);
  }
  return { ms: best, result: result! };
}

/** `count` entries in turns (user, then assistant/tool work), `branches` of the turns forked from earlier answers. */
function session(count: number, branches: number): EntryColumns {
  const rows: [number, string][] = [];
  const per = Math.floor(count / (branches + 1));
  let seed = 7;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  for (let i = 0; i < count; i++) {
    const forks = i > 0 && i % per === 0 && i / per <= branches;
    rows.push([i === 0 ? -1 : forks ? Math.floor(rnd() * i) : i - 1, i % 12 === 0 ? "user" : work(2)[i % 2]!]);
  }
  return cols(rows);
}

describe("layoutTree at size", () => {
  it("lays out a 100,000-entry chain without recursion, folded or not", () => {
    const columns = session(100_000, 0);
    const leaf = 99_999;
    const folded = bestOf(3, () => lay(columns, { leaf }));
    console.log(`100,000-entry chain: ${folded.ms.toFixed(1)} ms, ${folded.result.nodes.length} nodes`);
    expect(folded.result.nodes.length).toBeLessThan(30_000);
    expect(folded.result.segments).toHaveLength(1);
    expect(nodeOf(folded.result, leaf).isLeaf).toBe(true);

    const unfolded = bestOf(1, () => lay(columns, { leaf, minRun: Infinity }));
    console.log(`100,000-entry chain, nothing folded: ${unfolded.ms.toFixed(1)} ms`);
    const nodes = unfolded.result.nodes;
    expect(nodes).toHaveLength(100_000);
    expect(nodes[99_999]).toMatchObject({ depth: 99_999, y: 99_999 * 40, x: nodes[0]!.x, level: 1 });
    expect(unfolded.result.rows.start).toHaveLength(100_001);
  });

  it("lays out 10,000 entries with 100 branches in well under 100 ms", () => {
    const columns = session(10_000, 100);
    const leaf = 9_999;
    const { ms, result } = bestOf(5, () => lay(columns, { leaf }));
    console.log(`10,000 entries / 100 branches: ${ms.toFixed(1)} ms, ${result.nodes.length} nodes`);
    expect(ms).toBeLessThan(100);
    expect(result.nodes.filter((n) => n.isBranchPoint).length).toBeGreaterThanOrEqual(90);
    // no two nodes of a row closer than a lane
    for (let r = 0; r + 1 < result.rows.start.length; r++) {
      for (let j = result.rows.start[r]! + 1; j < result.rows.start[r + 1]!; j++) {
        const gap = result.nodes[result.rows.nodes[j]!]!.x - result.nodes[result.rows.nodes[j - 1]!]!.x;
        expect(gap).toBeGreaterThanOrEqual(result.laneWidth - 1e-6);
      }
    }
    const unfolded = bestOf(3, () => lay(columns, { leaf, minRun: Infinity }));
    console.log(`10,000 entries / 100 branches, nothing folded: ${unfolded.ms.toFixed(1)} ms`);
    expect(unfolded.ms).toBeLessThan(100);
  });
});

describe("viewport and keys", () => {
  const layout = lay(cols(chain("user", ...work(8), "user")), { leaf: 9 });

  it("finds the nodes in a window, and says when there are too many to draw", () => {
    const all = nodesIn(layout, { x0: -1000, y0: -1000, x1: 1000, y1: 10_000 }, 100);
    expect(all).toEqual({ nodes: [0, 1, 2, 3, 4], overflow: false });
    expect(nodesIn(layout, { x0: -1000, y0: 70, x1: 1000, y1: 90 }, 100).nodes).toEqual([1, 2, 3]);
    expect(nodesIn(layout, { x0: -1000, y0: -1000, x1: 1000, y1: 10_000 }, 2).overflow).toBe(true);
  });

  it("snaps the window so that a small pan keeps it", () => {
    const t = { x: 400, y: 300, k: 1 };
    expect(viewWindow({ ...t, x: 410, y: 295 }, 800, 600)).toEqual(viewWindow(t, 800, 600));
    expect(viewWindow({ ...t, x: 700 }, 800, 600)).not.toEqual(viewWindow(t, 800, 600));
    expect(revealTransform(t, 0, 0, 800, 600)).toBe(t);
    expect(revealTransform(t, 0, 2000, 800, 600).y).toBeLessThan(-1000);
  });

  it("maps keys to moves in display order, parent, child, run expansion and choice", () => {
    expect(keyAction(layout, 0, "ArrowDown")).toEqual({ type: "focus", node: 1 });
    expect(keyAction(layout, 0, "ArrowUp")).toBeUndefined();
    expect(keyAction(layout, 1, "ArrowRight")).toEqual({ type: "expand", run: 1 });
    expect(keyAction(layout, 1, "Enter")).toEqual({ type: "expand", run: 1 });
    expect(keyAction(layout, 2, "ArrowLeft")).toEqual({ type: "focus", node: 1 });
    expect(keyAction(layout, 2, "ArrowRight")).toEqual({ type: "focus", node: 3 });
    expect(keyAction(layout, 3, "Home")).toEqual({ type: "focus", node: 0 });
    expect(keyAction(layout, 0, "End")).toEqual({ type: "focus", node: 4 });
    expect(keyAction(layout, 3, "Enter")).toEqual({ type: "choose", entry: 8 });
    const open = lay(cols(chain("user", ...work(8), "user")), { leaf: 9, expanded: new Set([1]) });
    expect(keyAction(open, 1, "ArrowLeft")).toEqual({ type: "collapse", run: 1 });
  });

  it("builds new cards a budget at a time, nearest the centre first, and keeps the focused one", () => {
    const keyOf = (i: number) => nodeKey(layout.nodes[i]!);
    const wanted = [0, 1, 2, 3, 4];
    const none = new Set<string>();
    expect(cardsNow(wanted, [3], none, keyOf)).toEqual([3]);
    expect(isSettled(wanted, [3], none, keyOf)).toBe(false);
    const first = buildMore(wanted, [3], (i) => layout.nodes[i]!, keyOf, { x: 0, y: 160 }, 2);
    expect(first.added).toBe(2);
    expect([...first.built].sort()).toEqual(["e7", "e8", "e9"]);
    const drawn = cardsNow(wanted, [3], first.built, keyOf);
    expect(drawn).toEqual([2, 3, 4]);
    const all = buildMore(wanted, drawn, (i) => layout.nodes[i]!, keyOf, { x: 0, y: 160 }, 10).built;
    expect(isSettled(wanted, cardsNow(wanted, [3], all, keyOf), all, keyOf)).toBe(true);
  });

  it("cuts the SVG into bands of rows, each built once per layout", () => {
    const big = lay(cols(chain(...Array.from({ length: 100 }, () => "user"))), { leaf: 99 });
    const colour = () => "#000";
    const bands = bandsIn(big, 0, 40 * 40, colour);
    expect(bands.map((b) => b.key)).toEqual(["0-32", "32-64"]);
    expect(bandsIn(big, 0, 40 * 40, colour)[0]).toBe(bands[0]);
    expect(bands[0]!.lines).toBe("M0,0V1280");
    expect(bands[0]!.path).toBe("M0,0V1280");
    expect(bands[0]!.boxes).toHaveLength(1);
    // zoomed out over the whole chain: a few coarser bands
    expect(bandsIn(big, 0, 100 * 40, colour).map((b) => b.key)).toEqual(["0-32", "32-64", "64-96", "96-100"]);
    expect(bandsIn(big, 0, 1000 * 40, colour).length).toBeLessThanOrEqual(4);
  });
});
