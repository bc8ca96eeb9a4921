/**
 * A Vite dev server for one harness page under tests/e2e/harness (a component on a page of its own): the
 * project's Playwright web server only builds index.html. Call in a spec's top level; read `origin()` in tests.
 */
import { test } from "@playwright/test";
import { createServer, type ViteDevServer } from "vite";

export function serveHarness(name: string): { origin: () => string } {
  let server: ViteDevServer | undefined;
  let origin = "";
  test.beforeAll(async () => {
    server = await createServer({
      root: process.cwd(),
      logLevel: "warn",
      cacheDir: `node_modules/.vite-${name}-e2e`,
      server: { host: "127.0.0.1", port: 0, strictPort: false, hmr: false, watch: null },
      optimizeDeps: { entries: [`tests/e2e/harness/${name}.html`] },
    });
    await server.listen();
    origin = new URL(server.resolvedUrls!.local[0]!).origin;
  });
  test.afterAll(async () => {
    await server?.close();
  });
  return { origin: () => origin };
}
