/**
 * The payload view on a page of its own (tests/e2e/harness/payload.*), served by a Vite dev server this spec
 * starts. Driven as a person would: roles and names, mouse and keyboard.
 */
import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { serveHarness } from "./support/harness-server.ts";
import { IMAGE_DATA, smallFixture } from "./harness/payload.data.ts";

const harness = serveHarness("payload");
const SMALL = smallFixture();
const MESSAGES = SMALL.body["messages"] as unknown[];

/** Errors the page reported (uncaught exceptions, console errors), checked after every test. */
const pageErrors = new WeakMap<Page, string[]>();

test.afterEach(({ page }) => {
  expect(pageErrors.get(page) ?? []).toEqual([]);
});

async function open(page: Page, query = ""): Promise<Locator> {
  if (!pageErrors.has(page)) {
    const errors: string[] = [];
    pageErrors.set(page, errors);
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
  }
  await page.goto(`${harness.origin()}/tests/e2e/harness/payload.html${query}`);
  const region = page.getByRole("region", { name: "Provider payload" });
  await expect(region.getByRole("treeitem").first()).toBeVisible();
  return region;
}

/** The row of main-list item `index` (its accessible name starts with `[index] `). */
const item = (region: Locator, index: number) =>
  region.getByRole("treeitem", { name: new RegExp(`^\\[${index}\\] `) }).and(region.locator('[aria-level="2"]'));
