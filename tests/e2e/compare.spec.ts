/** The Compare tab as a person uses it, on the built-in sample: another preset, another model, another leaf. */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { assistant, header, session, toolCall, toolResult, user } from "../support/build.ts";
import { watchRequests } from "./support/requests.ts";

const compare = (page: Page) => page.getByRole("region", { name: "Compare" });
const summary = (page: Page) => page.getByRole("region", { name: "Comparison summary" });
const changes = (page: Page) => page.getByRole("list", { name: "Changes from A to B" });

let offOrigin: string[] = [];

/** Opens a session that reads `logs` logs, a tool call and its result each, then answers once (logs + 1 requests). */
async function openReadingLogs(page: Page, id: string, logs: number): Promise<void> {
  const text = session(
    header({ id }),
    user("u1", null, "Read every log"),
    ...Array.from({ length: logs }, (_, i) => i + 1).flatMap((n) => [
      assistant(`a${n}`, n === 1 ? "u1" : `r${n - 1}`, [toolCall(`call_${n}`, "read", { path: `log${n}.txt` })]),
      toolResult(`r${n}`, `a${n}`, `call_${n}`, [{ type: "text", text: `log ${n}` }]),
    ]),
    assistant("a_last", `r${logs}`, "All logs read."),
  );
  await page
    .getByLabel("Open session files")
    .setInputFiles({ name: `${id}.jsonl`, mimeType: "application/jsonl", buffer: Buffer.from(text) });
}

test.beforeEach(async ({ page }) => {
  offOrigin = watchRequests(page);
  await page.goto("/");
  await page.evaluate(() => indexedDB.deleteDatabase("keyval-store"));
  await page.goto("/");
  await page.getByRole("tree", { name: "Session tree" }).waitFor();
  await page.getByRole("tab", { name: "Compare" }).click();
});

test.afterEach(() => {
  expect(offOrigin).toEqual([]);
});

test("pi against Lean: what thinking dropped saves, item by item, with a text diff, a JSON diff and the cache chart", async ({
  page,
}) => {
  await expect(compare(page).getByLabel("B's preset")).toHaveValue("Lean");
  await expect(summary(page)).toContainText("pi 0.73.1 · line 57 · openai/gpt-5.1-codex");
  await expect(summary(page).getByTestId("token-delta")).toHaveText(/^−[\d,]+$/);
  await expect(summary(page)).toContainText(
    /First divergence: item 2 of B: assistant turn on line 26: thinking dropped\. [\d,]+ tokens of B from there on cannot be served from a prompt cache/,
  );
  const rows = changes(page).getByRole("listitem");
  await expect(rows).toHaveCount(7);
  await expect(rows.first()).toContainText(/changed\s*assistant turn on line 26: thinking dropped\s*−[\d,]+ tokens/);
  for (const text of await rows.allInnerTexts()) expect(text).toMatch(/−[\d,]+ tokens/);

  const first = rows.first();
  await first.getByRole("button", { name: "Text diff" }).click();
  await expect(first.getByRole("button", { name: "Text diff" })).toHaveAttribute("aria-expanded", "true");
  await expect(first.locator("del")).toContainText("Unit prices have at most two decimals");
  await expect(first).toContainText(/[\d,]+ characters removed, 0 added \(word\s+by word\)/);

  await compare(page).getByLabel("Show unchanged").check();
  await expect(rows).toHaveCount(28);
  await compare(page).getByRole("button", { name: "JSON diff" }).click();
  const json = page.getByRole("region", { name: "JSON diff" });
  await expect(json).toContainText(/\d+ paths differ/);
  await expect(json).toContainText("input[11]");

  const chart = page.getByRole("figure", { name: "Prompt size and cache-reusable prefix, request by request" });
  await expect(chart.getByRole("img")).toHaveAttribute(
    "aria-label",
    /A \(pi 0\.73\.1\): 16 requests, the cache breaks on 1/,
  );
  await chart.getByText("The numbers as a table").click();
  await expect(chart.getByRole("table")).toBeVisible();
  await expect(chart.getByRole("row")).toHaveCount(17);
  await expect(chart.getByRole("row").nth(8)).toContainText("line 39 (break)");

  const results = await new AxeBuilder({ page }).include('[aria-label="Compare"]').analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});

