/**
 * Opening a large session in the app: the progress bar shows bytes and entries, Cancel stops the load (the worker
 * checks between 32 MiB slices), and a second try opens the session with its tree. The file (about 100 MB) is
 * generated into a temporary directory with the benchmark's generator and removed afterwards. Timing is the
 * benchmark's business (`npm run bench`, figure 3); this spec checks only what a person sees.
 */
import { expect, test } from "@playwright/test";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateOptions, writeSession } from "../../bench/generate-session.ts";

const ENTRIES = 40_000;
let dir = "";
let path = "";

test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "context-lens-e2e-"));
  path = join(dir, "large-session.jsonl");
  const fd = openSync(path, "w");
  writeSession(generateOptions({ bytes: 100e6, entries: ENTRIES, seed: 3 }), (line) => writeSync(fd, `${line}\n`));
  closeSync(fd);
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("a 100 MB file shows its progress, can be cancelled, and opens with its tree", async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto("/");
  await page.evaluate(() => indexedDB.deleteDatabase("keyval-store"));
  await page.goto("/");
  const input = page.getByLabel("Open session files");
  const loading = page.getByRole("region", { name: "Loading" });
  const list = page.getByRole("navigation", { name: "Open sessions" });

  await input.setInputFiles(path);
  await expect(loading.getByRole("progressbar", { name: "Loading large-session.jsonl" })).toBeVisible();
  // After the first slice: bytes read of the total, and the entries parsed so far.
  await expect(loading).toContainText(/\d+(\.\d)? MB of 95 MB · [\d,]+\s+entries/, { timeout: 60_000 });
  await loading.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("alert")).toContainText("Loading large-session.jsonl was cancelled.", {
    timeout: 60_000,
  });
  await expect(loading).toHaveCount(0);
  // Nothing of the cancelled file is listed (the first-visit sample may or may not be: it stays away once the
  // person has opened a file, and this one may have been opened before or after it arrived).
  await expect(list.locator("button", { hasText: `${ENTRIES} entries` })).toHaveCount(0);

  await input.setInputFiles(path);
  await expect(loading.getByRole("progressbar", { name: "Loading large-session.jsonl" })).toBeVisible();
  const opened = list.locator('[aria-current="true"]', { hasText: `${ENTRIES} entries` });
  await expect(opened).toBeVisible({ timeout: 180_000 });
  const tree = page.getByRole("tree", { name: "Session tree" });
  await expect(tree.getByRole("treeitem", { selected: true })).toBeInViewport({ timeout: 60_000 });
  await expect(loading).toHaveCount(0, { timeout: 60_000 });
});
