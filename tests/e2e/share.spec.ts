/**
 * Sharing as a person does it: review a snapshot, download it or copy its link, open either in a fresh browser
 * (no session, no storage) and see the same payload; bad snapshots get a clear message; nothing leaves the origin.
 */
import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { watchRequests } from "./support/requests.ts";
import { compaction, header, image, modelChange, session, text, user } from "../support/build.ts";

const file = (name: string, body: string) => ({ name, mimeType: "application/json", buffer: Buffer.from(body) });
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAL0lEQVR42mOQk1O5Y2MjJ6cCRxAuAzIHmcGArBBZKyEJ7EbhsxwTMQTsS0FDEAkAYNcp3VdXZfUAAAAASUVORK5CYII=";
/** A fake key in the right shape, made at run time (none is written in this file). */
const FAKE_KEY = `sk-proj-${Array.from({ length: 64 }, (_, i) => "Qx7Rb2Kd9Mw4Tn6Hp3Vz8Lc5Gj1Fs0Ye"[(i * 7) % 32]).join("")}`;

/** A first visit: the sample opens (and is on screen before the test opens files of its own). */
async function openApp(page: Page): Promise<void> {
  await page.goto("/");
  await page.evaluate(() => indexedDB.deleteDatabase("keyval-store"));
  await page.goto("/");
  await page.getByRole("tree", { name: "Session tree" }).waitFor();
}

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const downloading = page.waitForEvent("download");
  await click();
  const done = await downloading;
  return { name: done.suggestedFilename(), text: readFileSync((await done.path())!, "utf8") };
}

const shareDialog = (page: Page) => page.getByRole("dialog", { name: "Share a snapshot" });
const snapshotView = (page: Page) => page.getByRole("region", { name: "Snapshot" });

/** The payload of the current view, as its Download button writes it. */
const payloadOf = async (page: Page) =>
  JSON.parse(
    (
      await download(page, () =>
        page.getByRole("region", { name: "Provider payload" }).getByRole("button", { name: "Download" }).click(),
      )
    ).text,
  ) as unknown;

/** The sample at its default leaf, the Payload tab open, the share review made. */
async function reviewSample(page: Page): Promise<unknown> {
  await openApp(page);
  await page.getByRole("tab", { name: "Payload" }).click();
  const live = await payloadOf(page);
  await page.getByRole("button", { name: "Share…" }).click();
  await expect(shareDialog(page).getByRole("button", { name: "Download snapshot" })).toBeVisible();
  return live;
}

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL! });
  return context.newPage();
}

test("a downloaded snapshot of the sample opens in a fresh browser with the same payload", async ({
  page,
  browser,
}) => {
  const offOrigin = watchRequests(page);
  const live = await reviewSample(page);
  const dialog = shareDialog(page);
  const contents = dialog.getByRole("definition");
  await expect(contents.filter({ hasText: "sample-session.jsonl" })).toBeVisible();
  await expect(contents.filter({ hasText: "pi 0.73.1 exactly" })).toBeVisible();
  await expect(dialog).toContainText("No secrets found");
  const saved = await download(page, () => dialog.getByRole("button", { name: "Download snapshot" }).click());
  expect(saved.name).toMatch(/^sample-session-[\w-]+\.snapshot\.json$/);
  const snapshot = JSON.parse(saved.text) as { format: string; payload: { body: unknown } };
  expect(snapshot.format).toBe("context-lens/snapshot");
  expect(snapshot.payload.body).toEqual(live);

  const fresh = await freshPage(browser);
  const freshOffOrigin = watchRequests(fresh);
  await fresh.goto("/");
  await fresh.getByLabel("Open session files").setInputFiles(file(saved.name, saved.text));
  await expect(snapshotView(fresh)).toContainText("a saved copy of what openai/gpt-5.1-codex was sent");
  await expect(snapshotView(fresh).getByRole("group", { name: "Snapshot summary" })).toBeVisible();
  expect(await payloadOf(fresh)).toEqual(live);
  // The path shows every entry's fate, without the session.
  await expect(fresh.getByRole("region", { name: /^Path: \d+ entries/ })).toContainText(
    "summarised by the compaction on line",
  );
  await fresh.getByRole("button", { name: "Close snapshot" }).click();
  await expect(snapshotView(fresh)).toHaveCount(0);
  await expect(fresh.getByRole("tree", { name: "Session tree" })).toBeVisible();
  expect([...offOrigin, ...freshOffOrigin]).toEqual([]);
  await fresh.context().close();
});

