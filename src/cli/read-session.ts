/** Reads a session file from disk in chunks through the same incremental loader the browser worker uses. */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { SessionLoader } from "../core/session/load.ts";
import { indexTree, type EntryTree } from "../core/session/tree.ts";
import { err, ok, type Result } from "../core/result.ts";

export async function readSession(path: string): Promise<Result<EntryTree>> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return err(`${path}: is a folder; name the .jsonl session files inside it`);
  } catch (error) {
    return err(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const loader = new SessionLoader(basename(path));
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 }))
      loader.push(chunk as Uint8Array);
  } catch (error) {
    return err(`${path}: reading failed part-way (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return ok(indexTree(loader.finish()));
}
