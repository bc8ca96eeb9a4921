/**
 * zod, configured once for every schema of the app. The page's Content Security Policy forbids `eval`, and zod
 * would otherwise probe `new Function` to compile object parsers, which the browser reports as a violation:
 * jitless, it parses with plain functions everywhere (browser, worker and CLI alike).
 */
import { z } from "zod";

z.config({ jitless: true });

export { z };

/**
 * `schema.safeParse(data)` for data read from outside (a file, a link, an import) that never throws. zod 4 runs the
 * length checks of strings and arrays (`.min`, `.max`) on any value with a `length` field, even one that failed the
 * type check, and compares that field with a number: JSON such as `{"length": {"toString": 0}}` where text or a
 * list belongs makes the comparison throw. Such data does not match, with an issue at the value that holds it.
 */
export function checkData<S extends z.ZodType>(schema: S, data: unknown): z.ZodSafeParseResult<z.output<S>> {
  try {
    return schema.safeParse(data);
  } catch (error) {
    const trap = lengthTrap(data);
    const issue: z.core.$ZodIssueCustom = {
      code: "custom",
      input: data,
      path: trap ?? [],
      message: trap
        ? 'expected text or a list, found an object whose "length" field holds an object'
        : `cannot be checked (${error instanceof Error ? error.message : String(error)})`,
    };
    return { success: false, error: new z.ZodError([issue]) as z.ZodError<z.output<S>> };
  }
}

/** Where `data` holds an object whose `length` field is an object (not an array), depth first; undefined if nowhere. */
function lengthTrap(data: unknown): PropertyKey[] | undefined {
  const stack: [unknown, PropertyKey[]][] = [[data, []]];
  for (let visited = 0; stack.length > 0 && visited < 100_000; visited += 1) {
    const [value, path] = stack.pop()!;
    if (typeof value !== "object" || value === null) continue;
    const length: unknown = Array.isArray(value) ? undefined : (value as { length?: unknown }).length;
    if (typeof length === "object" && length !== null && !Array.isArray(length)) return path;
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i]!;
      stack.push([child, [...path, Array.isArray(value) ? Number(key) : key]]);
    }
  }
  return undefined;
}
