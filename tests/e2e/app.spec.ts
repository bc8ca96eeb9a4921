/** The app as a person uses it: opening files (input, drop, sample), the tree, deep links, reloads, bad files. */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { assistant, header, session, toolCall, toolResult, user } from "../support/build.ts";
import { watchRequests } from "./support/requests.ts";
import { BRANCHES, DAMAGED, PI_JSON_MODE, hostileSession } from "./support/sessions.ts";

const file = (name: string, text: string) => ({ name, mimeType: "application/jsonl", buffer: Buffer.from(text) });

async function openFiles(page: Page, ...files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.getByLabel("Open session files").setInputFiles(files);
}

/** The leaf of the selection the app has saved for a reload (idb-keyval's default store), once it has. */
function savedLeaf(page: Page): Promise<number | undefined> {
  return page.evaluate(
    () =>
      new Promise<number | undefined>((resolve, reject) => {
        const open = indexedDB.open("keyval-store");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction("keyval").objectStore("keyval").get("context-lens/library");
          read.onerror = () => reject(read.error);
          read.onsuccess = () => {
            open.result.close();
            resolve((read.result as { selection?: { leaf?: number } } | undefined)?.selection?.leaf);
          };
        };
      }),
  );
}

test.beforeEach(async ({ page }) => {
  // A fresh profile per test: clear what an earlier test stored.
  await page.goto("/");
  await page.evaluate(() => indexedDB.deleteDatabase("keyval-store"));
});

test("opens the built-in sample on the first visit, and again from the button", async ({ page }) => {
  const offOrigin = watchRequests(page);
  await page.goto("/");
  const list = page.getByRole("navigation", { name: "Open sessions" });
  await expect(list.getByRole("button", { name: /Fix invoice rounding/ })).toBeVisible();
  await expect(page.getByRole("tree", { name: "Session tree" })).toBeVisible();
  await page.getByRole("button", { name: "Open sample" }).click();
  await expect(list.getByRole("button", { name: /Fix invoice rounding/ })).toHaveCount(2);
  expect(offOrigin).toEqual([]);
});

test("a file opened while the first-visit sample is still loading keeps the view, and the sample stays away", async ({
  page,
}) => {
  // Hold the sample back so the person's file is certainly opened first, then let it through.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/sample-session-*.js", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/");
  await openFiles(page, file("branches.jsonl", BRANCHES));
  const tree = page.getByRole("tree", { name: "Session tree" });
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText("C works.");
  const sampleArrived = page.waitForResponse(/\/assets\/sample-session-.*\.js$/);
  release();
  await sampleArrived;
  await page.waitForTimeout(500);
  const list = page.getByRole("navigation", { name: "Open sessions" });
  await expect(list.getByRole("button", { name: / entries/ })).toHaveCount(1);
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText("C works.");
  await expect(page).toHaveURL(/#session=sess-0001/);
});

test("opens files through the input, several at once, and lists them", async ({ page }) => {
  const offOrigin = watchRequests(page);
  await page.goto("/");
  await openFiles(page, file("branches.jsonl", BRANCHES), file("damaged.jsonl", DAMAGED));
  const list = page.getByRole("navigation", { name: "Open sessions" });
  await expect(list.getByRole("button", { name: /Read the README please.*13 entries/ })).toBeVisible();
  await expect(list.getByRole("button", { name: /1 problems/ })).toBeVisible();
  expect(offOrigin).toEqual([]);
});

test("many open sessions can be filtered by title, folder, file or model", async ({ page }) => {
  await page.goto("/");
  const list = page.getByRole("navigation", { name: "Open sessions" });
  await expect(list.getByRole("button", { name: /Fix invoice rounding/ })).toBeVisible();
  const filter = list.getByLabel("Filter sessions");
  await expect(filter).toHaveCount(0); // one session: nothing to filter
  const named = (n: number) =>
    BRANCHES.replace('"cwd":"/work/demo"', `"cwd":"/work/project-${n}"`).replace("Read the README please", `Task ${n}`);
  await openFiles(page, ...[1, 2, 3, 4, 5].map((n) => file(`session-${n}.jsonl`, named(n))));
  await expect(list.getByRole("listitem")).toHaveCount(6);

  await filter.fill("project-3");
  await expect(list.getByRole("status")).toHaveText("1 of 6 shown");
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("button", { name: /Task 3/ })).toBeVisible();
  await filter.fill("session-4.jsonl");
  await expect(list.getByRole("button", { name: /Task 4/ })).toBeVisible();
  await filter.fill("gpt-5.1-codex task");
  await expect(list.getByRole("listitem")).toHaveCount(5);
  await filter.fill("no such thing");
  await expect(list.getByRole("status")).toHaveText("0 of 6 shown");
  await filter.press("Escape");
  await expect(filter).toHaveValue("");
  await expect(list.getByRole("listitem")).toHaveCount(6);
});

