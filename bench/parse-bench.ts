/**
 * Figure 1: bytes → validated, indexed session, against the least any reader must do with the same bytes
 * (decode them and `JSON.parse` each line).
 */
import { SessionLoader } from "../src/core/session/load.ts";
import { indexTree, type EntryTree } from "../src/core/session/tree.ts";
import { compare, type Figure } from "./timing.ts";

/** The browser worker's slice size. */
const CHUNK = 32 * 1024 * 1024;

/** Our stages 1–4 as the worker runs them: 32 MiB slices into a SessionLoader, then the tree index. */
export function loadAndIndex(bytes: Uint8Array): EntryTree {
  const loader = new SessionLoader("bench.jsonl");
  for (let offset = 0; offset < bytes.byteLength; offset += CHUNK) loader.push(bytes.subarray(offset, offset + CHUNK));
  return indexTree(loader.finish());
}

/** The baseline: TextDecoder over the whole buffer, then `JSON.parse` of every non-empty line. */
export function parseLines(bytes: Uint8Array): unknown[] {
  const text = new TextDecoder().decode(bytes);
  const values: unknown[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (end > start) values.push(JSON.parse(text.slice(start, end)));
    start = end + 1;
  }
  return values;
}

export async function parseFigure(bytes: Uint8Array, reps: number): Promise<Figure> {
  const tree = loadAndIndex(bytes);
  const problems = [...tree.file.diagnostics, ...tree.diagnostics].filter((d) => d.severity !== "info");
  if (problems.length > 0)
    throw new Error(`the generated session has ${problems.length} diagnostics, first: ${problems[0]?.message}`);
  const times = await compare(
    () => loadAndIndex(bytes),
    () => parseLines(bytes),
    reps,
    true,
  );
  const mb = bytes.byteLength / 1e6;
  return {
    name: "parse+validate+index",
    ours: times.ours,
    baseline: times.baseline,
    baselineName: "JSON.parse/line",
    target: 0.5,
    note: `[${mb.toFixed(0)} MB, ${tree.entries.length} entries; ${(mb / (times.ours / 1000)).toFixed(0)} MB/s vs ${(mb / (times.baseline / 1000)).toFixed(0)} MB/s]`,
  };
}
