/** The rules panel, presets, the model picker, the payload region and the validator, as a person uses them. */
import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { assistant, header, session, toolCall, user } from "../support/build.ts";
import { longSession } from "../unit/tokens-fixtures.ts";

const file = (name: string, text: string) => ({ name, mimeType: "application/json", buffer: Buffer.from(text) });

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() => indexedDB.deleteDatabase("keyval-store"));
  await page.goto("/");
  await page.getByRole("tree", { name: "Session tree" }).waitFor();
  await page.getByRole("tab", { name: "Payload" }).click();
});

const rules = (page: Page) => page.getByRole("region", { name: "Projection rules" });
const payload = (page: Page) => page.getByRole("region", { name: "Provider payload" });
const facts = (page: Page) => page.getByRole("group", { name: "Projection summary" });

test("the default preset is pi exactly; a rule changes the payload and the app says so", async ({ page }) => {
  await expect(rules(page).getByText(/pi 0\.73\.1 exactly: the payload is what pi would send/)).toBeVisible();
  await expect(payload(page)).toBeVisible();
  const before = await facts(page).innerText();
  expect(before).toMatch(/(\d+) input items/);
  const items = Number(/(\d+) input items/.exec(before)![1]);

  await rules(page).getByLabel("Drop thinking").check();
  await expect(rules(page).getByText(/Differs from pi 0\.73\.1 in 1 rule: Drop thinking/)).toBeVisible();
  await expect(facts(page)).toContainText("what-if rules");
  await expect
    .poll(async () => Number(/(\d+) input items/.exec(await facts(page).innerText())![1]))
    .toBeLessThan(items);
  // Each rule says what flipping it changes on this path.
  await expect(rules(page).locator('[data-rule="apply-compaction"]')).toContainText(
    /Switching it off changes \d+ entries/,
  );
  await rules(page).getByLabel("Drop thinking").uncheck();
  await expect(rules(page).getByText(/pi 0\.73\.1 exactly/)).toBeVisible();
});

test("an extension message type that is not text is listed by what it is, and can be left out", async ({ page }) => {
  const odd = session(
    header({ id: "odd-type" }),
    user("u1", null, "hi"),
    assistant("a1", "u1", "hello"),
    {
      type: "custom_message",
      id: "c1",
      parentId: "a1",
      timestamp: "2026-01-01T00:00:03.000Z",
      customType: { v: 1 },
      content: "note",
      display: true,
    },
    user("u2", "c1", "and?"),
  );
  await page.getByLabel("Open session files").setInputFiles(file("odd.jsonl", odd));
  const type = rules(page).getByRole("checkbox", { name: "(empty, or not text)" });
  await expect(type).toBeChecked();
  await type.uncheck();
  await expect(rules(page).getByText(/Differs from pi 0\.73\.1 in 1 rule: Extension messages/)).toBeVisible();
});

