/**
 * The inspector panel on a page of its own (tests/e2e/harness/inspector.*), served by a Vite dev server this spec
 * starts: the app shell is built elsewhere, and the project's web server only builds index.html.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { serveHarness } from "./support/harness-server.ts";

const harness = serveHarness("inspector");

/** Opens the harness on fixture entry `index` (see the ENTRIES list in the harness) and returns the inspector. */
async function openEntry(page: Page, index: number) {
  await page.goto(`${harness.origin()}/tests/e2e/harness/inspector.html?entry=${index}`);
  const inspector = page.getByRole("region", { name: "Inspector" });
  await expect(inspector).toBeVisible();
  return inspector;
}

/** The value shown for a labelled fact ("Exit code" → "1") inside `scope`. */
function fact(scope: Locator, label: string): Locator {
  return scope
    .locator("dl > div")
    .filter({ has: scope.page().getByRole("term").getByText(label, { exact: true }) })
    .getByRole("definition");
}

test("renders user markdown with a heading, a highlighted code block and an image thumbnail", async ({ page }) => {
  const inspector = await openEntry(page, 0);
  await expect(inspector.getByRole("heading", { name: "user" })).toBeVisible();
  await expect(fact(inspector, "Line")).toHaveText("2");
  await expect(fact(inspector, "Label")).toHaveText("start");
  await expect(inspector.getByRole("heading", { name: "Plan of attack", level: 3 })).toBeVisible();

  const code = inspector.locator("pre code.language-ts");
  await expect(code).toContainText("const answer = 42; // the answer");
  await expect(code.locator(".hl-keyword").first()).toHaveText("const");
  await expect(code.locator(".hl-comment")).toHaveText("// the answer");
  await expect(code.locator(".hl-string")).toHaveText('"hi "');
  await expect(code.locator(".hl-number")).toHaveText("42");

  const link = inspector.getByRole("link", { name: "the docs" });
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");

  const thumbnail = inspector.getByRole("button", { name: /Enlarge image \(image\/png/ });
  await expect(thumbnail.getByRole("img")).toHaveAttribute("src", /^data:image\/png;base64,/);
  await thumbnail.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("img")).toHaveAttribute("src", /^data:image\/png;base64,/);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});

test("shows an assistant turn: model, usage, cost, collapsed thinking and paired tool calls", async ({ page }) => {
  const inspector = await openEntry(page, 1);
  await expect(inspector.getByRole("heading", { name: "assistant" })).toBeVisible();
  await expect(inspector.getByRole("definition").filter({ hasText: "claude-sonnet-4-5" })).toBeVisible();
  await expect(inspector).toContainText("Stop reason: toolUse");
  await expect(fact(inspector, "Input")).toHaveText("1,200");
  await expect(fact(inspector, "Cache read")).toHaveText("300");
  await expect(fact(inspector, "Total tokens")).toHaveText("1,585");
  await expect(fact(inspector, "Cost")).toHaveText("$0.0123");

  const thinking = inspector.locator("details", { has: page.getByText("Thinking", { exact: true }) });
  await expect(thinking).not.toHaveAttribute("open");
  await expect(thinking.getByText("Let me")).toBeHidden();
  await thinking.getByText("Thinking", { exact: true }).click();
  await expect(thinking.getByText("look", { exact: true })).toBeVisible();

  const read = inspector.getByRole("article", { name: "Tool call read" });
  await expect(read.getByLabel("Arguments of read")).toHaveText('{\n  "path": "README.md"\n}');
  const bashCall = inspector.getByRole("article", { name: "Tool call bash" });
  await expect(bashCall).toContainText("No result in this session");
  await expect(bashCall.getByRole("button")).toHaveCount(0);

  await read.getByRole("button", { name: "Go to result (line 4)" }).click();
  expect(await page.evaluate(() => window.__navigations)).toEqual([2]);
  await expect(inspector.getByRole("heading", { name: "toolResult" })).toBeVisible();
  await expect(inspector).toContainText("Result of read");
  await inspector.getByRole("button", { name: "Go to call (line 3)" }).click();
  await expect(inspector.getByRole("heading", { name: "assistant" })).toBeVisible();
});

