/**
 * Fewer points for the same line. A long session's cache chart has tens of thousands of requests across a few
 * hundred pixels; drawing every one makes each redraw (a few a second while the series is measured) a long task.
 * Each column keeps its first, lowest, highest and last point in order (M4 aggregation, as time-series plots do),
 * which draws the same line at that width; a request without a value stays a gap.
 */

/** A point to draw: `x` the request number (1-based), `y` its value, undefined for a gap in the line. */
export interface LinePoint {
  readonly x: number;
  readonly y: number | undefined;
}

/**
 * The points of `values` (request 1 first) that draw the line across `columns` columns. Up to four per column,
 * with every gap kept: all of them when there are not more values than that.
 */
export function linePoints(values: readonly (number | undefined)[], columns: number): LinePoint[] {
  const n = values.length;
  if (n <= 4 * columns) return values.map((y, i) => ({ x: i + 1, y }));
  const out: LinePoint[] = [];
  for (let c = 0; c < columns; c++) {
    const start = Math.floor((c * n) / columns);
    const end = Math.floor(((c + 1) * n) / columns);
    let run = start; // the first index of the current run of values
    for (let i = start; i <= end; i++) {
      if (i < end && values[i] !== undefined) continue;
      if (run < i) pushRun(values, run, i, out);
      if (i < end) out.push({ x: i + 1, y: undefined });
      run = i + 1;
    }
  }
  return out;
}

/** The first, lowest, highest and last of values[start..end) (all defined), in order, each once. */
function pushRun(values: readonly (number | undefined)[], start: number, end: number, out: LinePoint[]): void {
  let low = start;
  let high = start;
  for (let i = start + 1; i < end; i++) {
    const y = values[i] as number;
    if (y < (values[low] as number)) low = i;
    if (y > (values[high] as number)) high = i;
  }
  const picked = [start, low, high, end - 1].sort((a, b) => a - b);
  picked.forEach((i, k) => {
    if (k === 0 || i !== picked[k - 1]) out.push({ x: i + 1, y: values[i] });
  });
}
