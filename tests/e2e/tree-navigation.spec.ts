/**
 * Moving around the tree in the app: the first view centres the current leaf (after the panes around it have
 * settled), and search moves the view from hit to hit — Enter, Shift+Enter, the arrow buttons — without changing
 * the leaf or taking the keyboard from the search box.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { assistant, header, session, user } from "../support/build.ts";

const NEEDLE_TURNS = [10, 60, 110];
const TURNS = 150;

/** A linear session of 150 turns (300 entries, about 12,000 px tall); "zebra" is in the user messages of turns 10, 60, 110. */
function tallSession(): string {
  const entries = [header({ id: "tall-0001" })];
  let parent: string | null = null;
  for (let t = 0; t < TURNS; t++) {
    entries.push(user(`u${t}`, parent, `Turn ${t}: ${NEEDLE_TURNS.includes(t) ? "find the zebra" : "carry on"}`));
    entries.push(assistant(`a${t}`, `u${t}`, `Reply ${t}`));
    parent = `a${t}`;
  }
  return session(...entries);
}

async function openTall(page: Page): Promise<Locator> {
  await page.goto("/");
  await page.evaluate(() => indexedDB.deleteDatabase("keyval-store"));
  await page.goto("/");
  await page
    .getByLabel("Open session files")
    .setInputFiles({ name: "tall.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(tallSession()) });
  const tree = page.getByRole("tree", { name: "Session tree" });
  await expect(tree.getByRole("treeitem", { selected: true })).toHaveAccessibleName(/^Assistant: Reply 149/);
  return tree;
}

/** How far the centre of `item` is from the centre of `area`, in px (0 when missing, so polls keep polling). */
async function offCentre(area: Locator, item: Locator): Promise<{ dx: number; dy: number }> {
  const [a, i] = await Promise.all([area.boundingBox(), item.boundingBox()]);
  if (!a || !i) return { dx: Infinity, dy: Infinity };
  const round = (v: number) => Math.round(v);
  return { dx: round(i.x + i.width / 2 - (a.x + a.width / 2)), dy: round(i.y + i.height / 2 - (a.y + a.height / 2)) };
}

const centred = (area: Locator, item: Locator) =>
  expect.poll(async () => {
    const { dx, dy } = await offCentre(area, item);
    return Math.abs(dx) <= 1 && Math.abs(dy) <= 1;
  });

test("opens with the current leaf centred, and keeps it centred when the window changes size", async ({ page }) => {
  const tree = await openTall(page);
  const leaf = tree.getByRole("treeitem", { selected: true });
  await centred(tree, leaf).toBe(true);
  // The path to the leaf, above it, fills the upper half of the view.
  const parent = tree.getByRole("treeitem", { name: /^User: Turn 149.*on the current path/ });
  await expect(parent).toBeInViewport();
  await page.setViewportSize({ width: 1100, height: 640 });
  await centred(tree, leaf).toBe(true);
  await page.setViewportSize({ width: 1400, height: 980 });
  await centred(tree, leaf).toBe(true);
});

test("search moves the view from hit to hit, n of m, without changing the leaf", async ({ page }) => {
  const tree = await openTall(page);
  const search = page.getByRole("searchbox", { name: "Search entries" });
  const status = page.locator("search").getByRole("status");
  const hit = tree.getByRole("treeitem", { name: /current search hit/ });
  const leaf = tree.getByRole("treeitem", { selected: true });
  await expect(page).toHaveURL(/leaf=a149$/);

  await search.fill("zebra");
  await expect(status).toHaveText("1 of 3");
  await expect(hit).toHaveAccessibleName(/^User: Turn 10: find the zebra/);
  await centred(tree, hit).toBe(true);
  await expect(search).toBeFocused();
  await expect(leaf).toHaveAccessibleName(/^Assistant: Reply 149/);

  await search.press("Enter");
  await expect(status).toHaveText("2 of 3");
  await expect(hit).toHaveAccessibleName(/^User: Turn 60:/);
  await centred(tree, hit).toBe(true);
  await search.press("Shift+Enter");
  await expect(status).toHaveText("1 of 3");
  await expect(hit).toHaveAccessibleName(/^User: Turn 10:/);
  await search.press("Shift+Enter");
  await expect(status).toHaveText("3 of 3");
  await expect(hit).toHaveAccessibleName(/^User: Turn 110:/);
  await centred(tree, hit).toBe(true);
  await expect(search).toBeFocused();
  await page.getByRole("button", { name: "Next hit" }).click();
  await expect(status).toHaveText("1 of 3");
  await expect(hit).toHaveAccessibleName(/^User: Turn 10:/);
  await expect(leaf).toHaveAccessibleName(/^Assistant: Reply 149/);
  await expect(page).toHaveURL(/leaf=a149$/);

  await search.fill("okapi");
  await expect(status).toHaveText("No matches");
  await expect(page.getByRole("button", { name: "Next hit" })).toBeDisabled();

  // Without a query the view goes back to the leaf.
  await search.fill("");
  await expect(status).toHaveText(/^\d+ shown$/);
  await expect(hit).toHaveCount(0);
  await centred(tree, leaf).toBe(true);
  await expect(search).toBeFocused();
});

test("Enter pressed before the search has answered steps through the hits of what was typed", async ({ page }) => {
  const tree = await openTall(page);
  const search = page.getByRole("searchbox", { name: "Search entries" });
  const status = page.locator("search").getByRole("status");
  const hit = tree.getByRole("treeitem", { name: /current search hit/ });
  await search.fill("carry");
  await expect(status).toHaveText("1 of 147");
  // A new query and Enter in one task: the worker cannot have answered the query when Enter arrives, so the
  // step must wait for its hits rather than step through the old ones (which the new hits then replace).
  await search.evaluate((input: HTMLInputElement) => {
    input.value = "zebra";
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
  });
  await expect(status).toHaveText("2 of 3");
  await expect(hit).toHaveAccessibleName(/^User: Turn 60:/);
  await centred(tree, hit).toBe(true);
});

test("a hit that arrives once focus is in the tree takes the focus with it", async ({ page }) => {
  // A quick person types a query and tabs into the tree before the worker has answered: focus lands on the
  // old tab stop, then the hit becomes the tab stop. Focus must follow it, not stay on a node that is no
  // longer reachable with Tab. The query is set without focusing the box, which stands for that race.
  const tree = await openTall(page);
  const leaf = tree.getByRole("treeitem", { selected: true });
  await leaf.focus();
  await expect(leaf).toBeFocused();
  await page.getByRole("searchbox", { name: "Search entries" }).evaluate((box: HTMLInputElement) => {
    box.value = "zebra";
    box.dispatchEvent(new Event("input", { bubbles: true }));
  });
  const hit = tree.getByRole("treeitem", { name: /current search hit/ });
  await expect(hit).toHaveAccessibleName(/^User: Turn 10: find the zebra/);
  await expect(hit).toBeFocused();
  await expect(hit).toHaveAttribute("tabindex", "0");
  await expect(leaf).toHaveAccessibleName(/^Assistant: Reply 149/);
});

test("panning tells the session worker, so that its long work waits; a pointer that only moves does not", async ({
  page,
}) => {
  // Every message the page posts to a worker, recorded before the app's scripts run.
  await page.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    const gestures: number[] = ((window as unknown as { __gestures: number[] }).__gestures = []);
    Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker["postMessage"]>) {
      if ((args[0] as { type?: string } | null)?.type === "gesture") gestures.push(performance.now());
      return post.apply(this, args as never);
    } as Worker["postMessage"];
  });
  const tree = await openTall(page);
  const told = () => page.evaluate(() => (window as unknown as { __gestures: number[] }).__gestures.length);
  const box = (await tree.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 40, { steps: 5 });
  expect(await told()).toBe(0);

  await page.mouse.wheel(0, 200);
  await expect.poll(told).toBe(1);
  await page.waitForTimeout(150); // past the client's 100 ms between two notices
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 200, { steps: 5 });
  await page.mouse.up();
  await expect.poll(told).toBeGreaterThanOrEqual(2);
});
