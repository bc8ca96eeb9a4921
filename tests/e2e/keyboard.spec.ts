/**
 * Every feature by keyboard alone (Tab, Shift+Tab, Enter, Space, arrows, Escape and typing): no clicks, no fills.
 * On every stop focus is on a real element with a visible indicator, it never falls back to <body> after an
 * action, no widget traps it, and axe finds nothing (WCAG 2.1 A and AA) in each view the journeys reach.
 * The one thing a keyboard cannot show Playwright is the operating system's file dialog: the journeys open it
 * from the keyboard and hand it the files.
 */
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { assistant, header, image, modelChange, session, text, toolCall, user } from "../support/build.ts";
import { watchRequests } from "./support/requests.ts";
import { BRANCHES, DAMAGED, PI_JSON_MODE } from "./support/sessions.ts";
import {
  expectAxeClean,
  expectFocusKept,
  expectNoTrap,
  expectVisibleFocus,
  press,
  tabRound,
  tabTo,
} from "./support/keyboard.ts";

const file = (name: string, text: string) => ({ name, mimeType: "application/jsonl", buffer: Buffer.from(text) });
type Picked = ReturnType<typeof file>;

const sessions = (page: Page) => page.getByRole("navigation", { name: "Open sessions" });
const tree = (page: Page) => page.getByRole("tree", { name: "Session tree" });
const inspector = (page: Page) => page.getByRole("region", { name: "Inspector" });
const tab = (page: Page, name: string | RegExp) => page.getByRole("tab", { name });
const rules = (page: Page) => page.getByRole("region", { name: "Projection rules" });
const payload = (page: Page) => page.getByRole("region", { name: "Provider payload" });
const facts = (page: Page) => page.getByRole("group", { name: "Projection summary" });

/** Presses Enter on the focused control and reads what it downloads. */
async function downloadByEnter(page: Page): Promise<{ name: string; text: string }> {
  const downloading = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  const done = await downloading;
  return { name: done.suggestedFilename(), text: readFileSync((await done.path())!, "utf8") };
}

/** Presses Enter on the focused file control and hands the file dialog `files`. */
async function pickFiles(page: Page, ...files: Picked[]): Promise<void> {
  const chooser = page.waitForEvent("filechooser");
  await page.keyboard.press("Enter");
  await (await chooser).setFiles(files);
}

/** A first visit (each test has a fresh browser context: nothing stored); `hash` is the address's fragment. */
async function firstVisit(page: Page, hash = ""): Promise<void> {
  await page.goto(`/${hash}`);
  await tree(page).getByRole("treeitem", { selected: true }).waitFor();
}

let offOrigin: string[] = [];
test.beforeEach(({ page }) => {
  offOrigin = watchRequests(page);
  // Playwright starts catching file dialogs once something listens (asynchronously): listen from the start, so
  // that a dialog opened by a key is never missed.
  page.on("filechooser", () => undefined);
});
test.afterEach(() => {
  expect(offOrigin).toEqual([]);
});

