/**
 * The tree's view-side pieces: the opening view (leaf centred, its path in view), the display order search hits
 * are visited in, filters that keep branch order, and the placement's trip through the layout worker.
 */
import { describe, expect, it } from "vitest";
import { inDisplayOrder, shownForest } from "../../src/ui/tree/forest.ts";
import { openLayoutChannel } from "../../src/ui/tree/layout-client.ts";
import { entryPath, layoutTree, nodesOf, nodesOfPaced, type TreeLayout } from "../../src/ui/tree/layout.ts";
import { layoutSource, placeNodes, placementBuffers } from "../../src/ui/tree/placement.ts";
import { CARD, openingTransform } from "../../src/ui/tree/viewport.ts";
import { codeStrings } from "../../src/worker/coded-strings.ts";
import { packStrings } from "../../src/worker/packed-strings.ts";
import type { EntryColumns } from "../../src/worker/protocol.ts";

/** Columns from [parent, kind] rows. */
function cols(rows: readonly (readonly [number, string])[]): EntryColumns {
  return {
    count: rows.length,
    ids: rows.map((_, i) => `e${i}`),
    lines: Int32Array.from(rows, (_, i) => i + 2),
    parents: Int32Array.from(rows, (r) => r[0]),
    kinds: codeStrings(rows.map((r) => r[1])),
    previews: packStrings(rows.map((_, i) => `entry ${i}`)),
    labels: new Map([[3, "here"]]),
    inCycle: [],
  };
}

const lay = (columns: EntryColumns, leaf: number): TreeLayout =>
  layoutTree(columns, { expanded: new Set(), leaf, path: entryPath(columns, leaf) });

/** Where node `i` appears on screen under transform `t`. */
const onScreen = (layout: TreeLayout, i: number, t: { x: number; y: number; k: number }) => ({
  x: layout.nodes[i]!.x * t.k + t.x,
  y: layout.nodes[i]!.y * t.k + t.y,
});

describe("openingTransform", () => {
  // 0 → 1 → four branches 2…5, each a user then an assistant; the leaf is the last branch's assistant (entry 9).
  const rows: [number, string][] = [
    [-1, "user"],
    [0, "assistant"],
  ];
  for (let b = 0; b < 4; b++) rows.push([1, "user"]);
  for (let b = 0; b < 4; b++) rows.push([2 + b, "assistant"]);
  const columns = cols(rows);
  const layout = lay(columns, 9);
  const leaf = layout.nodeOfEntry[9]!;
  const parent = layout.nodeOfEntry[1]!;

  it("puts the leaf at the centre when its path fits around it", () => {
    const t = openingTransform(layout, leaf, 2000, 600);
    expect(onScreen(layout, leaf, t)).toEqual({ x: 1000, y: 300 });
    expect(t.k).toBe(1);
  });

  it("moves sideways towards a path in other lanes, keeping the leaf's card in view and its row centred", () => {
    // The branch point sits above the middle of its four lanes, 1.5 lanes (360 px) left of the leaf.
    expect(layout.nodes[leaf]!.x - layout.nodes[parent]!.x).toBe(360);
    const width = 700;
    const t = openingTransform(layout, leaf, width, 600, 1, 24);
    const at = onScreen(layout, leaf, t);
    expect(at.y).toBe(300);
    expect(at.x).toBeGreaterThan(width / 2);
    expect(at.x + CARD.width / 2).toBeLessThanOrEqual(width - 24);
    const p = onScreen(layout, parent, t);
    expect(p.x - CARD.width / 2).toBeGreaterThanOrEqual(24);
  });

  it("keeps the leaf's card in view when the path cannot fit, and centres it in a viewport narrower than a card", () => {
    const t = openingTransform(layout, leaf, 400, 600, 1, 24);
    const at = onScreen(layout, leaf, t);
    expect(at.x - CARD.width / 2).toBeGreaterThanOrEqual(24);
    expect(at.x + CARD.width / 2).toBeLessThanOrEqual(400 - 24);
    expect(onScreen(layout, leaf, openingTransform(layout, leaf, 150, 600))).toEqual({ x: 75, y: 300 });
  });

  it("looks only at path nodes in the rows on screen", () => {
    // 300 px tall at scale 1: 150 px above the leaf's row (120 px up) holds the branch point's row.
    const tall = openingTransform(layout, leaf, 700, 300, 1, 24);
    const short = openingTransform(layout, leaf, 700, 60, 1, 24);
    expect(onScreen(layout, leaf, short).x).toBe(350);
    expect(onScreen(layout, leaf, tall).x).toBeGreaterThan(350);
  });
});

