/**
 * JSON helpers for the fuzz properties that never recurse, so a value nested 10,000 deep cannot overflow the
 * checker itself: writing generated values (with raw number literals and keys like `__proto__`), comparing two
 * values, and checking that a value survives `JSON.stringify` as it is.
 */

/** JSON text spliced in as it is: numbers `JSON.stringify` cannot write (`1e400`, `-0`), nesting too deep to build. */
export class RawJson {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** An object with exactly these own keys, `__proto__` included (an assignment would set the prototype instead). */
export function objectOf(pairs: readonly (readonly [string, unknown])[]): Json {
  const out: Json = {};
  for (const [key, value] of pairs)
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/** A fresh copy of a generated value (shallow enough to copy recursively), so changing it leaves the original. */
export function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyOf);
  if (isRecord(value) && !(value instanceof RawJson))
    return objectOf(Object.keys(value).map((k) => [k, copyOf(value[k])]));
  return value;
}

/** JSON text of a generated value: `RawJson` as it is, every own key (even `__proto__`), `undefined` left out. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : toJsonText(v))).join(",")}]`;
  if (isRecord(value)) {
    const fields = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${toJsonText(value[k])}`);
    return `{${fields.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (isRecord(value)) return `an object with keys ${JSON.stringify(Object.keys(value).slice(0, 8))}`;
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  return typeof value === "string" ? JSON.stringify(value.slice(0, 80)) : String(value);
}

/**
 * Where two JSON-like values differ, or undefined when they are the same (numbers by `Object.is`, so -0 ≠ 0).
 * `orderedKeys: false` ignores key order (zod writes objects in schema order).
 */
export function jsonDifference(a: unknown, b: unknown, orderedKeys = true): string | undefined {
  const stack: [unknown, unknown, string][] = [[a, b, "$"]];
  while (stack.length > 0) {
    const [x, y, at] = stack.pop()!;
    if (Object.is(x, y)) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null)
      return `${at}: ${describe(x)} ≠ ${describe(y)}`;
    if (Array.isArray(x) !== Array.isArray(y)) return `${at}: ${describe(x)} ≠ ${describe(y)}`;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return `${at}: ${describe(x)} ≠ ${describe(y)}`;
      x.forEach((v, i) => stack.push([v, y[i], `${at}[${i}]`]));
      continue;
    }
    const [ox, oy] = [x as Json, y as Json];
    const [kx, ky] = [Object.keys(ox), Object.keys(oy)];
    if (!orderedKeys) [kx, ky].forEach((keys) => keys.sort());
    if (kx.length !== ky.length || kx.some((k, i) => k !== ky[i])) return `${at}: ${describe(x)} ≠ ${describe(y)}`;
    for (const k of kx) stack.push([ox[k], oy[k], `${at}.${k}`]);
  }
  return undefined;
}

/** Binary data as JSON holds it (the snapshot writes Bedrock's image bytes as base64 the same way). */
export const bytesAsText = (_key: string, value: unknown): unknown =>
  ArrayBuffer.isView(value) ? `<${value.byteLength} bytes>` : value;

/**
 * Why `value` is not a JSON document as it stands, or undefined: no functions, symbols, bigints, cycles, `NaN` or
 * holes in arrays (JSON would silently turn them into null or drop them), and `JSON.stringify` must succeed.
 * Binary views are allowed (Bedrock sends image bytes) and `undefined` object fields (JSON leaves them out, as pi).
 */
export function unserialisable(value: unknown): string | undefined {
  const onPath = new Set<object>();
  const stack: { value: unknown; at: string; exit?: object }[] = [{ value, at: "$" }];
  while (stack.length > 0) {
    const { value: v, at, exit } = stack.pop()!;
    if (exit) {
      onPath.delete(exit);
      continue;
    }
    if (typeof v === "function" || typeof v === "symbol" || typeof v === "bigint") return `${at} is a ${typeof v}`;
    if (typeof v === "number" && Number.isNaN(v)) return `${at} is NaN`;
    if (typeof v !== "object" || v === null || ArrayBuffer.isView(v)) continue;
    if (onPath.has(v)) return `${at} refers back to an enclosing value (a cycle)`;
    onPath.add(v);
    stack.push({ value: undefined, at, exit: v });
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i += 1) {
        if (!(i in v) || v[i] === undefined) return `${at}[${i}] is undefined (JSON writes null)`;
        stack.push({ value: v[i], at: `${at}[${i}]` });
      }
    } else for (const [k, child] of Object.entries(v)) stack.push({ value: child, at: `${at}.${k}` });
  }
  try {
    return typeof JSON.stringify(value, bytesAsText) === "string" ? undefined : "JSON.stringify gives nothing";
  } catch (error) {
    return `JSON.stringify throws (${(error as Error).message})`;
  }
}