test("start, notices, opening files, the session list, the tree, the tabs and diagnostics", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: new URL(test.info().project.use.baseURL!).origin,
  });
  // A link to a session that is not open: the sample opens (first visit) and a notice says the link missed.
  await firstVisit(page, "#session=not-open-here");
  const notice = page.getByRole("region", { name: "Messages" });
  await expect(notice).toContainText("not-open-here");
  await expectAxeClean(page, "first visit with a notice");

  // The header's controls come first: open files through the OS dialog, then the sample again.
  await tabTo(page, page.getByLabel("Open session files"), { max: 3 });
  await pickFiles(page, file("branches.jsonl", BRANCHES), file("damaged.jsonl", DAMAGED));
  await expect(sessions(page).getByRole("button", { name: /Read the README please/ })).toHaveCount(2);
  await expectVisibleFocus(page, "after the file dialog");
  await tabTo(page, page.getByRole("button", { name: "Open sample" }), { max: 1 });
  await press(page, "Enter");
  await expect(sessions(page).getByRole("button", { name: /Fix invoice rounding/ })).toHaveCount(2);

  // Notices: dismiss each; focus moves on to the next notice, and after the last to the next control, never to
  // <body>. (Besides the missed link, opening files may have left a notice of its own.)
  const dismiss = notice.getByRole("button", { name: "Dismiss message" });
  for (let left = await dismiss.count(); left > 0; left -= 1) {
    if (!(await dismiss.first().evaluate((button) => button === document.activeElement)))
      await tabTo(page, dismiss.first(), { max: 4 });
    await press(page, "Enter");
    await expect(dismiss).toHaveCount(left - 1);
    await expectFocusKept(page, "after dismissing a notice");
    if (left > 1) expect(await notice.evaluate((n) => n.contains(document.activeElement))).toBe(true);
  }
  await expect(notice).toHaveCount(0);
  await expectVisibleFocus(page, "after dismissing the last notice");

  // The session list: choose one with Enter, remove another; focus moves to the next session.
  const damaged = sessions(page).getByRole("button", { name: /1 problems/ });
  await tabTo(page, damaged, { max: 12 });
  await press(page, "Enter");
  await expect(damaged).toHaveAttribute("aria-current", "true");
  const removeSample = sessions(page).getByRole("button", { name: "Remove sample-session.jsonl" });
  await tabTo(page, removeSample.last(), { max: 6 });
  await press(page, "Enter");
  await expect(removeSample).toHaveCount(1);
  await expectFocusKept(page, "after removing a session");
  await expectVisibleFocus(page, "after removing a session");
  await expect(damaged).toHaveAttribute("aria-current", "true");

  // The tree of the branched session: search with /, step through hits, filter, then walk it with the arrows.
  const branches = sessions(page).getByRole("button", { name: /13 entries/ });
  await tabTo(page, branches, { back: true, max: 8 });
  await press(page, "Enter");
  await expect(tree(page).getByRole("treeitem", { selected: true })).toContainText("C works.");
  await press(page, "/");
  const search = page.getByRole("searchbox", { name: "Search entries" });
  await expect(search).toBeFocused();
  await page.keyboard.type("approach");
  const searchBar = page.getByRole("search");
  await expect(searchBar.getByRole("status")).toHaveText("1 of 6");
  await press(page, "Enter");
  await expect(searchBar.getByRole("status")).toHaveText("2 of 6");
  await press(page, "Shift+Enter");
  await expect(searchBar.getByRole("status")).toHaveText("1 of 6");
  await expectAxeClean(page, "tree with a search", ".tree-pane");
  await tabTo(page, searchBar.getByRole("button", { name: "Next hit" }), { max: 2 });
  await press(page, "Enter");
  await expect(searchBar.getByRole("status")).toHaveText("2 of 6");
  await tabTo(page, searchBar.getByLabel("Show"), { max: 2 });
  await press(page, "ArrowDown");
  await expect(searchBar.getByLabel("Show")).toHaveValue("no-tools");
  await press(page, "ArrowUp");
  await expect(searchBar.getByLabel("Show")).toHaveValue("default");
  await tabTo(page, search, { back: true, max: 4 });
  await press(page, "Control+A");
  await press(page, "Backspace");
  await expect(searchBar.getByRole("status")).toHaveText(/shown/);

  const chosen = tree(page).getByRole("treeitem", { selected: true });
  await tabTo(page, tree(page), { max: 4 });
  await expect(chosen).toBeFocused();
  await press(page, "Home");
  await press(page, "Enter");
  await expect(chosen).toContainText("Read the README please");
  await expect(chosen).toBeFocused(); // choosing keeps focus in the tree
  await expect(inspector(page)).toContainText("Read the README please");
  await press(page, "End");
  await press(page, "Enter");
  await expect(chosen).toContainText("C works.");
  await press(page, "ArrowLeft"); // the parent
  await press(page, "Space");
  await expect(chosen).toContainText("And approach C?");
  await expect(inspector(page)).toContainText("And approach C?");
  // What becomes of the focused entry shows while it has focus (a pointer gets it from the card's title).
  await press(page, "ArrowDown");
  await expect(tree(page).getByRole("treeitem", { name: /C works\./ })).toBeFocused();
  await expect(page.getByText("off the current path: not sent at this leaf", { exact: true })).toBeVisible();
  await expectNoTrap(page);

  // The zoom buttons after the tree.
  const zoom = page.getByRole("toolbar", { name: "Tree zoom" });
  const level = zoom.getByLabel("Zoom level");
  const before = await level.innerText();
  await tabTo(page, zoom.getByRole("button", { name: "Zoom in" }), { max: 2 });
  await press(page, "Enter");
  await expect(level).not.toHaveText(before);
  await tabTo(page, zoom.getByRole("button", { name: "Zoom out" }), { max: 1 });
  await press(page, "Space");
  await tabTo(page, zoom.getByRole("button", { name: "Fit" }), { max: 1 });
  await press(page, "Enter");
  await expect(level).toHaveText(/^\d+%$/);
  await tabTo(page, damaged, { back: true, max: 20 });
  await press(page, "Enter");
  await expect(damaged).toHaveAttribute("aria-current", "true");

  // Tabs follow the WAI-ARIA pattern: one Tab stop, arrows move between them and show the panel.
  await tabTo(page, tab(page, "Entry"), { max: 20 });
  await press(page, "End");
  await expect(tab(page, /Diagnostics/)).toBeFocused();
  await expect(tab(page, /Diagnostics/)).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel", { name: /Diagnostics/ })).toContainText("Line 3 is not JSON");
  await expectAxeClean(page, "diagnostics");
  await press(page, "ArrowRight"); // round to the first
  await expect(tab(page, "Entry")).toBeFocused();
  await press(page, "ArrowLeft");
  await expect(tab(page, /Diagnostics/)).toBeFocused();
  await press(page, "Home");
  await expect(tab(page, "Entry")).toHaveAttribute("aria-selected", "true");
  await expectNoTrap(page);
  // The rules column folds away and back from its button, which keeps focus.
  const rulesToggle = page.getByRole("button", { name: "Hide rules" });
  await tabTo(page, rulesToggle, { max: 1 });
  await press(page, "Enter");
  await expect(rules(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Rules" })).toBeFocused();
  await expect(page.getByRole("button", { name: "Rules" })).toHaveAttribute("aria-expanded", "false");
  await press(page, "Space");
  await expect(rules(page)).toBeVisible();
});