test("presets: save, survive a reload, rename, export, import (and refuse a bad file), delete", async ({ page }) => {
  const panel = rules(page);
  await panel.getByLabel("Block images").check();
  await panel.getByRole("button", { name: "Save as…" }).click();
  await panel.getByLabel("Preset name").fill("No pictures");
  await panel.getByRole("button", { name: "Save", exact: true }).click();
  await expect(panel.getByText("Saved as “No pictures”.")).toBeVisible();

  await page.reload();
  await page.getByRole("tab", { name: "Payload" }).click();
  await expect(panel.getByLabel("Preset", { exact: true })).toHaveValue("No pictures");
  await expect(panel.getByLabel("Block images")).toBeChecked();

  await panel.getByRole("button", { name: "Rename…" }).click();
  await panel.getByLabel("New name").fill("Text only");
  await panel.getByRole("button", { name: "Rename", exact: true }).click();
  await expect(panel.getByLabel("Preset", { exact: true })).toHaveValue("Text only");

  const downloading = page.waitForEvent("download");
  await panel.getByRole("button", { name: "Export" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("text-only.preset.json");
  const exported = JSON.parse(readFileSync((await download.path())!, "utf8"));
  expect(exported).toEqual({
    format: "context-lens/preset",
    version: 1,
    name: "Text only",
    settings: { blockImages: true },
  });

  await panel.getByLabel("Import presets").setInputFiles(file("broken.json", '{"format":"context-lens/preset"'));
  await expect(panel.getByRole("alert")).toContainText("broken.json is not JSON");
  await panel
    .getByLabel("Import presets")
    .setInputFiles(file("odd.json", JSON.stringify({ ...exported, settings: { blockImages: "yes" } })));
  await expect(panel.getByRole("alert")).toContainText("odd.json is not a valid preset: at settings.blockImages");
  await panel.getByLabel("Import presets").setInputFiles(file("text-only.preset.json", JSON.stringify(exported)));
  await expect(panel.getByText("Imported “Text only (2)”.")).toBeVisible();

  await panel.getByRole("button", { name: "Delete" }).click();
  await expect(panel.getByLabel("Preset", { exact: true }).locator("option")).toHaveText([
    "pi 0.73.1",
    "Whole path (no compaction)",
    "Lean",
    "Text only (2)",
  ]);
});

test("the model picker searches the whole registry and re-targets the payload", async ({ page }) => {
  await expect(facts(page)).toContainText("openai/gpt-5.1-codex");
  const search = rules(page).getByRole("combobox", { name: "Search models" });
  await search.fill("anthropic sonnet-4-5");
  await page.getByRole("option", { name: /^anthropic\/claude-sonnet-4-5 / }).click();
  await expect(facts(page)).toContainText("anthropic/claude-sonnet-4-5 (anthropic-messages)");
  await expect(facts(page)).toContainText(/\d+ messages items/);
  await rules(page)
    .getByRole("button", { name: /Use the session's model/ })
    .click();
  await expect(facts(page)).toContainText("openai/gpt-5.1-codex");
});

test("tool definitions are checked against the expected shape", async ({ page }) => {
  const tools = rules(page).locator('[data-rule="tools"] textarea');
  await tools.fill('[{"name": "read"}]');
  await tools.blur();
  await expect(rules(page).getByRole("alert")).toContainText("at 0.description");
  await tools.fill('[{"name": "read", "description": "Read a file", "parameters": {"type": "object"}}]');
  await tools.blur();
  await expect(rules(page).getByRole("alert")).toHaveCount(0);
  await expect(payload(page)).toContainText('"tools"');
});

test("the validator links a finding to its entry", async ({ page }) => {
  const orphan = session(
    header({ id: "orphan-1" }),
    user("u1", null, "run it"),
    assistant("a1", "u1", [toolCall("call_1", "bash", { command: "ls" })]),
    user("u2", "a1", "never mind"),
  );
  await page.getByLabel("Open session files").setInputFiles(file("orphan.jsonl", orphan));
  await page.getByRole("tab", { name: "Payload" }).click();
  const validator = page.getByRole("region", { name: "Validator" });
  await expect(validator).toContainText("1 warning");
  await expect(validator).toContainText("tool call bash (call_1) has no result");
  await validator.getByRole("button", { name: "line 3" }).click();
  const tree = page.getByRole("tree", { name: "Session tree" });
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText(/bash|ls|assistant/i);
});

test("the validator lists a hundred findings at first and more on request", async ({ page }) => {
  const entries = [header({ id: "many-findings" }), user("u0", null, "start")];
  for (let i = 0; i < 150; i += 1) {
    entries.push(assistant(`a${i}`, `u${i}`, [toolCall(`call_${i}`, "bash", { command: `echo ${i}` })]));
    entries.push(user(`u${i + 1}`, `a${i}`, "never mind"));
  }
  await page.getByLabel("Open session files").setInputFiles(file("findings.jsonl", session(...entries)));
  await page.getByRole("tab", { name: "Payload" }).click();
  const validator = page.getByRole("region", { name: "Validator" });
  await expect(validator).toContainText("150 warnings");
  await expect(validator.getByRole("listitem")).toHaveCount(100);
  await expect(validator).toContainText("100 of 150 shown");
  await validator.getByRole("button", { name: "Show 50 more" }).click();
  await expect(validator.getByRole("listitem")).toHaveCount(150);
  await expect(validator.getByRole("listitem").last()).toContainText("call_149");
});

test("axe finds no serious or critical problems on the payload and rules views", async ({ page }) => {
  await expect(payload(page)).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});

test("the tree shows each entry's fate, follows the rules, and highlights what a payload item came from", async ({
  page,
}) => {
  const tree = page.getByRole("tree", { name: "Session tree" });
  await expect(tree.getByRole("treeitem", { selected: true })).toHaveAttribute("aria-label", /in context/);
  const compaction = tree.locator('[data-fate="summary"]');
  await expect(compaction).toHaveCount(1);
  await expect(compaction).toHaveAttribute("title", /compaction summary/);
  await expect(page.getByRole("list", { name: "What reaches the model at this leaf" })).toBeVisible();

  await rules(page).getByLabel("Apply compaction").uncheck();
  await expect(tree.locator('[data-fate="summary"]')).toHaveCount(0);
  const excluded = tree.locator('[data-fate="excluded"]');
  await expect(excluded.first()).toHaveAttribute("aria-label", /excluded by rule Apply compaction/);

  // Pointing at a payload item marks the entries it came from.
  await expect(tree.locator(".pointed")).toHaveCount(0);
  // (the payload view scrolls to what the leaf became, so hover an item that is on screen)
  await payload(page)
    .getByRole("treeitem", { name: /^\[\d+\] user/ })
    .first()
    .hover();
  await expect(tree.locator(".pointed")).not.toHaveCount(0);
});

test("images reach the page as their type and size; copy and download write them whole", async ({ page, context }) => {
  // The session worker posts the payload with stand-ins for images (the page would otherwise hold a copy of
  // every image; tests/unit/page-payload.test.ts checks the stand-ins, figure 3 of the bench the memory): here,
  // the view shows them as images, and the JSON copied or saved, written by the worker, holds the images whole.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const png = (seed: string) => `iVBORw0KGgoAAAANSUhEUgAAAAgAAAAI${seed.repeat(400)}AAAAASUVORK5CYII=`;
  const [first, second] = [png("QUJD"), png("WFla")];
  const openai = { provider: "openai", model: "gpt-5.1-codex", api: "openai-responses" };
  const shots = session(
    header({ id: "shots-1" }),
    user("u1", null, [
      { type: "text", text: "first screenshot" },
      { type: "image", mimeType: "image/png", data: first },
    ]),
    assistant("a1", "u1", "The toggle is off.", openai),
    user("u2", "a1", [
      { type: "text", text: "second screenshot" },
      { type: "image", mimeType: "image/png", data: second },
    ]),
    assistant("a2", "u2", "Now it is on.", openai),
  );
  await page.getByLabel("Open session files").setInputFiles(file("shots.jsonl", shots));
  await page.getByRole("tab", { name: "Payload" }).click();
  // The sample, for the same model, is shown until the file's projection arrives.
  await expect(facts(page)).toContainText("openai/gpt-5.1-codex");
  await expect(facts(page)).toContainText("from 4 path entries");
  const view = payload(page);
  const item0 = view.getByRole("treeitem", { name: /^\[0\] user/ });
  // Four items start unfolded; the view opened at the leaf's item, the last one.
  await view.locator(".scroller").evaluate((element) => element.scrollTo({ top: 0 }));
  await expect(item0).toHaveAttribute("aria-expanded", "true");
  await expect(view.getByRole("treeitem", { name: /^"image_url": <image\/png, 1\.\d KB>/ }).first()).toBeVisible();

  await view.getByRole("button", { name: "Copy JSON" }).click();
  await expect(view.getByRole("status")).toHaveText("Copied the payload");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const body = JSON.parse(copied) as { input: { content?: { type: string; image_url?: string }[] }[] };
  const urls = body.input.flatMap((i) => i.content ?? []).flatMap((p) => (p.image_url ? [p.image_url] : []));
  expect(urls).toEqual([`data:image/png;base64,${first}`, `data:image/png;base64,${second}`]);
  expect(copied).toBe(JSON.stringify(body, null, 2));

  await view.getByRole("button", { name: "Copy item 0" }).click();
  await expect(view.getByRole("status")).toHaveText("Copied item 0");
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(body.input[0]);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    view.getByRole("button", { name: "Download" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("openai-gpt-5.1-codex-payload.json");
  expect(readFileSync((await download.path())!, "utf8")).toBe(copied);
});

test("the tokens panel says a long session's estimators were measured on a spread of its requests", async ({
  page,
}) => {
  await page.getByLabel("Open session files").setInputFiles(file("long.jsonl", longSession(247)));
  await page.getByRole("tab", { name: "Payload" }).click();
  const tokens = page.getByRole("region", { name: "Tokens" });
  await expect(tokens).toContainText(/calibrated|≈/);
  await expect(tokens).toContainText(
    /On a spread of this session's 247 recorded requests: stand-alone estimates off by/,
    {
      timeout: 30_000,
    },
  );
});
