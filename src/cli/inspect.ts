/** `inspect FILE`: what the file is, its statistics, and every diagnostic found while loading it. */
import { describeDiagnostic } from "../core/session/diagnostics.ts";
import { entryKind, sessionModels } from "../core/session/describe.ts";
import { leavesOf, type EntryTree } from "../core/session/tree.ts";
import { parse } from "./args.ts";
import type { Output } from "./output.ts";
import { readSession } from "./read-session.ts";

const USAGE = "inspect FILE";

function count(values: Iterable<string>): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return (
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(", ") || "none"
  );
}

export function inspectLines(tree: EntryTree, path: string): string[] {
  const f = tree.file;
  const lines = [`file: ${path}`, `kind: ${f.kindDescription}`, `bytes: ${f.stats.bytes}`, `lines: ${f.stats.lines}`];
  if (f.header) {
    lines.push(
      `session: ${f.header.id}${tree.name ? ` "${tree.name}"` : ""}`,
      `file version: ${f.version}${f.version < 3 ? " (migrated to 3)" : ""}`,
      // A field of another type is in the diagnostics below (the header does not match pi's schema).
      ...(typeof f.header.cwd === "string" && f.header.cwd ? [`cwd: ${f.header.cwd}`] : []),
      ...(typeof f.header.parentSession === "string" && f.header.parentSession
        ? [`forked from: ${f.header.parentSession}`]
        : []),
      `entries: ${tree.entries.length} (${count(tree.entries.map(entryKind))})`,
      `roots: ${tree.roots.length}, branch points: ${tree.children.filter((c) => c.length > 1).length}, leaves: ${leavesOf(tree).length}`,
      `labels: ${tree.labels.size}`,
      `models: ${sessionModels(tree.entries).join(", ") || "none"}`,
    );
  }
  const diagnostics = [...f.diagnostics, ...tree.diagnostics];
  lines.push(`diagnostics: ${diagnostics.length}`);
  for (const d of diagnostics) lines.push(`  ${describeDiagnostic(d)}`);
  return lines;
}

export async function inspectCommand(args: readonly string[], out: Output): Promise<number> {
  const parsed = parse(args, {});
  if (!parsed.ok) return out.usage(parsed.error, USAGE);
  const [path, extra] = parsed.value.positionals;
  if (!path || extra) return out.usage("name exactly one session file", USAGE);
  const tree = await readSession(path);
  if (!tree.ok) return out.fail(tree.error);
  for (const line of inspectLines(tree.value, path)) out.line(line);
  return tree.value.file.kind === "pi-session" ? 0 : 1;
}
