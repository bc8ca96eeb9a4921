import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Compiles the runes of `.svelte.ts` modules, so the app's state classes are tested as they run in the page.
  plugins: [svelte()],
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: ["src/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/diff/**/*.test.ts"],
          exclude: ["**/*.svelte.test.ts"],
          environment: "node",
        },
      },
      {
        // Tests that watch effects run: Svelte is compiled and resolved for the browser (see the environment).
        extends: true,
        resolve: { conditions: ["browser"] },
        test: {
          name: "page-state",
          include: ["tests/unit/**/*.svelte.test.ts"],
          environment: "./tests/support/client-environment.ts",
        },
      },
    ],
  },
});
