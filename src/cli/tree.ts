/** `tree FILE`: a readable outline — ids, line numbers, labels, branch points, compaction markers. */
import { entryKind, entryText, preview } from "../core/session/describe.ts";
import type { EntryTree } from "../core/session/tree.ts";
import { parse } from "./args.ts";
import { reportLoad, type Output } from "./output.ts";
import { readSession } from "./read-session.ts";

const USAGE = "tree FILE";

function describeLine(tree: EntryTree, index: number): string {
  const entry = tree.entries[index]!;
  const label = entry.id !== undefined ? tree.labels.get(entry.id) : undefined;
  const marks = [
    label ? `[${label.label}]` : "",
    index === tree.defaultLeaf ? "← leaf" : "",
    tree.children[index]!.length > 1 ? `⑂ ${tree.children[index]!.length} branches` : "",
  ].filter(Boolean);
  const text = preview(entryText(entry), 70);
  return `${entry.id ?? "(no id)"} L${entry.line} ${entryKind(entry)}${text ? `: ${text}` : ""}${marks.length ? `  ${marks.join(" ")}` : ""}`;
}

/**
 * Lines of the outline: a linear run stays at one depth; each branch of a branch point is indented. Entries no
 * root leads to (a parent cycle and what hangs below it) follow under a heading of their own, each cycle from its
 * first entry in the file, so nothing the file holds is left out.
 */
export function outline(tree: EntryTree): string[] {
  const lines: string[] = [];
  const seen = new Uint8Array(tree.entries.length);
  const walk = (start: number, marker: string): void => {
    const stack: { index: number; prefix: string; marker: string }[] = [{ index: start, prefix: "", marker }];
    while (stack.length > 0) {
      const { index, prefix, marker } = stack.pop()!;
      if (seen[index]) continue; // back round a cycle
      seen[index] = 1;
      lines.push(`${prefix}${marker}${describeLine(tree, index)}`);
      const kids = tree.children[index]!.filter((kid) => !seen[kid]);
      const childPrefix = prefix + (marker === "├─ " ? "│  " : marker ? "   " : "");
      if (kids.length === 1) stack.push({ index: kids[0]!, prefix: childPrefix, marker: "" });
      else
        for (let k = kids.length - 1; k >= 0; k -= 1)
          stack.push({ index: kids[k]!, prefix: childPrefix, marker: k === kids.length - 1 ? "└─ " : "├─ " });
    }
  };
  for (const root of tree.roots) walk(root, tree.roots.length > 1 ? "● " : "");
  const unreached = tree.entries.filter((entry) => !seen[entry.index]).length;
  if (unreached > 0) {
    lines.push(`${unreached} ${unreached === 1 ? "entry" : "entries"} no root leads to, in or below a parent cycle:`);
    for (const entry of tree.entries) if (tree.inCycle.has(entry.index) && !seen[entry.index]) walk(entry.index, "↻ ");
  }
  return lines;
}

export async function treeCommand(args: readonly string[], out: Output): Promise<number> {
  const parsed = parse(args, {});
  if (!parsed.ok) return out.usage(parsed.error, USAGE);
  const [path, extra] = parsed.value.positionals;
  if (!path || extra) return out.usage("name exactly one session file", USAGE);
  const tree = await readSession(path);
  if (!reportLoad(tree.ok ? tree.value : undefined, path, out, tree.ok ? undefined : tree.error)) return 1;
  const t = tree.ok ? tree.value : undefined;
  if (!t) return 1;
  const header = t.file.header!;
  out.line(
    `session ${header.id} (file version ${t.file.version}, ${t.entries.length} entries${t.name ? `, "${t.name}"` : ""}${typeof header.cwd === "string" && header.cwd ? `, cwd ${header.cwd}` : ""})`,
  );
  for (const line of outline(t)) out.line(line);
  return 0;
}