/** Searches the tree with `/`, then Tabs into the tree (its focus follows the hit) and chooses the hit. */
async function chooseBySearch(page: Page, query: string): Promise<void> {
  await press(page, "/");
  await press(page, "Control+A");
  await page.keyboard.type(query);
  await expect(page.getByRole("search").getByRole("status")).toHaveText(/^1 of \d+$/);
  await tabTo(page, tree(page), { max: 5 });
  await expect(tree(page).getByRole("treeitem", { name: /current search hit/ })).toBeFocused();
  await press(page, "Enter");
  await expect(tree(page).getByRole("treeitem", { selected: true })).toHaveAttribute("aria-label", new RegExp(query));
}

test("the inspector: images, thinking, raw JSON, copy buttons, links to other entries", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: new URL(test.info().project.use.baseURL!).origin,
  });
  await firstVisit(page);
  const entry = inspector(page);

  // The user's message with a screenshot: the enlarged image is a dialog; Escape closes it, focus comes back.
  await chooseBySearch(page, "CI is red on main");
  const thumbnail = entry.getByRole("button", { name: /Enlarge image/ });
  await tabTo(page, thumbnail, { max: 30 });
  await press(page, "Enter");
  const image = page.getByRole("dialog", { name: /^Image/ });
  await expect(image).toBeVisible();
  await expect(image.getByRole("button", { name: "Close" })).toBeFocused();
  await expectAxeClean(page, "enlarged image", "dialog[open]");
  await press(page, "Escape");
  await expect(image).toBeHidden();
  await expect(thumbnail).toBeFocused();

  // An assistant turn: thinking folds open, the text and the raw JSON copy, a tool call leads to its result.
  await chooseBySearch(page, "The screenshot shows one failing");
  const copyText = entry.getByRole("button", { name: "Copy text" });
  await tabTo(page, copyText, { max: 30 });
  await press(page, "Enter");
  await expect(entry.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("The screenshot shows one failing");
  const thinking = entry.locator("summary", { hasText: "Thinking" }).first();
  await tabTo(page, thinking, { max: 3 });
  await press(page, "Enter");
  await expect(entry.locator("details.thinking").first()).toHaveAttribute("open", "");
  await press(page, "Space");
  await expect(entry.locator("details.thinking").first()).not.toHaveAttribute("open", "");
  const raw = entry.locator("summary", { hasText: "Raw JSON" });
  await tabTo(page, raw, { max: 30 });
  await press(page, "Enter");
  await expect(entry.getByLabel("Raw JSON of the entry")).toContainText('"type": "message"');
  await tabTo(page, entry.getByRole("button", { name: "Copy JSON" }), { max: 2 });
  await press(page, "Enter");
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toMatchObject({ type: "message" });
  await expectAxeClean(page, "inspector with thinking and raw JSON open", "section[aria-label='Inspector']");

  const goToResult = entry.getByRole("button", { name: /^Go to result/ }).first();
  await tabTo(page, goToResult, { back: true, max: 30 });
  await press(page, "Enter");
  await expect(entry).toContainText("Result of read");
  await expectFocusKept(page, "after going to a tool result");
  await expectVisibleFocus(page, "after going to a tool result");
  const goToCall = entry.getByRole("button", { name: /^Go to call/ });
  await tabTo(page, goToCall, { max: 30 });
  await press(page, "Enter");
  await expect(entry).toContainText("The screenshot shows one failing");
  await expectFocusKept(page, "after going back to the call");
});