describe("display order", () => {
  // 0 → { 1 → 3, 2 }: the file has 2 before 3, the tree shows 3 (first branch) before 2.
  const columns = cols([
    [-1, "user"],
    [0, "user"],
    [0, "user"],
    [1, "user"],
  ]);

  it("visits search hits top to bottom, first branch first, whatever their order in the file", () => {
    expect([...inDisplayOrder(columns, Int32Array.from([3, 2, 0]))]).toEqual([0, 3, 2]);
    expect([...inDisplayOrder(columns, Int32Array.from([2, 3, 99, -1]))]).toEqual([3, 2]);
  });

  it("keeps the whole tree's branch order under a filter, so hits are visited in the order drawn", () => {
    // 0 → { 1 → 4, 2 } with 1 hidden: 4 now hangs from 0 beside 2, and still comes first, as in the whole tree.
    const filtered = cols([
      [-1, "user"],
      [0, "assistant"],
      [0, "user"],
      [2, "user"],
      [1, "user"],
    ]);
    const visible = Int32Array.from([0, 2, 3, 4]);
    expect([...shownForest(filtered, visible, undefined).order]).toEqual([0, 4, 2, 3]);
    const layout = layoutTree(filtered, { expanded: new Set(), visible });
    expect(layout.nodes.map((n) => n.entry)).toEqual([0, 4, 2, 3]);
    expect([...inDisplayOrder(filtered, Int32Array.from([3, 2, 4]))]).toEqual([4, 2, 3]);
  });
});

describe("placement through the layout worker", () => {
  const rows: [number, string][] = [[-1, "user"]];
  for (let i = 1; i < 40; i++) rows.push([i % 13 === 0 ? 1 : i - 1, i % 5 === 0 ? "user" : "assistant"]);
  const columns = cols(rows);
  const options = { expanded: new Set([2]), leaf: 30 };

  it("is made of transferable typed arrays only, and gives the same layout after the trip", () => {
    const placement = placeNodes(layoutSource(columns), options);
    const copy = structuredClone(placement, { transfer: placementBuffers(placement) });
    expect(placement.entry.byteLength).toBe(0); // moved, not copied
    const viaWorker = nodesOf(copy, columns);
    const here = layoutTree(columns, options);
    expect(viaWorker.nodes).toEqual(here.nodes);
    expect(viaWorker.segments).toEqual(here.segments);
    expect(viaWorker.branchLinks).toEqual(here.branchLinks);
    expect(viaWorker.rows).toEqual(here.rows);
    expect(here.nodes.find((n) => n.entry === 3)?.label).toBe("here");
  });

  it("can be made into nodes a slice at a time, with a pause between slices, to the same layout", async () => {
    const placement = placeNodes(layoutSource(columns), options);
    let pauses = 0;
    const counted = async () => {
      pauses += 1;
      return true;
    };
    const paced = (await nodesOfPaced(placement, columns, counted, 7))!;
    const whole = nodesOf(placement, columns);
    expect(placement.entry.length).toBeGreaterThan(14);
    expect(pauses).toBe(Math.ceil(placement.entry.length / 7) - 1);
    expect(paced.nodes).toEqual(whole.nodes);
    expect(paced.segments).toEqual(whole.segments);
    expect(paced.branchLinks).toEqual(whole.branchLinks);
    // No longer wanted at the second pause: nothing more is made.
    let asked = 0;
    expect(await nodesOfPaced(placement, columns, async () => (asked += 1) < 2, 7)).toBeUndefined();
    expect(asked).toBe(2);
  });

  it("lets the latest request win: a request still waiting is answered undefined when a newer one comes", async () => {
    const channel = openLayoutChannel(layoutSource(columns));
    const first = channel.place({ expanded: new Set(), leaf: 10 });
    const replaced = channel.place({ expanded: new Set(), leaf: 20 });
    const latest = channel.place({ expanded: new Set(), leaf: 30 });
    const [a, b, c] = await Promise.all([first, replaced, latest]);
    expect(b).toBeUndefined();
    expect(nodesOf(a!, columns).nodes.find((n) => n.isLeaf)?.entry).toBe(10);
    expect(nodesOf(c!, columns).nodes.find((n) => n.isLeaf)?.entry).toBe(30);
    channel.close();
    await expect(channel.place({ expanded: new Set() })).rejects.toThrow(/No layout source/);
  });
});
