/**
 * Differential test on real sessions run on custom models (Ollama, kimi-coding, minimax, …): for each corpus file
 * whose model pi-ai's registry does not know, a models.json made from what the session records (provider, model
 * id and api; pi's defaults for the rest) is read by pi's own ModelRegistry and by us, and every leaf's payload for
 * the session's model must be the same.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AuthStorage, ModelRegistry } from "@mariozechner/pi-coding-agent";
import type { Api, Model } from "@mariozechner/pi-ai";
import { readModelsJson } from "../../src/core/models/models-json.ts";
import { builtInModels, findModel, useModels } from "../../src/core/models/registry.ts";
import { leavesOf } from "../../src/core/session/tree.ts";
import { referenceLoad, referenceSessionPayload } from "../reference/pi-session.ts";
import { corpusFiles, HAS_CORPUS } from "../support/corpus.ts";
import { ourPayload, ourSession } from "../support/ours.ts";

const dir = mkdtempSync(join(tmpdir(), "corpus-custom-"));
afterAll(() => {
  useModels(undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** The models a session's assistant messages were answered by that pi-ai does not know, with their api. */
function customModelsOf(text: string): Map<string, { provider: string; id: string; api: string }> {
  const found = new Map<string, { provider: string; id: string; api: string }>();
  for (const line of text.split("\n")) {
    if (!line.includes('"assistant"')) continue;
    let message: Record<string, unknown> | undefined;
    try {
      message = (JSON.parse(line) as { message?: Record<string, unknown> }).message;
    } catch {
      continue;
    }
    const { role, provider, model, api } = message ?? {};
    if (role !== "assistant" || typeof provider !== "string" || typeof model !== "string" || typeof api !== "string")
      continue;
    if (!findModel(provider, model)) found.set(`${provider}/${model}`, { provider, id: model, api });
  }
  return found;
}

/** A models.json defining `models` on a local endpoint, everything else left to pi's defaults. */
function modelsJsonFor(models: Iterable<{ provider: string; id: string; api: string }>): string {
  const providers: Record<string, { baseUrl: string; apiKey: string; models: { id: string; api: string }[] }> = {};
  for (const { provider, id, api } of models) {
    (providers[provider] ??= { baseUrl: "http://127.0.0.1:9/v1", apiKey: "local", models: [] }).models.push({
      id,
      api,
    });
  }
  return JSON.stringify({ providers }, null, 2);
}

const files = corpusFiles()
  .map((file) => ({ file, text: readFileSync(file, "utf8") }))
  .map(({ file, text }) => ({ file, text, custom: customModelsOf(text) }))
  .filter(({ custom }) => custom.size > 0);

describe.skipIf(!HAS_CORPUS)("corpus sessions on custom models: payloads identical to pi with a models.json", () => {
  it("finds such sessions in the corpus", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const { file, text, custom } of files) {
    it(`${basename(file)} (${[...custom.keys()].join(", ")})`, async () => {
      const modelsJson = modelsJsonFor(custom.values());
      const path = join(dir, `${basename(file)}.models.json`);
      writeFileSync(path, modelsJson);
      const registry = ModelRegistry.create(AuthStorage.inMemory(), path);
      expect(registry.getError()).toBeUndefined();
      const lookup = (provider: string, id: string) => registry.find(provider, id) as Model<Api> | undefined;
      const read = readModelsJson(modelsJson, builtInModels());
      if (!read.ok) throw new Error(read.error);
      useModels(read.value.models);
      try {
        const tree = ourSession(text, basename(file));
        const reference = referenceLoad(text);
        let compared = 0;
        for (const leaf of leavesOf(tree)) {
          const entry = tree.entries[leaf]!;
          if (entry.id !== undefined && tree.byId.get(entry.id) !== leaf) continue; // pi: a duplicate id is its last entry
          const ours = ourPayload(tree, leaf, "session");
          const theirs = await referenceSessionPayload(reference, { leafLine: entry.line, model: "session", lookup });
          if ("error" in theirs)
            expect(ours, `line ${entry.line}: pi fails with ${theirs.error}`).toHaveProperty("error");
          else expect(ours, `line ${entry.line}`).toEqual({ payload: theirs.payload });
          if (!("error" in theirs)) compared += 1;
        }
        expect(compared).toBeGreaterThan(0);
      } finally {
        useModels(undefined);
      }
    });
  }
});
