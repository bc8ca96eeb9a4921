/**
 * Regenerates src/core/models/registry.json from the pinned @mariozechner/pi-ai's getModels(), so the browser
 * bundle carries pi's model data without pi-ai itself. `npm run models` runs it; a test fails when it is stale.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { registrySnapshot } from "./models-snapshot.ts";

const target = fileURLToPath(new URL("../src/core/models/registry.json", import.meta.url));
writeFileSync(target, `${JSON.stringify(registrySnapshot(), null, 1)}\n`);
console.log(`wrote ${target}`);