test("two models: every item sent differently, the cost at each model's price, no cache across models", async ({
  page,
}) => {
  await compare(page).getByLabel("another model").check();
  const search = compare(page).getByRole("combobox", { name: "Search models" });
  await search.fill("anthropic sonnet-4-5");
  await page.getByRole("option", { name: /^anthropic\/claude-sonnet-4-5 / }).click();
  await expect(summary(page)).toContainText("anthropic/claude-sonnet-4-5 · 27 items");
  await expect(summary(page)).toContainText("at $3 per million input tokens");
  await expect(summary(page)).toContainText(
    "First divergence: the model (openai/gpt-5.1-codex → anthropic/claude-sonnet-4-5): a prompt cache is never shared across models.",
  );
  await expect(changes(page).getByRole("listitem").first()).toContainText(
    "compaction summary on line 35: same text, sent differently (anthropic-messages request format)",
  );
  await expect(changes(page)).toContainText("tool results of read and read on lines 40 and 41");
  const chart = page.getByRole("figure", { name: /Prompt size and cache-reusable prefix/ });
  await expect(chart.getByRole("img")).toHaveAttribute("aria-label", /B \(anthropic\/claude-sonnet-4-5\): 16 requests/);
});

test("two leaves: by typing a line, and by picking in the tree without moving A", async ({ page }) => {
  await compare(page).getByLabel("another leaf").check();
  await expect(compare(page)).toContainText("Choose B's leaf: type an entry id or line, or pick it in the tree.");
  await compare(page).getByLabel("B's leaf").fill("line:999");
  await compare(page).getByRole("button", { name: "Use" }).click();
  await expect(compare(page).getByRole("alert")).toContainText("has no entry “line:999”");
  await compare(page).getByLabel("B's leaf").fill("31");
  await compare(page).getByRole("button", { name: "Use" }).click();
  await expect(summary(page)).toContainText("leaf line 31 · line 31 · anthropic/claude-sonnet-4-5");
  await expect(changes(page)).toContainText("compaction summary on line 35 removed (in B: not on B's path)");
  await expect(changes(page)).toContainText(
    "user message on line 4 added (in A: summarised by the compaction on line 35)",
  );

  const tree = page.getByRole("tree", { name: "Session tree" });
  const selected = await tree.getByRole("treeitem", { selected: true }).innerText();
  await compare(page).getByRole("button", { name: "Pick in tree" }).click();
  await expect(compare(page)).toContainText("Choose an entry in the tree: it becomes B's leaf");
  // Searching brings the entry into view; clicking it makes it B's leaf.
  await page.getByRole("searchbox", { name: "Search entries" }).fill("finance needs 40.01");
  const target = tree.getByRole("treeitem", { name: /Hmm, no — finance needs 40\.01/ });
  await expect(target).toHaveAccessibleName(/current search hit/);
  await target.click();
  await expect(compare(page)).toContainText("B's leaf: line 23 (61d772ea).");
  await expect(summary(page)).toContainText("leaf line 23 · line 23");
  await expect(changes(page)).toContainText("user message on line 23 added (in A: not on A's path)");
  await expect(changes(page)).toContainText("bash output on line 55 removed (in B: not on B's path)");
  expect(await tree.getByRole("treeitem", { selected: true }).innerText()).toBe(selected);
});

