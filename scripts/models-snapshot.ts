/** The registry data as generated from pi-ai; shared by the generator and the staleness test. */
import { getModels, getProviders } from "@mariozechner/pi-ai";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const packageJson = fileURLToPath(new URL("../node_modules/@mariozechner/pi-ai/package.json", import.meta.url));
const piAiVersion = (JSON.parse(readFileSync(packageJson, "utf8")) as { version: string }).version;

export function registrySnapshot(): { piAiVersion: string; models: unknown[] } {
  const models = getProviders().flatMap((provider) => getModels(provider));
  return { piAiVersion, models: JSON.parse(JSON.stringify(models)) as unknown[] };
}