test("the payload view, the validator's links and the token summary", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: new URL(test.info().project.use.baseURL!).origin,
  });
  await firstVisit(page);
  // A session with a tool call that never got its result: the validator names it and links to its entry.
  const orphan = session(
    header({ id: "orphan-1" }),
    user("u1", null, "run it"),
    assistant("a1", "u1", [toolCall("call_1", "bash", { command: "ls" })]),
    user("u2", "a1", "never mind"),
  );
  await tabTo(page, page.getByLabel("Open session files"), { max: 3 });
  await pickFiles(page, file("orphan.jsonl", orphan));
  await expect(sessions(page).getByRole("button", { name: /^run it/ })).toHaveAttribute("aria-current", "true");
  await tabTo(page, tab(page, "Entry"), { max: 40 });
  await press(page, "ArrowRight");
  await expect(tab(page, "Payload")).toHaveAttribute("aria-selected", "true");
  const validator = page.getByRole("region", { name: "Validator" });
  await expect(validator).toContainText("tool call bash (call_1) has no result");
  await expect(page.getByRole("region", { name: "Tokens" })).toContainText("prompt tokens");
  await expectAxeClean(page, "payload with a finding", "section[aria-label='Projection']");
  await tabTo(page, validator.getByRole("button", { name: "line 3" }), { max: 10 });
  await press(page, "Enter");
  await expect(tree(page).getByRole("treeitem", { selected: true })).toHaveAttribute("aria-label", /bash|ls/);
  await expectFocusKept(page, "after following a finding");

  // The payload of the sample: fold and unfold with the arrows, copy an item, copy and download the whole.
  await tabTo(page, sessions(page).getByRole("button", { name: /Fix invoice rounding/ }), { back: true, max: 20 });
  await press(page, "Enter");
  await expect(facts(page)).toContainText("openai/gpt-5.1-codex");
  await tabTo(page, payload(page).getByRole("button", { name: "Copy JSON" }), { max: 40 });
  await press(page, "Enter");
  await expect(payload(page).getByRole("status")).toContainText("Copied the payload");
  const body = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { input: unknown[] };
  await tabTo(page, payload(page).getByRole("button", { name: "Download" }), { max: 1 });
  const saved = await downloadByEnter(page);
  expect(JSON.parse(saved.text)).toEqual(body);
  const rows = payload(page).getByRole("tree", { name: "Payload JSON" });
  await tabTo(page, rows, { max: 2 });
  await press(page, "Home");
  const first = rows.getByRole("treeitem").first();
  await expect(first).toBeFocused();
  const focusedRow = rows.locator('[role="treeitem"]:focus');
  await press(page, "End");
  await press(page, "Home");
  await expect(first).toBeFocused();
  // Down to the main list, fold it and unfold it.
  for (let i = 0; i < 8 && !(await focusedRow.innerText()).includes('"input": ['); i += 1)
    await press(page, "ArrowDown");
  await expect(focusedRow).toContainText('"input": [');
  await expect(focusedRow).toHaveAttribute("aria-expanded", "true");
  await press(page, "ArrowLeft");
  await expect(focusedRow).toHaveAttribute("aria-expanded", "false");
  await press(page, "Enter");
  await expect(focusedRow).toHaveAttribute("aria-expanded", "true");
  await press(page, "ArrowRight"); // into the list: the first item
  await expect(focusedRow).toHaveAttribute("aria-level", "2");
  await press(page, "ArrowDown"); // the next item, at the same level (or into the first when unfolded)
  await expectNoTrap(page);
  const copyItem = rows.locator('[role="treeitem"]:focus-within').getByRole("button", { name: /^Copy item \d+$/ });
  await tabTo(page, copyItem, { max: 2 });
  await press(page, "Enter");
  await expect(payload(page).getByRole("status")).toContainText(/Copied item \d+/);
  await expectAxeClean(page, "payload view");
});

