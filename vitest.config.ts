import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Compiles the runes of `.svelte.ts` modules, so the app's state classes are tested as they run in the page.
  plugins: [svelte()],
  test: {
    include: ["src/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/diff/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