const focused = (region: Locator) => region.locator('[role="treeitem"]:focus');

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include('section[aria-label="Provider payload"]').analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test.describe("small body", () => {
  test("folds the twelve messages to summaries and unfolds one with the mouse", async ({ page }) => {
    const region = await open(page);
    await expect(region.getByRole("tree", { name: "Payload JSON" })).toBeVisible();
    await expect(region).toContainText("12 messages");
    const first = item(region, 0);
    await expect(first).toHaveAccessibleName('[0] user · "Fix the failing test in src/parser.ts please"');
    await expect(item(region, 1)).toHaveAccessibleName('[1] assistant · "Let me read it." · 2 blocks · calls read');
    await expect(item(region, 2)).toHaveAccessibleName(
      /^\[2\] user · "line 1: ok line 2: ok.*…" · 1 block · tool result$/,
    );
    for (let i = 0; i < MESSAGES.length; i++) await expect(item(region, i)).toHaveAttribute("aria-expanded", "false");

    await item(region, 1).click();
    await expect(item(region, 1)).toHaveAttribute("aria-expanded", "true");
    await expect(region.getByRole("treeitem", { name: '"text": "Let me read it."' })).toBeVisible();
    await expect(region.getByRole("treeitem", { name: '"path": "src/parser.ts"' })).toBeVisible();
    await item(region, 1).click();
    await expect(item(region, 1)).toHaveAttribute("aria-expanded", "false");
    await expect(region.getByText("Let me read it.", { exact: false })).toHaveCount(1); // only the summary

    // Any container folds, not only the items: the top-level tools list.
    const tools = region.getByRole("treeitem", { name: '"tools": [' });
    await tools.click();
    await expect(region.getByRole("treeitem", { name: '"tools": […] 2 items' })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
  });

  test("shows image data as its type and size, and shortens long strings until asked", async ({ page }) => {
    const region = await open(page);
    await item(region, 3).click();
    await expect(region.getByRole("treeitem", { name: '"data": <image/png, 43 KB>' })).toBeVisible();
    expect(await region.innerHTML()).not.toContain(IMAGE_DATA.slice(0, 200));

    await item(region, 2).click();
    const output = region.getByRole("treeitem", { name: /^"content": "line 1: ok\\nline 2: ok.*…",$/ });
    await expect(output).toBeVisible();
    await expect(region.getByText("END-OF-OUTPUT")).toHaveCount(0);
    await output.getByRole("button", { name: /^show all \(\d[\d,]* chars\)$/ }).click();
    await expect(region.getByText("line 2: ok\\n", { exact: true })).toBeVisible();
    await region.getByRole("button", { name: "show less" }).hover();
    await page.mouse.wheel(0, 1000);
    await expect(region.getByText('END-OF-OUTPUT",', { exact: true })).toBeVisible();
    await expect(region.getByText("line 40: ok\\n", { exact: true })).toBeVisible();
    await region.getByRole("button", { name: "show less" }).click();
    await expect(region.getByText("END-OF-OUTPUT")).toHaveCount(0);
  });

  test("moves between items and folds with the keyboard", async ({ page }) => {
    const region = await open(page);
    await region.getByRole("button", { name: "Download" }).focus();
    await page.keyboard.press("Tab");
    await expect(focused(region)).toHaveAccessibleName('"model": "claude-sonnet-4-5",');
    await page.keyboard.press("ArrowDown");
    await expect(focused(region)).toHaveAccessibleName('"messages": [');
    await page.keyboard.press("ArrowDown");
    await expect(focused(region)).toHaveAccessibleName(/^\[0\] user/);
    await page.keyboard.press("ArrowDown");
    await expect(focused(region)).toHaveAccessibleName(/^\[1\] assistant/);

    await page.keyboard.press("ArrowRight");
    await expect(item(region, 1)).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("ArrowRight");
    await expect(focused(region)).toHaveAccessibleName('"role": "assistant",');
    await page.keyboard.press("ArrowLeft");
    await expect(focused(region)).toHaveAccessibleName(/^\[1\] assistant/);
    await page.keyboard.press("ArrowLeft");
    await expect(item(region, 1)).toHaveAttribute("aria-expanded", "false");
    await page.keyboard.press("Enter");
    await expect(item(region, 1)).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press(" ");
    await expect(item(region, 1)).toHaveAttribute("aria-expanded", "false");
    await page.keyboard.press("ArrowLeft");
    await expect(focused(region)).toHaveAccessibleName('"messages": [');

    await page.keyboard.press("End"); // the last line of the last tool's schema
    await expect(focused(region)).toHaveAccessibleName('"type": "string"');
    await expect(focused(region)).toHaveAttribute("aria-level", "6");
    await page.keyboard.press("Home");
    await expect(focused(region)).toHaveAccessibleName('"model": "claude-sonnet-4-5",');
    // The focused row is the only treeitem in the tab order.
    await expect(region.locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1);
  });

  test("copies the whole body and one item as pretty JSON", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: harness.origin() });
    const region = await open(page);
    await region.getByRole("button", { name: "Copy JSON" }).click();
    await expect(region.getByRole("status")).toHaveText("Copied the payload");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(JSON.stringify(SMALL.body, null, 2));

    await item(region, 6).click();
    await item(region, 6).getByRole("button", { name: "Copy item 6" }).click();
    await expect(region.getByRole("status")).toHaveText("Copied item 6");
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(MESSAGES[6]);
  });

  test("downloads the body as <model>-payload.json from a Blob URL", async ({ page }) => {
    const region = await open(page);
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      region.getByRole("button", { name: "Download" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("anthropic-claude-sonnet-4-5-payload.json");
    expect(download.url()).toMatch(/^blob:/);
    const text = await readFile((await download.path())!, "utf8");
    expect(text).toBe(JSON.stringify(SMALL.body, null, 2));
    expect(JSON.parse(text)).toEqual(SMALL.body);
    expect(requests.filter((url) => !url.startsWith("blob:"))).toEqual([]);
  });

  test("reports the entries behind the item pointed at, by hover and by focus", async ({ page }) => {
    const region = await open(page);
    const output = page.getByLabel("Pointed entries");
    await item(region, 6).hover();
    await expect(output).toHaveText("[7,8]");
    await item(region, 7).hover();
    await expect(output).toHaveText("[]");
    await item(region, 2).click();
    await region.getByRole("treeitem", { name: '"role": "user",' }).hover();
    await expect(output).toHaveText("[3]");
    await page.getByRole("heading", { name: "Provider payload" }).hover();
    await expect(output).toHaveText("[3]"); // focus is still on item 2
    await page.getByRole("button", { name: "Show entry" }).focus();
    await expect(output).toHaveText("none");
    await item(region, 0).focus();
    await expect(output).toHaveText("[1]");
  });

  test("scrolls to the item an entry became, unfolds and marks it, or says it is not there", async ({ page }) => {
    const region = await open(page);
    const entry = page.getByLabel("Entry");
    await entry.fill("8");
    await entry.press("Enter");
    await expect(item(region, 6)).toHaveAttribute("aria-current", "true");
    await expect(item(region, 6)).toHaveAttribute("aria-expanded", "true");
    await expect(item(region, 6)).toBeInViewport();
    await expect(region.locator('[aria-current="true"]')).toHaveCount(1);

    await entry.fill("99");
    await entry.press("Enter");
    await expect(region.getByRole("status")).toHaveText("The chosen entry is not in the payload.");
    await expect(region.locator('[aria-current="true"]')).toHaveCount(0);
  });

  test("shows hostile text as text and runs none of it", async ({ page }) => {
    const region = await open(page);
    await item(region, 4).click();
    await item(region, 5).click();
    await expect(region.getByText(`<img src=x onerror=\\"window.__pwned='img'\\">`).first()).toBeVisible();
    await expect(region.getByText("<script>window.__pwned='script'</script>").first()).toBeVisible();
    await expect(region.getByRole("treeitem", { name: /^"<img src=x onerror=.*": "<b>bold\?<\/b>"$/ })).toBeVisible();
    await expect(region.locator("img, script, svg, b")).toHaveCount(0);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  });

  test("shows token counts with their kind at the right of each item", async ({ page }) => {
    const region = await open(page, "?tokens=1");
    await expect(region).toContainText("≈ calibrated token counts");
    await expect(item(region, 0)).toHaveAccessibleName(/· "Fix the failing test in src\/parser\.ts please" ≈100 tok$/);
    await expect(item(region, 3)).not.toHaveAccessibleName(/tok$/);
    await expect(item(region, 11)).toContainText("≈210 tok");
  });

  test("has no serious accessibility violations, folded and unfolded", async ({ page }) => {
    const region = await open(page, "?tokens=1");
    await expectNoSeriousViolations(page);
    await item(region, 3).click();
    await item(region, 2).click();
    await region.getByRole("button", { name: /^show all/ }).click();
    const entry = page.getByLabel("Entry");
    await entry.fill("5");
    await entry.press("Enter");
    await expect(item(region, 4)).toHaveAttribute("aria-current", "true");
    await expectNoSeriousViolations(page);
  });
});