test("the rules panel: every kind of control, presets, the model picker, system prompt and tools", async ({ page }) => {
  await firstVisit(page);
  const panel = rules(page);
  const verdict = panel.getByText(/pi 0\.73\.1 exactly|Differs from pi/);
  await tabTo(page, tab(page, "Entry"), { max: 40 });
  await press(page, "ArrowRight");
  await expect(facts(page)).toContainText("openai/gpt-5.1-codex");

  // A toggle (Space), a choice (arrows) with its number inputs, a limit and its number, a per-type checkbox.
  const dropThinking = panel.getByLabel("Drop thinking");
  await tabTo(page, dropThinking, { max: 80 });
  await press(page, "Space");
  await expect(dropThinking).toBeChecked();
  await expect(verdict).toHaveText(/Differs from pi 0\.73\.1 in 1 rule: Drop thinking/);
  await press(page, "Space");
  await expect(verdict).toHaveText(/pi 0\.73\.1 exactly/);

  const bash = panel.getByRole("combobox", { name: "Bash executions" });
  await tabTo(page, bash, { back: true, max: 20 });
  await press(page, "ArrowDown");
  await press(page, "ArrowDown");
  await expect(bash).toHaveValue("head-tail");
  const first = panel.getByRole("spinbutton", { name: "first" });
  await tabTo(page, first, { max: 1 });
  await press(page, "Control+A");
  await page.keyboard.type("3");
  await press(page, "Tab");
  await expect(verdict).toHaveText(/Bash executions/);
  await press(page, "ArrowUp"); // the "last" number, one more
  await tabTo(page, bash, { back: true, max: 3 });
  await press(page, "Home");
  await expect(bash).toHaveValue("pi");

  const todo = panel.getByRole("checkbox", { name: "todo-list" }); // one extension message type on this path
  await tabTo(page, todo, { back: true, max: 10 });
  await press(page, "Space");
  await expect(verdict).toHaveText(/Extension messages/);
  await press(page, "Space");
  await expect(verdict).toHaveText(/pi 0\.73\.1 exactly/);

  const truncate = panel.getByLabel("Truncate tool results");
  await tabTo(page, truncate, { max: 20 });
  await press(page, "Space");
  const over = panel.getByRole("spinbutton", { name: /over/ });
  await expect(over).toHaveValue("20000");
  await tabTo(page, over, { max: 2 });
  await press(page, "Control+A");
  await page.keyboard.type("500");
  await press(page, "Enter");
  await expect(panel.locator('[data-rule="truncate-tool-results"]')).toContainText(/Cutting at|Without a limit/);
  await tabTo(page, truncate, { back: true, max: 2 });
  await press(page, "Space");

  // System prompt and tools: typed, applied when focus leaves; bad tools say what is wrong.
  const system = panel.getByRole("textbox", { name: "System prompt" });
  await tabTo(page, system, { max: 40 });
  await page.keyboard.type("You are pi.");
  await press(page, "Tab");
  await expect(verdict).toHaveText(/System prompt/);
  const tools = panel.getByRole("textbox", { name: "Tool definitions" });
  await expect(tools).toBeFocused();
  await page.keyboard.type('[{"name": "read"}]');
  await page.keyboard.press("Tab"); // the last control of the page: focus leaves the document, as it should
  await expect(panel.getByRole("alert")).toContainText("at 0.description");
  await expectAxeClean(page, "rules panel with a tools error", "section[aria-label='Projection rules']");
  await tabTo(page, tools, { back: true, max: 3 });
  await press(page, "Control+A");
  await press(page, "Delete");
  await tabTo(page, system, { back: true, max: 3 });
  await press(page, "Control+A");
  await press(page, "Delete");
  await press(page, "Tab");
  await expect(panel.getByRole("alert")).toHaveCount(0);
  await expect(verdict).toHaveText(/pi 0\.73\.1 exactly/);

  // The model picker: type, arrow through the list, Enter; the session's model again.
  const models = panel.getByRole("combobox", { name: "Search models" });
  await tabTo(page, models, { back: true, max: 80 });
  await page.keyboard.type("sonnet-4-5");
  const listbox = page.getByRole("listbox", { name: "Models" });
  await expect(listbox).toBeVisible();
  await expect(models).toHaveAttribute("aria-expanded", "true");
  await expectAxeClean(page, "model picker open", "section[aria-label='Projection rules']");
  await press(page, "ArrowDown");
  await expect(models).toHaveAttribute("aria-activedescendant", /./);
  const active = page.locator(`[id="${await models.getAttribute("aria-activedescendant")}"]`);
  await expect(active).toHaveAttribute("aria-selected", "true");
  await press(page, "Escape"); // closes the list, keeps the text
  await expect(listbox).toHaveCount(0);
  await expect(models).toHaveValue("sonnet-4-5");
  await expectAxeClean(page, "model picker closed with text", "section[aria-label='Projection rules']");
  await press(page, "ArrowDown");
  await expect(listbox).toBeVisible();
  await press(page, "ArrowUp");
  const chosen = (await page.locator(`[id="${await models.getAttribute("aria-activedescendant")}"]`).innerText()).split(
    /\s/,
  )[0]!;
  await press(page, "Enter");
  await expect(facts(page)).toContainText(chosen);
  await expect(models).toBeFocused();
  const back = panel.getByRole("button", { name: /Use the session's model/ });
  await tabTo(page, back, { back: true, max: 2 });
  await press(page, "Enter");
  await expect(facts(page)).toContainText("openai/gpt-5.1-codex");
  await expectFocusKept(page, "after going back to the session's model");
  await expectVisibleFocus(page, "after going back to the session's model");

  // Presets: save, rename, export, import, choose, delete — focus stays on a control throughout.
  const presetSelect = panel.getByLabel("Preset", { exact: true });
  const blockImages = panel.getByLabel("Block images");
  await tabTo(page, blockImages, { max: 40 });
  await press(page, "Space");
  await tabTo(page, panel.getByRole("button", { name: "Save as…" }), { back: true, max: 60 });
  await press(page, "Enter");
  const name = panel.getByRole("textbox", { name: "Preset name" });
  await expect(name).toBeFocused();
  await expectAxeClean(page, "preset name form", "section[aria-label='Projection rules']");
  await page.keyboard.type("No pictures");
  await press(page, "Enter");
  await expect(panel.getByText("Saved as “No pictures”.")).toBeVisible();
  await expect(presetSelect).toHaveValue("No pictures");
  await expectFocusKept(page, "after saving a preset");

  await tabTo(page, panel.getByRole("button", { name: "Rename…" }), { max: 4 });
  await press(page, "Enter");
  await expect(panel.getByRole("textbox", { name: "New name" })).toBeFocused();
  await press(page, "Escape"); // cancels
  await expect(panel.getByRole("textbox", { name: "New name" })).toHaveCount(0);
  await expect(panel.getByRole("button", { name: "Rename…" })).toBeFocused();
  await press(page, "Enter");
  await press(page, "Control+A");
  await page.keyboard.type("Text only");
  await press(page, "Enter");
  await expect(presetSelect).toHaveValue("Text only");
  await expectFocusKept(page, "after renaming a preset");

  await tabTo(page, panel.getByRole("button", { name: "Export" }), { max: 4 });
  const exported = await downloadByEnter(page);
  expect(exported.name).toBe("text-only.preset.json");
  await tabTo(page, panel.getByLabel("Import presets"), { max: 1 });
  await pickFiles(page, {
    name: "text-only.preset.json",
    mimeType: "application/json",
    buffer: Buffer.from(exported.text),
  });
  await expect(panel.getByText("Imported “Text only (2)”.")).toBeVisible();
  await tabTo(page, presetSelect, { back: true, max: 8 });
  await press(page, "ArrowDown");
  await expect(presetSelect).toHaveValue("Text only (2)");
  await press(page, "ArrowUp");
  await expect(presetSelect).toHaveValue("Text only");
  await tabTo(page, panel.getByRole("button", { name: "Delete" }), { max: 4 });
  await press(page, "Enter");
  await expect(panel.getByText("Deleted “Text only”.")).toBeVisible();
  await expectFocusKept(page, "after deleting a preset");
  await expectVisibleFocus(page, "after deleting a preset");
  await expect(presetSelect.locator("option")).toHaveText([
    "pi 0.73.1",
    "Whole path (no compaction)",
    "Lean",
    "Text only (2)",
  ]);
  await expectNoTrap(page);
});

test("compare: sides, the change list, text and JSON diffs, the cache chart, picking B's leaf in the tree", async ({
  page,
}) => {
  await firstVisit(page);
  const compare = page.getByRole("region", { name: "Compare" });
  const changes = page.getByRole("list", { name: "Changes from A to B" });
  await tabTo(page, tab(page, "Entry"), { max: 40 });
  await press(page, "ArrowRight");
  await press(page, "ArrowRight");
  await expect(tab(page, "Compare")).toHaveAttribute("aria-selected", "true");
  const byPreset = compare.getByRole("radio", { name: "another preset" });
  await tabTo(page, byPreset, { max: 5 });
  await expect(compare.getByLabel("B's preset")).toHaveValue("Lean");
  await expect(changes.getByRole("listitem")).toHaveCount(7);

  // The change list: a text diff opens under its change; unchanged items on request; the JSON diff on demand.
  const firstChange = changes.getByRole("listitem").first();
  await tabTo(page, firstChange.getByRole("button", { name: "Text diff" }), { max: 6 });
  await press(page, "Enter");
  await expect(firstChange.getByRole("button", { name: "Text diff" })).toHaveAttribute("aria-expanded", "true");
  await expect(firstChange.locator("del")).toContainText("Unit prices have at most two decimals");
  await tabTo(page, compare.getByLabel("Show unchanged"), { back: true, max: 4 });
  await press(page, "Space");
  await expect(changes.getByRole("listitem")).toHaveCount(28);
  const jsonDiff = compare.getByRole("button", { name: "JSON diff" });
  await tabTo(page, jsonDiff, { max: 40 });
  await press(page, "Enter");
  await expect(jsonDiff).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("region", { name: "JSON diff" })).toContainText(/\d+ paths differ/);
  const chart = page.getByRole("figure", { name: "Prompt size and cache-reusable prefix, request by request" });
  await tabTo(page, chart.getByText("The numbers as a table"), { max: 5 });
  await press(page, "Enter");
  await expect(chart.getByRole("table")).toBeVisible();
  await expectAxeClean(page, "compare view with a text diff, the JSON diff and the chart's table");

  // Another model: the radio group moves with the arrows; the picker works as in the rules.
  await tabTo(page, byPreset, { back: true, max: 80 });
  await press(page, "ArrowDown");
  await expect(compare.getByRole("radio", { name: "another model" })).toBeChecked();
  const models = compare.getByRole("combobox", { name: "Search models" });
  await tabTo(page, models, { max: 3 });
  await page.keyboard.type("anthropic sonnet-4-5");
  await expect(compare.getByRole("listbox", { name: "Models" })).toBeVisible();
  await expectAxeClean(page, "compare's model picker open", "section[aria-label='Compare']");
  await press(page, "Enter");
  await expect(page.getByRole("region", { name: "Comparison summary" })).toContainText(/B .*claude-sonnet-4-5/);

  // Another leaf: typed, then picked in the tree with the keyboard (A stays where it is).
  await tabTo(page, compare.getByRole("radio", { name: "another model" }), { back: true, max: 4 });
  await press(page, "ArrowDown");
  await expect(compare.getByRole("radio", { name: "another leaf" })).toBeChecked();
  await tabTo(page, compare.getByLabel("B's leaf"), { max: 2 });
  await page.keyboard.type("31");
  await press(page, "Enter");
  const summary = page.getByRole("region", { name: "Comparison summary" });
  await expect(summary).toContainText("leaf line 31 · line 31");
  const pick = compare.getByRole("button", { name: "Pick in tree" });
  await tabTo(page, pick, { max: 2 });
  await press(page, "Enter");
  await expect(compare.getByRole("button", { name: "Cancel picking" })).toBeFocused();
  await expect(compare).toContainText("Choose an entry in the tree: it becomes B's leaf");
  const leafA = await tree(page).getByRole("treeitem", { selected: true }).getAttribute("aria-label");
  await press(page, "/");
  await page.keyboard.type("finance needs 40.01");
  await tabTo(page, tree(page), { max: 5 });
  await expect(tree(page).getByRole("treeitem", { name: /current search hit/ })).toBeFocused();
  await press(page, "Enter");
  await expect(compare).toContainText("B's leaf: line 23 (61d772ea).");
  expect(await tree(page).getByRole("treeitem", { selected: true }).getAttribute("aria-label")).toBe(leafA);
  await expectAxeClean(page, "compare by leaf", "section[aria-label='Compare']");
});

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAL0lEQVR42mOQk1O5Y2MjJ6cCRxAuAzIHmcGArBBZKyEJ7EbhsxwTMQTsS0FDEAkAYNcp3VdXZfUAAAAASUVORK5CYII=";
/** A fake key in the right shape, made at run time (none is written in this file). */
const FAKE_KEY = `sk-proj-${Array.from({ length: 64 }, (_, i) => "Qx7Rb2Kd9Mw4Tn6Hp3Vz8Lc5Gj1Fs0Ye"[(i * 7) % 32]).join("")}`;

test("share: review with the keyboard, keep and hide, link and file, Escape; the snapshot from the file and the link", async ({
  page,
  context,
  browser,
}) => {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  await firstVisit(page);
  const withSecret = session(
    header({ id: "share-secret" }),
    modelChange("m1", null, "anthropic", "claude-sonnet-4-5"),
    user("u1", "m1", [text(`Deploy with ${FAKE_KEY} please`), image(PNG)]),
  );
  await tabTo(page, page.getByLabel("Open session files"), { max: 3 });
  await pickFiles(page, file("secret.jsonl", withSecret));
  await expect(sessions(page).getByRole("button", { name: /^Deploy with/ })).toHaveAttribute("aria-current", "true");
  await tabTo(page, tab(page, "Entry"), { max: 40 });
  await press(page, "ArrowRight");
  const share = page.getByRole("button", { name: "Share…" });
  await tabTo(page, share, { max: 5 });
  await press(page, "Enter");
  const dialog = page.getByRole("dialog", { name: "Share a snapshot" });
  await expect(dialog.getByRole("button", { name: "Download snapshot" })).toBeVisible();
  await expectFocusKept(page, "when the share review opens");
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await expectAxeClean(page, "share review");

  // The review: keep the secret visible, then hide it again; keep the image.
  const keep = dialog.getByRole("checkbox", { name: /Keep visible: OpenAI API key/ });
  await tabTo(page, keep, { max: 10 });
  await press(page, "Space");
  await expect(dialog).toContainText("0 of 1 secret will be replaced");
  await press(page, "Space");
  await expect(dialog).toContainText("1 of 1 secret will be replaced");
  const images = dialog.getByRole("checkbox", { name: /Leave out 1 image/ });
  await tabTo(page, images, { max: 2 });
  await press(page, "Space");
  await expect(images).not.toBeChecked();
  await press(page, "Space");
  await expect(images).toBeChecked();

  // Link and file.
  await tabTo(page, dialog.getByRole("button", { name: "Download snapshot" }), { max: 3 });
  const saved = await downloadByEnter(page);
  expect(saved.text).not.toContain(FAKE_KEY);
  await expect(dialog.getByRole("status").filter({ hasText: "Downloaded" })).toBeVisible();
  await tabTo(page, dialog.getByRole("button", { name: "Copy link" }), { max: 1 });
  await press(page, "Enter");
  await expect(dialog.getByRole("status").filter({ hasText: "Copied the link" })).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  await tabTo(page, dialog.getByLabel("Share link"), { max: 1 });

  // Focus stays in the modal dialog: Tab round it never reaches the page behind (only the browser's own controls).
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press("Tab");
    const inside = await dialog.evaluate(
      (d) => d.contains(document.activeElement) || document.activeElement === document.body,
    );
    expect(inside, "Tab left the share dialog for the page behind it").toBe(true);
  }
  await tabTo(page, dialog.getByRole("button", { name: "Close" }), { max: 12 });
  await expectNoTrap(page);
  await press(page, "Escape");
  await expect(dialog).toHaveCount(0);
  await expect(share).toBeFocused();

  // The downloaded snapshot, opened through the file dialog: its own view, its path leading to payload items.
  await tabTo(page, page.getByLabel("Open session files"), { back: true, max: 60 });
  await pickFiles(page, { name: saved.name, mimeType: "application/json", buffer: Buffer.from(saved.text) });
  const snapshot = page.getByRole("region", { name: "Snapshot" });
  await expect(snapshot).toContainText("a saved copy of what anthropic/claude-sonnet-4-5 was sent");
  await expectAxeClean(page, "snapshot view from a file");
  const pathLine = snapshot.getByRole("region", { name: /^Path: / }).getByRole("button", { name: "line 3" });
  await tabTo(page, pathLine, { max: 20 });
  await press(page, "Enter");
  await expect(pathLine.locator("xpath=..")).toHaveAttribute("aria-current", "true");
  await expect(snapshot.getByRole("treeitem", { name: /^\[0\] user/ })).toHaveAttribute("aria-current", "true");
  await tabTo(page, snapshot.getByRole("tree", { name: "Payload JSON" }), { max: 6 });
  await press(page, "ArrowDown");
  await expectNoTrap(page);
  const close = snapshot.getByRole("button", { name: "Close snapshot" });
  await tabTo(page, close, { back: true, max: 30 });
  await press(page, "Enter");
  await expect(snapshot).toHaveCount(0);
  await expectFocusKept(page, "after closing the snapshot");
  await expectVisibleFocus(page, "after closing the snapshot");

  // The link in a fresh browser: the same view, closed by keyboard, and a damaged snapshot's message.
  const fresh = await (await browser.newContext({ baseURL: origin })).newPage();
  fresh.on("filechooser", () => undefined);
  await fresh.goto(link);
  const shared = fresh.getByRole("region", { name: "Snapshot" });
  await expect(shared).toContainText("from a shared link");
  await expectAxeClean(fresh, "snapshot view from a link");
  await tabTo(fresh, shared.getByRole("button", { name: "Close snapshot" }), { max: 5 });
  await press(fresh, "Enter");
  await expect(shared).toHaveCount(0);
  await expectFocusKept(fresh, "after closing a linked snapshot");
  await tabTo(fresh, fresh.getByLabel("Open session files"), { back: true, max: 30 });
  await pickFiles(fresh, {
    name: "newer.snapshot.json",
    mimeType: "application/json",
    buffer: Buffer.from('{"format": "context-lens/snapshot", "version": 3}'),
  });
  await expect(shared.getByRole("alert")).toContainText("was made by a newer Context Lens");
  await expectAxeClean(fresh, "snapshot that cannot be opened");
  await fresh.context().close();
});