test("opens a file dropped on the page", async ({ page }) => {
  await page.goto("/");
  const data = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], "dropped.jsonl", { type: "application/jsonl" }));
    return dt;
  }, BRANCHES);
  await page.dispatchEvent("body", "drop", { dataTransfer: data });
  await expect(
    page.getByRole("navigation", { name: "Open sessions" }).getByRole("button", { name: /13 entries/ }),
  ).toBeVisible();
});

test("keyboard: arrows move, Enter makes the entry the leaf, / focuses search", async ({ page }) => {
  await page.goto("/");
  await openFiles(page, file("branches.jsonl", BRANCHES));
  const tree = page.getByRole("tree", { name: "Session tree" });
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText("C works.");
  await tree.getByRole("treeitem", { selected: true }).focus();
  await page.keyboard.press("Home");
  await page.keyboard.press("Enter");
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText("Read the README please");
  await expect(page.getByRole("region", { name: "Inspector" })).toContainText("Read the README please");
  await expect(page).toHaveURL(/#session=sess-0001&leaf=u1$/);
  await page.keyboard.press("ArrowDown"); // the tool-only assistant turn is hidden by pi's default filter
  await page.keyboard.press("Enter");
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText("# Demo");
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/leaf=a5$/);
  await page.keyboard.press("/");
  await expect(page.getByRole("searchbox", { name: "Search entries" })).toBeFocused();
});

test("the URL deep-links to an entry, and a reload restores sessions and selection", async ({ page }) => {
  await page.goto("/");
  await openFiles(page, file("branches.jsonl", BRANCHES));
  const tree = page.getByRole("tree", { name: "Session tree" });
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText("C works.");
  await page.goto("/#session=sess-0001&leaf=a3");
  await page.reload();
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText("Approach A done");
  await page.goto("/#session=sess-0001&leaf=line:11");
  await page.reload();
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText("Approach B done");
  // The selection is saved a moment later (IndexedDB): reloading before that would restore the one before.
  await expect.poll(() => savedLeaf(page)).toBe(9); // line 11 is entry 9 (entries start on line 2)
  await page.goto("/");
  await page.reload();
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText("Approach B done");
});

test("removing a session forgets it across reloads", async ({ page }) => {
  await page.goto("/");
  await openFiles(page, file("branches.jsonl", BRANCHES));
  await page.getByRole("button", { name: "Remove branches.jsonl" }).click();
  await page.reload();
  await expect(page.getByRole("button", { name: "Remove branches.jsonl" })).toHaveCount(0);
});

test("a damaged file loads with its diagnostics; a non-session file is named for what it is", async ({ page }) => {
  await page.goto("/");
  await openFiles(page, file("damaged.jsonl", DAMAGED));
  await page.getByRole("tab", { name: /Diagnostics/ }).click();
  await expect(page.getByRole("region", { name: "Diagnostics" })).toContainText("Line 3 is not JSON");
  await openFiles(page, file("events.jsonl", PI_JSON_MODE));
  await expect(page.getByRole("region", { name: "Not a session" })).toContainText("--mode json");
});

test("a session full of script injection executes none of it, anywhere", async ({ page }) => {
  const offOrigin = watchRequests(page);
  await page.goto("/");
  await openFiles(page, file("hostile.jsonl", hostileSession()));
  const tree = page.getByRole("tree", { name: "Session tree" });
  await page.getByLabel("Show").selectOption("all");
  await tree.getByRole("treeitem", { selected: true }).focus();
  await page.keyboard.press("Home");
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press("Enter");
    const inspector = page.getByRole("region", { name: "Inspector" });
    await inspector.waitFor();
    for (const link of await inspector.getByRole("link").all())
      await link.click({ modifiers: ["Alt"] }).catch(() => undefined);
    // In one go: the inspector may re-render between listing its <details> and opening each of them.
    await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
    await tree.getByRole("treeitem", { selected: true }).focus();
    await page.keyboard.press("ArrowDown");
  }
  await page.getByRole("tab", { name: /Diagnostics/ }).click();
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(offOrigin).toEqual([]);
});

