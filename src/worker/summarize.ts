/** Builds what the UI draws from a parsed session: compact per-entry columns and the session list fields. */
import { entryKind, entryText, preview, sessionModels } from "../core/session/describe.ts";
import type { EntryTree } from "../core/session/tree.ts";
import { codeStrings } from "./coded-strings.ts";
import { packStrings } from "./packed-strings.ts";
import type { EntryColumns, SessionSummary } from "./protocol.ts";

function columns(tree: EntryTree): EntryColumns {
  const n = tree.entries.length;
  const parents = new Int32Array(n);
  tree.parentOf.forEach((p, i) => (parents[i] = p ?? -1));
  return {
    count: n,
    ids: tree.entries.map((e) => e.id),
    lines: Int32Array.from(tree.entries, (e) => e.line),
    parents,
    kinds: codeStrings(tree.entries.map(entryKind)),
    previews: packStrings(tree.entries.map((e) => preview(entryText(e), 160))),
    labels: labelsOf(tree),
    inCycle: [...tree.inCycle],
  };
}

function labelsOf(tree: EntryTree): Map<number, string> {
  const labels = new Map<number, string>();
  tree.entries.forEach((e, index) => {
    const label = e.id !== undefined ? tree.labels.get(e.id)?.label : undefined;
    if (label !== undefined) labels.set(index, label);
  });
  return labels;
}

function firstUserText(tree: EntryTree): string | undefined {
  for (const e of tree.entries) if (entryKind(e) === "user") return preview(entryText(e), 80) || undefined;
  return undefined;
}

export function summarizeSession(tree: EntryTree, key: string): SessionSummary {
  const { file } = tree;
  const header = file.header;
  return {
    key,
    fileName: file.name,
    bytes: file.stats.bytes,
    kind: file.kind,
    kindDescription: file.kindDescription,
    sessionId: header?.id,
    parentSession: typeof header?.parentSession === "string" ? header.parentSession : undefined,
    cwd: typeof header?.cwd === "string" ? header.cwd : undefined,
    timestamp: typeof header?.timestamp === "string" ? header.timestamp : undefined,
    title: tree.name ?? firstUserText(tree) ?? file.name,
    version: file.version,
    models: sessionModels(tree.entries),
    diagnostics: [...file.diagnostics, ...tree.diagnostics],
    entries: columns(tree),
    defaultLeaf: tree.defaultLeaf,
  };
}