test.describe("2,000 messages, about 20 MB", () => {
  test("opens without a long task over 100 ms and renders a bounded number of rows", async ({ page }) => {
    test.setTimeout(180_000);
    // Long tasks are wall-clock time: on a machine shared with other jobs one may stretch while the page is not
    // even running. So the page is opened up to three times, and the best run must be clean.
    const runs: { longest: number; mount: number; bytes: number }[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const region = await open(page, "?size=large");
      await expect(item(region, 0)).toBeVisible();
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))));
      const run = await page.evaluate(() => ({
        longest: Math.max(0, ...window.__longTasks),
        mount: window.__mountMs ?? NaN,
        bytes: window.__bodyBytes ?? 0,
      }));
      runs.push(run);
      console.log(
        `open ${attempt + 1}: body ${(run.bytes / 1e6).toFixed(1)} MB, mount ${run.mount.toFixed(0)} ms, ` +
          `longest task from mount on ${run.longest.toFixed(0)} ms`,
      );
      expect(run.bytes).toBeGreaterThan(19e6);
      expect(await region.locator('[aria-level="2"]').count()).toBeLessThan(80);
      if (run.longest <= 100) break;
    }
    const best = Math.min(...runs.map((r) => r.longest));
    test.info().annotations.push({ type: "longest task on open", description: `${best.toFixed(1)} ms` });
    expect(best).toBeLessThanOrEqual(100);
  });

  test("keeps the DOM bounded while scrolling and moving far with the keyboard", async ({ page }) => {
    const region = await open(page, "?size=large");
    const rows = region.locator('[aria-level="2"]');
    await expect(item(region, 1)).toHaveAttribute("aria-setsize", "2000");
    await item(region, 0).focus();
    await page.keyboard.press("End");
    await expect(focused(region)).toHaveAccessibleName('"stream": true');
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    await expect(focused(region)).toHaveAccessibleName(/^\[1999\] user/);
    await expect(focused(region)).toBeInViewport();
    expect(await rows.count()).toBeLessThan(80);
    await page.keyboard.press("Home");
    await expect(focused(region)).toHaveAccessibleName('"model": "claude-sonnet-4-5",');
    await region.locator(".scroller").evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    await expect(item(region, 1000)).toBeVisible();
    expect(await rows.count()).toBeLessThan(80);
  });

  test("scrolls far to the item an entry became", async ({ page }) => {
    const region = await open(page, "?size=large");
    const entry = page.getByLabel("Entry");
    await entry.fill("1500");
    await entry.press("Enter");
    await expect(item(region, 1500)).toHaveAttribute("aria-current", "true");
    await expect(item(region, 1500)).toBeInViewport();
    await expect(item(region, 1500)).toHaveAttribute("aria-expanded", "true");
    await expectNoSeriousViolations(page);
  });
});