test("a copied share link opens the same view in a fresh browser", async ({ page, browser, context }) => {
  const offOrigin = watchRequests(page);
  const origin = new URL(test.info().project.use.baseURL!).origin;
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  const live = await reviewSample(page);
  const dialog = shareDialog(page);
  await dialog.getByRole("button", { name: "Copy link" }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "Copied the link" })).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(new RegExp(`^${origin}/#snapshot=[A-Za-z0-9_-]+$`));
  await expect(dialog.getByLabel("Share link")).toHaveValue(link);
  const facts = await dialog.getByRole("group", { name: "Snapshot contents" }).innerText();

  const fresh = await freshPage(browser);
  const freshOffOrigin = watchRequests(fresh);
  await fresh.goto(link);
  await expect(snapshotView(fresh)).toContainText("from a shared link");
  expect(await snapshotView(fresh).getByRole("group", { name: "Snapshot summary" }).innerText()).toBe(facts);
  expect(await payloadOf(fresh)).toEqual(live);
  // The link stays in the address bar while the snapshot is open (a reload shows it again).
  await fresh.reload();
  await expect(snapshotView(fresh)).toContainText("from a shared link");
  expect(fresh.url()).toBe(link);
  expect([...offOrigin, ...freshOffOrigin]).toEqual([]);
  await fresh.context().close();
});

test("the review hides secrets and images by default; each can be kept", async ({ page }) => {
  await openApp(page);
  const withSecret = session(
    header({ id: "share-secret" }),
    modelChange("m1", null, "anthropic", "claude-sonnet-4-5"),
    user("u1", "m1", [text(`Deploy with ${FAKE_KEY} please`), image(PNG)]),
  );
  await page.getByLabel("Open session files").setInputFiles(file("secret.jsonl", withSecret));
  await page.getByRole("tab", { name: "Payload" }).click();
  // The new session is the one on screen (not the sample opened on the first visit).
  await expect(page.getByRole("group", { name: "Projection summary" })).toContainText("anthropic/claude-sonnet-4-5");
  await page.getByRole("button", { name: "Share…" }).click();
  const dialog = shareDialog(page);
  await expect(dialog).toContainText("1 of 1 secret will be replaced by a marker");
  const keep = dialog.getByRole("checkbox", { name: /Keep visible: OpenAI API key in payload item 0 \(line 3\)/ });
  await expect(keep).not.toBeChecked();
  const images = dialog.getByRole("checkbox", { name: /Leave out 1 image/ });
  await expect(images).toBeChecked();

  const save = () => download(page, () => dialog.getByRole("button", { name: "Download snapshot" }).click());
  const hidden = (await save()).text;
  expect(hidden).not.toContain(FAKE_KEY);
  expect(hidden).not.toContain(PNG);
  expect(hidden).toContain("[REDACTED openai-key");
  expect(hidden).toContain("[image left out of this snapshot: image/png, 104 bytes]");

  await keep.check();
  await images.uncheck();
  await expect(dialog).toContainText("0 of 1 secret will be replaced");
  const shown = (await save()).text;
  expect(shown).toContain(FAKE_KEY);
  expect(shown).toContain(PNG);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Share…" })).toBeFocused();
});

test("a link too long to travel well says so and points to the file", async ({ page }) => {
  await openApp(page);
  // Pseudo-random lower-case words: hard to compress, and nothing like a secret.
  let seed = 1;
  const letter = () => {
    seed = (seed * 48271) % 2147483647;
    return "abcdefghijklmnopqrstuvwxyz"[seed % 26]!;
  };
  const words = Array.from({ length: 12_000 }, () => Array.from({ length: 6 }, letter).join("")).join(" ");
  const long = session(
    header({ id: "long-one" }),
    modelChange("m1", null, "anthropic", "claude-sonnet-4-5"),
    user("u1", "m1", words),
  );
  await page.getByLabel("Open session files").setInputFiles(file("long.jsonl", long));
  await page.getByRole("tab", { name: "Payload" }).click();
  await expect(page.getByRole("group", { name: "Projection summary" })).toContainText("anthropic/claude-sonnet-4-5");
  await page.getByRole("button", { name: "Share…" }).click();
  const dialog = shareDialog(page);
  await expect(dialog.getByRole("status").filter({ hasText: "chat apps and mail may cut links" })).toContainText(
    "the snapshot file is the safer way to share it",
  );
  await expect(dialog.getByRole("button", { name: "Copy link" })).toBeEnabled();
});

