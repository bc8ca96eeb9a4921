/** The cache chart's lines drawn from fewer points: the same line at the chart's width, gaps kept. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { linePoints } from "../../src/ui/tree/line-points.ts";

/** Index ranges of the columns, as linePoints cuts them. */
function columnsOf(n: number, columns: number): [number, number][] {
  return Array.from({ length: columns }, (_, c) => [
    Math.floor((c * n) / columns),
    Math.floor(((c + 1) * n) / columns),
  ]);
}

const values = fc.array(fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: undefined, freq: 20 }), {
  maxLength: 1200,
  size: "max",
});

describe("linePoints", () => {
  it("keeps every point when there are no more than four a column", () => {
    const ys = [3, undefined, 5, 1];
    expect(linePoints(ys, 1)).toEqual([
      { x: 1, y: 3 },
      { x: 2, y: undefined },
      { x: 3, y: 5 },
      { x: 4, y: 1 },
    ]);
  });

  it("keeps each column's first, lowest, highest and last value in order, and every gap", () => {
    fc.assert(
      fc.property(values, fc.integer({ min: 1, max: 100 }), (ys, columns) => {
        const points = linePoints(ys, columns);
        // Points of the line itself, in order, each once.
        points.forEach((p, k) => {
          expect(p.y).toBe(ys[p.x - 1]);
          if (k > 0) expect(p.x).toBeGreaterThan(points[k - 1]!.x);
        });
        // Every gap stays a gap.
        const gaps = ys.flatMap((y, i) => (y === undefined ? [i + 1] : []));
        expect(points.filter((p) => p.y === undefined).map((p) => p.x)).toEqual(gaps);
        if (ys.length <= 4 * columns) {
          expect(points).toHaveLength(ys.length);
          return;
        }
        // In each run of values between gaps within a column: its ends, its lowest and its highest.
        const drawn = new Set(points.map((p) => p.x - 1));
        for (const [start, end] of columnsOf(ys.length, columns)) {
          let run: number[] = [];
          for (let i = start; i <= end; i++) {
            if (i < end && ys[i] !== undefined) {
              run.push(i);
              continue;
            }
            if (run.length > 0) {
              const vals = run.map((j) => ys[j] as number);
              expect(drawn.has(run[0]!)).toBe(true);
              expect(drawn.has(run.at(-1)!)).toBe(true);
              const kept = run.filter((j) => drawn.has(j)).map((j) => ys[j] as number);
              expect(Math.min(...kept)).toBe(Math.min(...vals));
              expect(Math.max(...kept)).toBe(Math.max(...vals));
              expect(kept.length).toBeLessThanOrEqual(4);
            }
            run = [];
          }
        }
      }),
      { endOnFailure: true }, // shrinking arrays this long takes minutes
    );
  });

  it("draws 20,000 requests with at most four points a column", () => {
    const ys = Array.from({ length: 20_000 }, (_, i) => (i % 997 === 0 ? undefined : (i * 7919) % 100_000));
    const points = linePoints(ys, 1000);
    const gaps = ys.filter((y) => y === undefined).length;
    expect(points.length).toBeLessThanOrEqual(4 * 1000 + 2 * gaps);
    expect(points.at(-1)).toEqual({ x: 20_000, y: ys[19_999] });
  });
});
