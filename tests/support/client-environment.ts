/**
 * A vitest environment that is Node with the page's module graph: Svelte modules are compiled and resolved as
 * for the browser, so `$effect` and `$derived` run as they do in the page (under Node's default they are compiled
 * for the server, where effects never run). Name it in a test file's first comment:
 * `@vitest-environment ./tests/support/client-environment.ts`.
 */
import type { Environment } from "vitest/environments";

export default {
  name: "client-node",
  viteEnvironment: "client",
  setup: () => ({ teardown: () => {} }),
} satisfies Environment;