test("a long comparison is drawn 500 changes at a time, more on asking", async ({ page }) => {
  // 700 tool calls and results: another model sends every one of the 1,402 items differently.
  await openReadingLogs(page, "many-changes", 700);
  // The file is listed a moment before its view replaces the sample's (with a Compare view of its own): wait for it.
  await expect(
    page
      .getByRole("navigation", { name: "Open sessions" })
      .locator('[aria-current="true"]', { hasText: "Read every log" }),
  ).toBeVisible();
  await compare(page).getByLabel("another model").check();
  await compare(page).getByRole("combobox", { name: "Search models" }).fill("google gemini-2.5-pro");
  await page.getByRole("option", { name: /^google\/gemini-2\.5-pro / }).click();
  await expect(summary(page)).toContainText("google/gemini-2.5-pro");
  const rows = changes(page).getByRole("listitem");
  await expect(rows).toHaveCount(500);
  await expect(compare(page)).toContainText(/500 of 1,40\d changes shown\./);
  await compare(page).getByRole("button", { name: "Show 500 more" }).click();
  await expect(rows).toHaveCount(1000);
  await compare(page)
    .getByRole("button", { name: /^Show \d+ more$/ })
    .click();
  await expect(compare(page).getByRole("button", { name: /^Show \d+ more$/ })).toHaveCount(0);
  expect(await rows.count()).toBeGreaterThan(1000);
  await expect(compare(page)).not.toContainText("changes shown.");

  // The cache chart's table of its 701 requests is made a page at a time.
  const chart = page.getByRole("figure", { name: /Prompt size and cache-reusable prefix/ });
  await expect(chart.getByRole("img")).toHaveAttribute("aria-label", /B \(google\/gemini-2\.5-pro\): 701 requests,/);
  await chart.getByText("The numbers as a table").click();
  const tableRows = chart.getByRole("row");
  await expect(tableRows).toHaveCount(501);
  await chart.getByRole("button", { name: "Show 201 more of 701 requests" }).click();
  await expect(tableRows).toHaveCount(702);
  await expect(chart.getByRole("button", { name: /more of 701 requests/ })).toHaveCount(0);
});

test("a text diff of a tool result cut by a rule shows the two ends of what was cut, and how much", async ({
  page,
}) => {
  const log = Array.from({ length: 20_000 }, (_, i) => `${i + 1}: request served in ${(i * 7) % 900} ms `).join("\n");
  const text = session(
    header({ id: "big-log" }),
    user("u1", null, "Read the server log"),
    assistant("a1", "u1", [toolCall("call_1", "read", { path: "server.log" })]),
    toolResult("r1", "a1", "call_1", [{ type: "text", text: log }]),
    assistant("a2", "r1", "The server is fast."),
  );
  await page
    .getByLabel("Open session files")
    .setInputFiles({ name: "big-log.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(text) });
  await expect(summary(page)).toContainText("Lean · line 5");
  const row = changes(page).getByRole("listitem").filter({ hasText: "tool result of read on line 4: truncated" });
  await row.getByRole("button", { name: "Text diff" }).click();
  const removed = row.locator("del");
  await expect(removed).toContainText(/\[… [\d,]+ more characters removed …\]/);
  const number = (s: string) => Number(s.replace(/\D/g, ""));
  const removedChars = number((await row.getByText(/characters removed, /).innerText()).split(" characters")[0]!);
  expect(removedChars).toBeGreaterThan(log.length / 2);
  // Drawn: the first and last thousand characters of the removed run, not the hundreds of thousands between.
  expect(number(await row.locator("del .skipped").innerText())).toBe(removedChars - 2000);
  expect((await removed.innerText()).length).toBeLessThan(2_100);
  await expect(removed).toContainText("20000: request served in");
});

test("a long session's cache chart is drawn as its requests are measured", async ({ page }) => {
  // 1,201 requests on a path without compaction: each is projected and counted whole, which takes the worker seconds.
  await openReadingLogs(page, "many-requests", 1200);
  const chart = page.getByRole("figure", { name: /Prompt size and cache-reusable prefix/ });
  await expect(chart.getByRole("img")).toHaveAttribute("aria-label", /of 1,201 requests measured so far/);
  // The counts are shown, but the live region holds only the words (it would be read out a few times a second).
  const measuring = compare(page).getByText("Measuring every request on the path");
  await expect(measuring).toHaveRole("status");
  await expect(measuring).toHaveText("Measuring every request on the path for the cache chart…");
  await expect(measuring.locator("..")).toContainText(/of 1,201 requests/);
  await expect(chart.getByRole("img")).toHaveAttribute("aria-label", /A \(pi 0\.73\.1\): 1,201 requests,/, {
    timeout: 60_000,
  });
  await expect(chart.getByRole("img")).toHaveAttribute("aria-label", /B \(Lean\): 1,201 requests,/, {
    timeout: 60_000,
  });
  await expect(compare(page).getByText("Measuring every request on the path")).toHaveCount(0);
});
