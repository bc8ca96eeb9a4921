/**
 * Nothing a session contains is sent anywhere. A session whose every field carries its own marker
 * (`CL-PRIVACY-<n>`) goes through every feature — open, tree, search, inspector, copy, diagnostics, rules, presets,
 * models, tokens, compare, share (download and link), the snapshot from its file and its link, a reload — while
 * every request the page and its workers make is recorded, same-origin ones included. No request may carry a
 * marker in its URL, headers or body; none may leave the origin; after the first load only the app's own static
 * chunks may be fetched; and the page never opens a beacon, socket, event stream or peer connection.
 */
import { readFileSync } from "node:fs";
import { expect, test, type Page, type Request } from "@playwright/test";
import {
  assistant,
  bash,
  branchSummary,
  compaction,
  customMessage,
  entry,
  header,
  image,
  label,
  modelChange,
  session,
  text,
  thinking,
  thinkingChange,
  toolCall,
  toolResult,
  user,
} from "../support/build.ts";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAL0lEQVR42mOQk1O5Y2MjJ6cCRxAuAzIHmcGArBBZKyEJ7EbhsxwTMQTsS0FDEAkAYNcp3VdXZfUAAAAASUVORK5CYII=";
const MARKER = /CL-PRIVACY-\d+/;

/** A session whose every field holds a marker of its own; returns it with the markers it holds. */
function markedSession(): { fileName: string; sessionId: string; last: string; text: string; markers: string[] } {
  const markers: string[] = [];
  const m = () => {
    markers.push(`CL-PRIVACY-${markers.length + 1}`);
    return markers.at(-1)!;
  };
  const id = { model: m(), info: m(), level: m(), user: m(), turn: m(), result: m(), bash: m(), ext: m() };
  const more = { state: m(), label: m(), compaction: m(), summary: m(), side: m(), sideTurn: m(), last: m() };
  const call = m();
  const sessionId = m();
  const last = m();
  const lines = [
    header({ id: sessionId, cwd: `/home/${m()}/project` }),
    modelChange(id.model, null, "anthropic", "claude-sonnet-4-5"),
    entry("session_info", id.info, id.model, { name: m() }),
    thinkingChange(id.level, id.info, "medium"),
    user(id.user, id.level, [text(`Please fix ${m()}`), image(PNG)]),
    assistant(id.turn, id.user, [thinking(m(), m()), text(m()), toolCall(call, "bash", { command: `ls ${m()}` })], {
      usage: {
        input: 1200,
        output: 40,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 1240,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
    }),
    { ...toolResult(id.result, id.turn, call, [text(m())]), details: { note: m() } },
    bash(id.bash, id.result, `cat ${m()}`, m(), { fullOutputPath: `/tmp/${m()}.log` }),
    customMessage(id.ext, id.bash, m(), [text(m())]),
    entry("custom", more.state, id.ext, { customType: m(), data: { value: m() } }),
    label(more.label, more.state, id.user, m()),
    { ...compaction(more.compaction, more.label, id.user, m()), details: { readFiles: [m()] } },
    branchSummary(more.summary, more.compaction, more.side, m()),
    user(more.side, id.level, m()),
    assistant(more.sideTurn, more.side, m(), { provider: "openai", model: "gpt-4o", api: "openai-responses" }),
    user(more.last, more.summary, [text(`${last} password=${m()}-Zq9kL2mP`)]),
  ];
  return { fileName: `${m()}.jsonl`, sessionId, last, text: session(...lines), markers };
}

/** Records every request of the page, its popups and its workers, in order. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.context().on("request", (request) => requests.push(request));
  return requests;
}

/** Makes every network API the page could reach a server with say so when it is used (workers make requests only). */
function installNetworkApiWatch(): void {
  const report = (what: string, detail: unknown) =>
    (window as unknown as { __networkApi: (call: string) => void }).__networkApi(`${what} ${String(detail)}`);
  const wrap = <T extends object>(name: string, target: T): T =>
    new Proxy(target, {
      construct(ctor, args: unknown[]) {
        report(name, args[0]);
        return Reflect.construct(ctor as new (...a: unknown[]) => object, args) as object;
      },
    });
  const w = window as unknown as Record<string, object>;
  for (const name of ["WebSocket", "EventSource", "RTCPeerConnection", "webkitRTCPeerConnection", "WebTransport"]) {
    if (typeof w[name] === "function") w[name] = wrap(name, w[name]);
  }
  const beacon = navigator.sendBeacon.bind(navigator);
  navigator.sendBeacon = (url, data) => {
    report("sendBeacon", url);
    return beacon(url, data);
  };
  const fetchFn = window.fetch.bind(window);
  window.fetch = (input, init) => {
    report("fetch", input instanceof Request ? input.url : input);
    return fetchFn(input, init);
  };
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, ...args: unknown[]) {
    report("XMLHttpRequest", args[1]);
    return (open as (...a: unknown[]) => void).apply(this, args);
  } as typeof open;
}