test("flags a tool result without a call, and errors", async ({ page }) => {
  const inspector = await openEntry(page, 3);
  await expect(inspector).toContainText("No matching call");
  await expect(inspector.getByText("Error", { exact: true })).toBeVisible();
  await expect(inspector.getByRole("button", { name: /Go to call/ })).toHaveCount(0);

  const failed = await openEntry(page, 7);
  await expect(failed).toContainText("Stop reason: error");
  await expect(failed).toContainText("529 overloaded_error: Overloaded");
  await expect(failed).toContainText("Redacted thinking");
});

test("shows bash executions, compactions, custom messages and unknown entry types", async ({ page }) => {
  const run = await openEntry(page, 4);
  await expect(run.getByLabel("Command")).toHaveText("$ npm test");
  await expect(run.getByLabel("Output")).toHaveText("ok 1\nok 2");
  await expect(fact(run, "Exit code")).toHaveText("1");
  await expect(run.getByText("Excluded from context (!!)")).toBeVisible();
  await expect(run).toContainText("Full output: /tmp/out.log");

  const compaction = await openEntry(page, 5);
  await expect(compaction.getByRole("heading", { name: "Summary", level: 4 })).toBeVisible();
  await expect(fact(compaction, "Tokens before")).toHaveText("12345");
  await expect(fact(compaction, "First kept entry")).toHaveText("u1");

  const custom = await openEntry(page, 8);
  await expect(fact(custom, "Custom type")).toHaveText("ui_status");
  await expect(fact(custom, "Display")).toHaveText("false");
  await expect(custom.getByText("green", { exact: true })).toBeVisible();

  const unknown = await openEntry(page, 10);
  await expect(unknown.getByRole("heading", { name: "future_thing" })).toBeVisible();
  await expect(unknown.getByRole("region", { name: "Diagnostics" })).toContainText('Unknown entry type "future_thing"');
});

test("shows raw JSON with images elided, and copies text and JSON", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: harness.origin() });
  const inspector = await openEntry(page, 2);
  const raw = inspector.getByLabel("Raw JSON of the entry");
  await expect(raw).toBeHidden();
  await inspector.getByText("Raw JSON", { exact: true }).click();
  await expect(raw).toContainText('"toolCallId": "call-1"');
  await expect(raw).toContainText('"data": "<92 bytes of base64>"');
  await expect(raw).not.toContainText("iVBORw0KGgo");

  await inspector.getByRole("button", { name: "Copy text" }).click();
  await expect(inspector.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("file contents");

  await inspector.getByRole("button", { name: "Copy JSON" }).click();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
    message: { content: { data?: string }[] };
  };
  expect(copied.message.content[1]!.data).toMatch(/^iVBORw0KGgo/);
});

test("a hostile entry runs nothing and requests nothing off the page's origin", async ({ page }) => {
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  const inspector = await openEntry(page, 6);
  await expect(inspector).toContainText('[image "a" not loaded: https://example.com/a.png]');
  await expect(inspector).toContainText("[Image not shown: image/svg+xml");
  await expect(inspector.locator("script, iframe, svg, form, input, style, [style]")).toHaveCount(0);
  await expect(inspector.locator("[onerror], [onload], [onclick]")).toHaveCount(0);
  for (const img of await inspector.locator(".markdown img").all()) {
    expect(await img.getAttribute("src")).toBeNull();
  }

  const link = inspector.getByText("click me", { exact: true });
  await expect(link).not.toHaveAttribute("href");
  await link.click();
  await inspector.getByText("styled", { exact: true }).click();
  await page.waitForTimeout(300);

  expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(page.context().pages()).toHaveLength(1);
  const offOrigin = requests.filter((url) => !url.startsWith(`${harness.origin()}/`) && !url.startsWith("data:"));
  expect(offOrigin).toEqual([]);
});

test("has no accessibility violations axe can find, thinking and raw JSON open", async ({ page }) => {
  for (const index of [0, 1, 2, 3, 4, 6, 7, 10]) {
    const inspector = await openEntry(page, index);
    for (const summary of await inspector.locator("summary").all()) await summary.click();
    const results = await new AxeBuilder({ page }).include('section[aria-label="Inspector"]').analyze();
    expect(results.violations.map((v) => `entry ${index}: ${v.id} ${v.nodes.map((n) => n.html).join(" ")}`)).toEqual(
      [],
    );
  }
});
