/** A snapshot's path as rows: runs of entries with one fate and no payload item are one row each. */
import { describe, expect, it } from "vitest";
import type { SnapshotPathEntry } from "../../src/core/snapshot/schema.ts";
import { pathRows, rowOf } from "../../src/ui/share/path-rows.ts";
import { pagePath } from "../../src/worker/page-snapshot.ts";

const entry = (line: number, kind: SnapshotPathEntry["fate"]["kind"], reason: string): SnapshotPathEntry =>
  ({ ref: `e${line}`, line, type: "message/user", fate: { kind, reason } }) as SnapshotPathEntry;

const summarised = (line: number) => entry(line, "summarised", "summarised by the compaction on line 9");

/** 6 summarised, the compaction summary, 2 settings, 3 in the payload. */
const entries = [
  ...[1, 2, 3, 4, 5, 6].map(summarised),
  entry(7, "compaction-summary", "the compaction's summary"),
  entry(8, "setting", "a model change"),
  entry(9, "setting", "a model change"),
  entry(10, "in-context", "in the payload"),
  entry(11, "in-context", "in the payload"),
  entry(12, "in-context", "in the payload"),
];
const path = pagePath(entries);
const inPayload = new Set([6, 9, 10, 11]);

describe("pathRows", () => {
  it("makes one row of a run of three or more entries with the same fate outside the payload", () => {
    expect(pathRows(path, inPayload)).toEqual([
      { kind: "run", from: 0, to: 5 },
      ...[6, 7, 8, 9, 10, 11].map((position) => ({ kind: "entry", position })),
    ]);
  });

  it("never folds an entry that has a payload item, nor entries of different fates", () => {
    const all = new Set(entries.map((_, i) => i));
    expect(pathRows(path, all).every((row) => row.kind === "entry")).toBe(true);
    // Two settings are too short a run; the compaction summary has a fate of its own.
    const rows = pathRows(path, new Set());
    expect(rows.filter((row) => row.kind === "run")).toEqual([
      { kind: "run", from: 0, to: 5 },
      { kind: "run", from: 9, to: 11 },
    ]);
  });

  it("lists an opened run entry by entry, its first and last entries saying which run they are in", () => {
    expect(pathRows(path, inPayload, new Set([0])).slice(0, 7)).toEqual([
      { kind: "entry", position: 0, inRun: { from: 0, to: 5 } },
      ...[1, 2, 3, 4].map((position) => ({ kind: "entry", position })),
      { kind: "entry", position: 5, inRun: { from: 0, to: 5 } },
      expect.not.objectContaining({ inRun: expect.anything() }),
    ]);
  });

  it("lists every entry of the path exactly once", () => {
    const rows = pathRows(path, new Set([2, 10]));
    const positions = rows.flatMap((row) =>
      row.kind === "entry" ? [row.position] : Array.from({ length: row.to - row.from + 1 }, (_, k) => row.from + k),
    );
    expect(positions).toEqual(entries.map((_, i) => i));
  });
});

describe("rowOf", () => {
  it("finds the row holding a position, inside a run too", () => {
    const rows = pathRows(path, inPayload);
    expect([0, 3, 5, 6, 11].map((p) => rowOf(rows, p))).toEqual([0, 0, 0, 1, 6]);
    expect(rowOf(rows, 12)).toBe(-1);
  });
});
