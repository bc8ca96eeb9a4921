/** Command-line parsing shared by the commands: repeated options, and errors that say what to type instead. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { err, ok, type Result } from "../core/result.ts";

export type Options = NonNullable<ParseArgsConfig["options"]>;

export function parse(
  args: readonly string[],
  options: Options,
): Result<{ values: Record<string, unknown>; positionals: string[] }> {
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    return ok({ values: values as Record<string, unknown>, positionals });
  } catch (error) {
    return err((error as Error).message);
  }
}

export function strings(value: unknown): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value.map(String) : [String(value)];
}
