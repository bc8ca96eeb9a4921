/** Real session files from ../shared/corpus; tests that use them skip with a note when it is absent. */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const CORPUS_DIR = fileURLToPath(new URL("../../../shared/corpus", import.meta.url));
export const HAS_CORPUS = existsSync(join(CORPUS_DIR, "pi"));

if (!HAS_CORPUS)
  console.log(`note: ${CORPUS_DIR} is absent; corpus tests are skipped (the project's own fixtures still run)`);

export function corpusFiles(folder = "pi"): string[] {
  if (!HAS_CORPUS) return [];
  const dir = join(CORPUS_DIR, folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => join(dir, f));
}
