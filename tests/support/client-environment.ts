/**
 * A vitest environment that is Node with the page's module graph: `.svelte.ts` modules are compiled for the
 * browser, so `$effect` and `$derived` run as they do in the page (Node's own environment compiles them for the
 * server, where effects never run). The `page-state` project of vitest.config.ts uses it for `*.svelte.test.ts`,
 * and resolves packages with the "browser" condition so `svelte` itself is its browser build.
 */
import type { Environment } from "vitest/environments";

export default {
  name: "client-node",
  viteEnvironment: "client",
  setup: () => ({ teardown: () => {} }),
} satisfies Environment;