test("damaged, newer and foreign snapshots, and a cut link, each get a clear message", async ({ page }) => {
  await openApp(page);
  const open = (name: string, body: string) => page.getByLabel("Open session files").setInputFiles(file(name, body));
  const alert = () => snapshotView(page).getByRole("alert");

  await open("broken.snapshot.json", '{"format": "context-lens/snapshot", "version": 1, "createdAt": 5}');
  await expect(alert()).toContainText("This snapshot cannot be opened");
  await expect(alert()).toContainText("broken.snapshot.json is damaged: at createdAt:");

  await open("newer.snapshot.json", '{"format": "context-lens/snapshot", "version": 3}');
  await expect(alert()).toContainText("was made by a newer Context Lens (snapshot version 3");

  await open("cut.snapshot.json", '{"format": "context-lens/snapshot", "version": 1, "session": {');
  await expect(alert()).toContainText("cut.snapshot.json is not JSON");
  await expect(alert()).toContainText("cut off or edited");

  const packed = deflateRawSync(
    JSON.stringify({ format: "context-lens/snapshot", version: 1, note: "a long text ".repeat(400) }),
  ).toString("base64url");
  await page.goto(`/#snapshot=${packed.slice(0, Math.floor(packed.length / 2))}`);
  await expect(alert()).toContainText("The link is damaged or incomplete");
  await expect(alert()).toContainText("ask for the snapshot file instead");
});

test("a compacted path's summarised entries are one row that lists them, a page at a time, and folds again", async ({
  page,
}) => {
  await openApp(page);
  // m1, u1…u1200, then a compaction keeping u1200, then one more prompt: 1,200 entries are summarised.
  const prompts = Array.from({ length: 1200 }, (_, i) =>
    user(`u${i + 1}`, i === 0 ? "m1" : `u${i}`, `Prompt ${i + 1}`),
  );
  const compacted = session(
    header({ id: "compacted-one" }),
    modelChange("m1", null, "anthropic", "claude-sonnet-4-5"),
    ...prompts,
    compaction("c1", "u1200", "u1200", "Twelve hundred prompts, summarised."),
    user("last", "c1", "And now?"),
  );
  await page.getByLabel("Open session files").setInputFiles(file("compacted.jsonl", compacted));
  await page.getByRole("tab", { name: "Payload" }).click();
  await expect(page.getByRole("group", { name: "Projection summary" })).toContainText("anthropic/claude-sonnet-4-5");
  await page.getByRole("button", { name: "Share…" }).click();
  const saved = await download(page, () =>
    shareDialog(page).getByRole("button", { name: "Download snapshot" }).click(),
  );
  await shareDialog(page).getByRole("button", { name: "Close" }).click();
  await page.getByLabel("Open session files").setInputFiles(file(saved.name, saved.text));

  const path = snapshotView(page).getByRole("region", { name: "Path: 1203 entries, root to leaf" });
  const rows = path.getByRole("listitem");
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toContainText("line 2 … 1,200 entries to line 1201");
  await expect(rows.first()).toContainText("summarised by the compaction on line 1203");
  await expect(rows.nth(1)).toContainText("line 1202");

  await rows.first().getByRole("button", { name: "List all 1,200" }).click();
  await expect(rows).toHaveCount(500);
  await expect(rows.nth(1)).toContainText("line 3");
  await expect(path).toContainText("500 of 1,203 rows shown.");
  await path.getByRole("button", { name: "Show 500 more" }).click();
  await expect(rows).toHaveCount(1000);
  await path.getByRole("button", { name: "Show 203 more" }).click();
  await expect(rows).toHaveCount(1203);
  await expect(path.getByRole("button", { name: /^Show/ })).toHaveCount(0);
  // An entry with a payload item is a button: choosing it marks its row (the payload view goes to its item).
  await rows
    .last()
    .getByRole("button", { name: /^line \d+$/ })
    .click();
  await expect(rows.last()).toHaveAttribute("aria-current", "true");
  // The opened run folds back into one row, from its last entry (where the person is after scrolling through it)
  // as from its first, and the focus goes to the folded row's button.
  await rows.nth(1199).getByRole("button", { name: "Fold 1,200 into one row" }).click();
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toContainText("line 2 … 1,200 entries to line 1201");
  await expect(rows.first().getByRole("button", { name: "List all 1,200" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(rows).toHaveCount(1203); // the pages shown before are kept
  await rows.first().getByRole("button", { name: "Fold 1,200 into one row" }).click();
  await expect(rows).toHaveCount(4);
});

test("axe finds no serious or critical problems in the share review or the snapshot view", async ({ page }) => {
  await reviewSample(page);
  const serious = async () =>
    (await new AxeBuilder({ page }).analyze()).violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(await serious()).toEqual([]);
  const saved = await download(page, () =>
    shareDialog(page).getByRole("button", { name: "Download snapshot" }).click(),
  );
  await shareDialog(page).getByRole("button", { name: "Close" }).click();
  await page.getByLabel("Open session files").setInputFiles(file(saved.name, saved.text));
  await expect(snapshotView(page)).toBeVisible();
  expect(await serious()).toEqual([]);
});