/** Static chunks of the app: what may be fetched after the first load (lazy views, the model registry, workers). */
const isStaticChunk = (request: Request, origin: string) =>
  request.method() === "GET" &&
  request.postData() === null &&
  new RegExp(`^${origin}/assets/[\\w.-]+\\.(?:js|mjs|css|wasm|json)$`).test(request.url());

/** The requests that carry a marker in their URL, headers or body, as "METHOD URL". */
async function carryingMarkers(requests: readonly Request[]): Promise<string[]> {
  const carrying: string[] = [];
  for (const request of requests) {
    const parts = [request.url(), JSON.stringify(await request.allHeaders()), request.postData() ?? ""];
    if (parts.some((part) => MARKER.test(part) || MARKER.test(decodeURIComponent(part)))) {
      carrying.push(`${request.method()} ${request.url()}`);
    }
  }
  return carrying;
}

async function download(page: Page, click: () => Promise<void>): Promise<string> {
  const downloading = page.waitForEvent("download");
  await click();
  return readFileSync((await (await downloading).path())!, "utf8");
}

test("nothing a session holds is sent anywhere, whatever the person does", async ({ page, context }) => {
  test.setTimeout(180_000);
  const origin = new URL(test.info().project.use.baseURL!).origin;
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  const requests = recordRequests(page);
  const apiCalls: string[] = [];
  await page.exposeFunction("__networkApi", (call: string) => apiCalls.push(call));
  await page.addInitScript(installNetworkApiWatch);
  const marked = markedSession();
  const tree = page.getByRole("tree", { name: "Session tree" });

  // The first load (the sample opens on a first visit); what it fetched is the baseline.
  await page.goto("/");
  await expect(tree).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Open sessions" })).toContainText("Fix invoice rounding");
  const firstLoad = requests.length;

  // Open, tree, search, inspector (thinking and raw JSON open, text and JSON copied), diagnostics.
  await page
    .getByLabel("Open session files")
    .setInputFiles({ name: marked.fileName, mimeType: "application/jsonl", buffer: Buffer.from(marked.text) });
  await expect(page).toHaveURL(new RegExp(`#session=${marked.sessionId}&`));
  await page.getByLabel("Show").selectOption("all");
  await tree.getByRole("treeitem", { selected: true }).focus();
  await page.keyboard.press("Home");
  for (let i = 0; i < 16; i++) {
    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowDown");
  }
  const inspector = page.getByRole("region", { name: "Inspector" });
  await expect(inspector).toContainText("CL-PRIVACY-");
  for (const summary of await inspector.locator("summary").all()) await summary.click();
  await inspector.getByRole("button", { name: "Copy JSON" }).click();
  await page.getByRole("searchbox", { name: "Search entries" }).fill(marked.markers[20]!);
  await page.getByRole("searchbox", { name: "Search entries" }).press("Enter");
  await page.getByRole("searchbox", { name: "Search entries" }).fill("");
  await page.getByRole("tab", { name: /Diagnostics/ }).click();

  // Payload, tokens and rules: every toggle flipped and back, a choice changed, two other models, presets.
  await page.getByRole("tab", { name: "Payload" }).click();
  await page.getByRole("searchbox", { name: "Search entries" }).fill(marked.last);
  await tree.getByRole("treeitem", { name: /current search hit/ }).click();
  await page.getByRole("searchbox", { name: "Search entries" }).fill("");
  const rules = page.getByRole("region", { name: "Projection rules" });
  await expect(page.getByRole("region", { name: "Tokens" })).toContainText(/tokens/);
  for (const box of await rules.getByRole("checkbox").all()) {
    await box.click();
    await box.click();
  }
  await rules.locator('[data-rule="bash"] select').selectOption("head-tail");
  const models = rules.getByRole("combobox", { name: "Search models" });
  for (const [query, option] of [
    ["openai gpt-5.1-codex", /^openai\/gpt-5\.1-codex /],
    ["google gemini-2.5-pro", /^google\/gemini-2\.5-pro /],
  ] as const) {
    await models.fill(query);
    await page.getByRole("option", { name: option }).click();
  }
  await expect(page.getByRole("group", { name: "Projection summary" })).toContainText("google/gemini-2.5-pro");
  await rules.getByRole("button", { name: "Save as…" }).click();
  await rules.getByLabel("Preset name").fill(marked.markers[0]!);
  await rules.getByRole("button", { name: "Save", exact: true }).click();
  const preset = await download(page, () => rules.getByRole("button", { name: "Export" }).click());
  await rules
    .getByLabel("Import presets")
    .setInputFiles({ name: "again.preset.json", mimeType: "application/json", buffer: Buffer.from(preset) });
  await rules.getByLabel("Preset", { exact: true }).selectOption("pi 0.73.1");
  await rules.getByRole("button", { name: /Use the session's model/ }).click();
  await payloadDownload(page);

  // Compare: another preset, another leaf, another model, with a text diff and the JSON diff open.
  await page.getByRole("tab", { name: "Compare" }).click();
  const compare = page.getByRole("region", { name: "Compare" });
  const changes = page.getByRole("list", { name: "Changes from A to B" });
  await changes.getByRole("button", { name: "Text diff" }).first().click();
  await compare.getByRole("button", { name: "JSON diff" }).click();
  await compare.getByLabel("another leaf").check();
  await compare.getByLabel("B's leaf").fill("3");
  await compare.getByRole("button", { name: "Use" }).click();
  await compare.getByLabel("another model").check();
  await compare.getByRole("combobox", { name: "Search models" }).fill("openai gpt-4o-mini");
  await page.getByRole("option", { name: /^openai\/gpt-4o-mini / }).click();
  await expect(page.getByRole("region", { name: "Comparison summary" })).toContainText("openai/gpt-4o-mini");

  // Share: the review, the file and the link; then the snapshot from each, and a reload.
  await page.getByRole("tab", { name: "Payload" }).click();
  await page.getByRole("button", { name: "Share…" }).click();
  const dialog = page.getByRole("dialog", { name: "Share a snapshot" });
  await expect(dialog).toContainText("will be replaced by a marker");
  const snapshot = await download(page, () => dialog.getByRole("button", { name: "Download snapshot" }).click());
  await dialog.getByRole("button", { name: "Copy link" }).click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(new RegExp(`^${origin}/#snapshot=`));
  await dialog.getByRole("button", { name: "Close" }).click();
  await page
    .getByLabel("Open session files")
    .setInputFiles({ name: "shared.snapshot.json", mimeType: "application/json", buffer: Buffer.from(snapshot) });
  const snapshotView = page.getByRole("region", { name: "Snapshot" });
  await expect(snapshotView).toContainText("a saved copy of what");
  await payloadDownload(page);
  await page.getByRole("button", { name: "Close snapshot" }).click();
  await page.goto(link);
  await expect(snapshotView).toContainText("from a shared link");
  await page.getByRole("button", { name: "Close snapshot" }).click();
  await page.reload();
  await expect(page.getByRole("button", { name: `Remove ${marked.fileName}` })).toBeVisible();
  await expect(tree).toBeVisible();
  await page.waitForTimeout(500);

  // The markers were in the views (the test saw them), and in no request.
  expect(marked.markers.length).toBeGreaterThan(40);
  expect(await carryingMarkers(requests), "requests that carry session text").toEqual([]);
  const offOrigin = requests.filter((r) => !r.url().startsWith(`${origin}/`) && !/^(?:data|blob):/.test(r.url()));
  expect(offOrigin.map((r) => r.url())).toEqual([]);
  const later = requests.slice(firstLoad).filter((r) => !/^(?:data|blob):/.test(r.url()));
  const unexpected = later.filter((r) => !isStaticChunk(r, origin) && !isDocumentReload(r, origin));
  expect(
    unexpected.map((r) => `${r.method()} ${r.url()} (${r.resourceType()})`),
    `after the first load only static chunks; all later requests: ${later.map((r) => r.url()).join(", ")}`,
  ).toEqual([]);
  expect(apiCalls.filter((call) => !/^fetch |^XMLHttpRequest /.test(call))).toEqual([]);
  expect(apiCalls, "fetch and XMLHttpRequest from the page").toEqual([]);
});

/** The page itself, loaded again by the reload and the link (a document request for `/`, nothing else). */
const isDocumentReload = (request: Request, origin: string) =>
  request.method() === "GET" && request.resourceType() === "document" && request.url() === `${origin}/`;

/** Downloads the payload of the view on screen (a Blob URL: nothing is sent). */
async function payloadDownload(page: Page): Promise<void> {
  const region = page.getByRole("region", { name: "Provider payload" });
  const body = await download(page, () => region.getByRole("button", { name: "Download" }).click());
  expect(body).toMatch(MARKER);
}

test("the check sees a marker sent in a URL, a header, a body or a beacon", async ({ page }) => {
  // The control: what the test above would report, were the app to send session text.
  const requests = recordRequests(page);
  const apiCalls: string[] = [];
  await page.exposeFunction("__networkApi", (call: string) => apiCalls.push(call));
  await page.addInitScript(installNetworkApiWatch);
  await page.goto("/");
  await page.getByRole("tree", { name: "Session tree" }).waitFor();
  await page.evaluate(async () => {
    const send = (url: string, init?: RequestInit) => fetch(url, init).catch(() => undefined);
    await send("/control?q=CL-PRIVACY-1");
    await send("/control-header", { headers: { "x-note": "CL-PRIVACY-2" } });
    await send("/control-body", { method: "POST", body: "CL-PRIVACY-3" });
    navigator.sendBeacon("/control-beacon", "CL-PRIVACY-4");
  });
  await expect
    .poll(() => carryingMarkers(requests))
    .toEqual([
      expect.stringMatching(/^GET .*\/control\?q=CL-PRIVACY-1$/),
      expect.stringMatching(/^GET .*\/control-header$/),
      expect.stringMatching(/^POST .*\/control-body$/),
      expect.stringMatching(/^POST .*\/control-beacon$/),
    ]);
  expect(apiCalls).toEqual([
    expect.stringMatching(/^fetch \/control\?q=/),
    "fetch /control-header",
    "fetch /control-body",
    "sendBeacon /control-beacon",
  ]);
});
