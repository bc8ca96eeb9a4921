/** The model registry shipped to the browser is pi-ai's getModels() at the pinned version; stale data fails here. */
import { describe, expect, it } from "vitest";
import registry from "../../src/core/models/registry.json" with { type: "json" };
import { registrySnapshot } from "../../scripts/models-snapshot.ts";

describe("model registry", () => {
  it("equals pi-ai's getModels() (run `npm run models` after upgrading pi-ai)", () => {
    expect(registry).toEqual(registrySnapshot());
  });
});