test("the empty page, a file that is not a session, and one Tab round every control of the page", async ({ page }) => {
  await firstVisit(page);
  // Round the whole page: every control takes focus in turn, shows it, and lets it go.
  const stops = await tabRound(page);
  expect(stops.length).toBeGreaterThan(30);
  expect(stops[0]).toBe("<input> Open session files");
  expect(stops.some((s) => s.includes("Search models"))).toBe(true);

  // Removing the only session leaves the welcome; focus stays in the page.
  await tabTo(page, sessions(page).getByRole("button", { name: "Remove sample-session.jsonl" }), { max: 5 });
  await press(page, "Enter");
  await expect(page.getByRole("region", { name: "Welcome" })).toBeVisible();
  await expectFocusKept(page, "after removing the last session");
  await expectVisibleFocus(page, "after removing the last session");
  await expectAxeClean(page, "empty page");
  await tabTo(page, page.getByLabel("Open session files"), { back: true, max: 4 });
  await pickFiles(page, file("events.jsonl", PI_JSON_MODE));
  await expect(page.getByRole("region", { name: "Not a session" })).toContainText("--mode json");
  await expectAxeClean(page, "file that is not a session");
  await tabTo(page, page.getByRole("button", { name: "Open sample" }), { max: 1 });
  await press(page, "Enter");
  await expect(tree(page).getByRole("treeitem", { selected: true })).toBeVisible();
});