test("axe finds no serious or critical problems on the main views", async ({ page }) => {
  await page.goto("/");
  await openFiles(page, file("branches.jsonl", BRANCHES));
  await expect(page.getByRole("tree", { name: "Session tree" })).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await page.getByRole("tab", { name: /Diagnostics/ }).click();
  const again = await new AxeBuilder({ page }).analyze();
  expect(again.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual(
    [],
  );
});

test("the payload view keeps what the person unfolded and where they scrolled, across tabs and sessions", async ({
  page,
}) => {
  await page.goto("/");
  const list = page.getByRole("navigation", { name: "Open sessions" });
  await expect(list.getByRole("button", { name: /Fix invoice rounding/ })).toBeVisible();
  await page.getByRole("tab", { name: "Payload" }).click();
  const region = page.getByRole("region", { name: "Provider payload" });
  const item = (index: number) =>
    region.getByRole("treeitem", { name: new RegExp(`^\\[${index}\\] `) }).and(region.locator('[aria-level="2"]'));
  const scroller = region.locator(".scroller");
  const first = item(0);
  await expect(region.getByRole("tree", { name: "Payload JSON" })).toBeVisible();
  await scroller.evaluate((element) => element.scrollTo({ top: 0 })); // from the leaf's item, revealed on opening
  await expect(first).toHaveAttribute("aria-expanded", "false");
  await first.click();
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await scroller.evaluate((element) => element.scrollTo({ top: 90 }));
  await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBe(90);

  // Another tab unmounts the view; coming back shows it as it was left, not the leaf's item scrolled to afresh.
  await page.getByRole("tab", { name: "Entry" }).click();
  await expect(region).toHaveCount(0);
  await page.getByRole("tab", { name: "Payload" }).click();
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBe(90);

  // Another session has a view of its own; back at the first session, its view is as it was left.
  await openFiles(page, file("branches.jsonl", BRANCHES));
  await expect(region).toContainText("And approach C?");
  await list.getByRole("button", { name: /Fix invoice rounding/ }).click();
  await expect(region).not.toContainText("And approach C?");
  await expect(first).toHaveAttribute("aria-expanded", "true");
  await expect.poll(() => scroller.evaluate((element) => element.scrollTop)).toBe(90);
});

test("a long tool output reaches the page shortened and is read whole from the worker when asked for", async ({
  page,
}) => {
  const output = `${Array.from({ length: 400 }, (_, i) => `row ${i}: ok`).join("\n")}\nEND-OF-OUTPUT`;
  const text = session(
    header({ id: "long-output" }),
    user("u1", null, "Run the tests"),
    assistant("a1", "u1", [toolCall("call_1", "bash", { command: "npm test" })]),
    toolResult("r1", "a1", "call_1", [{ type: "text", text: output }]),
    assistant("a2", "r1", "All rows ok."),
  );
  await page.goto("/");
  await openFiles(page, file("long-output.jsonl", text));
  await page.getByRole("tab", { name: "Payload" }).click();
  const region = page.getByRole("region", { name: "Provider payload" });
  const result = region.getByRole("treeitem", { name: /^\[2\] / }).and(region.locator('[aria-level="2"]'));
  await expect(result).toHaveAccessibleName(/"row 0: ok row 1: ok/); // its summary quotes the head
  await expect(result).toHaveAttribute("aria-expanded", "true"); // a short list's items are open
  const show = region.getByRole("button", { name: `show all (${output.length.toLocaleString("en")} chars)` });
  await expect(show).toBeVisible();
  await expect(region.getByText("END-OF-OUTPUT")).toHaveCount(0);
  await show.click();
  await expect(region.getByRole("button", { name: "show less" })).toBeVisible();
  await expect(region.getByText("row 1: ok\\n", { exact: true })).toBeVisible();
  await region.getByRole("button", { name: "show less" }).hover();
  await page.mouse.wheel(0, 20_000);
  await expect(region.getByText('END-OF-OUTPUT"', { exact: false })).toBeVisible();
  await region.getByRole("button", { name: "show less" }).click();
  await expect(region.getByText("END-OF-OUTPUT")).toHaveCount(0);
});

test("a long payload list comes in part and the items scrolled to are read from the worker", async ({ page }) => {
  // 1,500 tool results of 500 characters: about 1.6 million characters of items, more than a projection answer
  // carries, so the page holds the first items and reads the others as they come into view.
  const results = 1_500;
  const text = session(
    header({ id: "long-list" }),
    user("u1", null, "Read every log"),
    ...Array.from({ length: results }, (_, i) => i + 1).flatMap((n) => [
      assistant(`a${n}`, n === 1 ? "u1" : `r${n - 1}`, [toolCall(`call_${n}`, "read", { path: `log${n}.txt` })]),
      toolResult(`r${n}`, `a${n}`, `call_${n}`, [{ type: "text", text: `LOG-${n} `.padEnd(500, "x") }]),
    ]),
    assistant("a_last", `r${results}`, "All logs read."),
  );
  const items = results * 2 + 2;
  await page.goto("/");
  await openFiles(page, file("long-list.jsonl", text));
  await page.getByRole("tab", { name: "Payload" }).click();
  const region = page.getByRole("region", { name: "Provider payload" });
  const item = (index: number) =>
    region.getByRole("treeitem", { name: new RegExp(`^\\[${index}\\] `) }).and(region.locator('[aria-level="2"]'));
  await expect(region).toContainText(`${items.toLocaleString("en")} messages`);
  // The leaf's item, at the end of the list, is revealed and read.
  await expect(item(items - 1)).toHaveAccessibleName(/assistant · "All logs read\."/);
  await expect(item(items - 1)).toHaveAttribute("aria-current", "true");
  await expect(item(items - 1)).toHaveAttribute("aria-expanded", "true"); // unfolded once read, as a held one is
  await expect(item(items - 1)).toHaveAccessibleName(/ ~[\d,]+ tok$/); // its token count, once counted
  // Far from both ends: read as it is scrolled to.
  const scroller = region.locator(".scroller");
  const last = await item(items - 1).evaluate((element) => (element as HTMLElement).offsetTop);
  const top = Math.round((last / (items - 1)) * 1795); // a few rows above item 1800 (rows are all one height)
  await scroller.evaluate((element, y) => element.scrollTo({ top: y }), top);
  await expect(item(1800)).toHaveAccessibleName(/user · "LOG-900 x+…" · 1 block · tool result/);
  await expect(region.getByText("reading…")).toHaveCount(0);
  // Unfolding an item read this way shows its content, and the keyboard moves on through items read as they come.
  await item(1800).click();
  await expect(item(1800)).toHaveAttribute("aria-expanded", "true");
  await expect(region.getByText('"tool_use_id"').first()).toBeVisible();
  await item(1800).click();
  await expect(item(1800)).toHaveAttribute("aria-expanded", "false");
  // Page down (a page is as many rows as the view is high) until well past the items read around item 1,800.
  const focused = region.locator('[role="treeitem"]:focus');
  let reached = 1800;
  for (let i = 0; i < 200 && reached <= 2300; i++) {
    await page.keyboard.press("PageDown");
    reached = Number(await focused.getAttribute("data-item"));
  }
  await expect(focused).toHaveAttribute("aria-level", "2");
  expect(reached).toBeGreaterThan(2300);
  await expect(focused).toHaveAccessibleName(/^\[\d+\] (user|assistant) · /);
  // Copying an item read this way copies the worker's JSON of it.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const at = Number(await focused.getAttribute("data-item"));
  await focused.getByRole("button", { name: `Copy item ${at}` }).click();
  // Items alternate: a call (item 2n - 1 reads log n) and its result (item 2n holds LOG-n).
  const expected = at % 2 === 0 ? `LOG-${at / 2} ` : `log${(at + 1) / 2}.txt`;
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain(expected);
});

test("a leaf chosen while the session is still being shown again is the one that stays", async ({ page }) => {
  await page.goto("/");
  await openFiles(page, file("branches.jsonl", BRANCHES));
  const tree = page.getByRole("tree", { name: "Session tree" });
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText("C works.");
  // The session worker answers searches late, as when it is busy: choosing the session again takes a while.
  await expect.poll(() => page.workers().length).toBeGreaterThan(0);
  for (const worker of page.workers()) {
    await worker.evaluate(() => {
      if (self.name !== "sessions") return;
      const post = self.postMessage.bind(self);
      self.postMessage = ((message: { type?: string }) => {
        if (message.type === "search") setTimeout(() => post(message), 1500);
        else post(message);
      }) as typeof self.postMessage;
    });
  }
  const list = page.getByRole("navigation", { name: "Open sessions" });
  await list.getByRole("button", { name: /Read the README please/ }).click();
  await tree
    .getByRole("treeitem", { name: /Approach A done/ })
    .first()
    .focus();
  await page.keyboard.press("Enter");
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText("Approach A done");
  await page.waitForTimeout(2500); // the late answer has come
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText("Approach A done");
  await expect(page.getByRole("region", { name: "Inspector" })).toContainText("Approach A done");
});
