import { svelte } from "@sveltejs/vite-plugin-svelte";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  // Compiles the runes of `.svelte.ts` modules (the app's state classes).
  plugins: [svelte()],
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      {
        // Under Node, Svelte modules are compiled and resolved for the server: state works, effects never run.
        extends: true,
        test: {
          name: "node",
          include: ["src/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/diff/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "**/*.svelte.test.ts"],
          environment: "node",
        },
      },
      {
        // `*.svelte.test.ts` watch effects run: Svelte compiled (the environment) and resolved for the browser.
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
