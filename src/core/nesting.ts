/**
 * Values nested too deep to write. `JSON.parse` reads any depth, but `JSON.stringify` (pi's, when it sends a
 * request; ours, when we show, count or export one) overflows the stack a few thousand levels down, and so does
 * any recursive walk of such a value. Every place that reads JSON from outside checks its result here.
 */

/** How deep arrays and objects may nest: nothing pi writes comes near it, and everything can walk it. */
export const MAX_NESTING = 1000;

/**
 * Where `value` nests deeper than `MAX_NESTING` arrays and objects ("message.content[0].arguments.a…"), or
 * undefined when it does not. A line of fewer than `2 * MAX_NESTING` characters cannot, so callers may skip it.
 */
export function tooDeepAt(value: unknown): string | undefined {
  const path: (string | number)[] = [];
  const walk = (node: unknown, depth: number): boolean => {
    if (typeof node !== "object" || node === null) return false;
    if (depth >= MAX_NESTING) return true;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i += 1) {
        if (walk(node[i], depth + 1)) {
          path.push(i);
          return true;
        }
      }
      return false;
    }
    for (const key in node) {
      if (walk((node as Record<string, unknown>)[key], depth + 1)) {
        path.push(key);
        return true;
      }
    }
    return false;
  };
  if (!walk(value, 0)) return undefined;
  path.reverse();
  const shown = path
    .slice(0, 6)
    .map((step, i) => (typeof step === "number" ? `[${step}]` : i === 0 ? step : `.${step}`));
  return `${shown.join("") || "(the line itself)"}${path.length > shown.length ? "…" : ""}`;
}

/** `JSON.parse`, refusing (with where) a value nested deeper than `MAX_NESTING`; throws SyntaxError or RangeError. */
export function parseJsonShallow(text: string): unknown {
  const value: unknown = JSON.parse(text);
  const at = text.length > 2 * MAX_NESTING ? tooDeepAt(value) : undefined;
  if (at !== undefined)
    throw new RangeError(
      `it nests arrays or objects more than ${MAX_NESTING.toLocaleString("en")} levels deep, at ${at}`,
    );
  return value;
}

/** What stands where `clipNesting` cut a value. */
export const CLIPPED = `(not shown: nested more than ${MAX_NESTING.toLocaleString("en")} levels deep)`;

/**
 * A copy of `value` with whatever lies `depth` levels down replaced by `CLIPPED`: an entry holding a value too
 * deep to write (or to pass to another thread), made showable. Only for such entries; others are passed as they are.
 */
export function clipNesting(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth <= 0) return CLIPPED;
  if (Array.isArray(value)) return value.map((v) => clipNesting(v, depth - 1));
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, clipNesting(v, depth - 1)]));
}
