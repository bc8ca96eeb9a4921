/**
 * Figure 3 of `npm run bench`: the app in Chromium, driven by Playwright's library API. The app is built into a
 * temporary directory and served there by `vite preview`; a generated session (100 MB and 50,000 entries by default)
 * is written to another temporary directory and opened through the "Open session files" input, as a person would.
 *
 * Printed, each against its budget from issue 6 (figures only: nothing fails on them):
 *   - the first-load JavaScript: the scripts the built index.html loads and their static imports, gzipped (≤ 150 kB),
 *     with what is fetched on demand beside it (the session worker, tokenizer vocabularies, lazy views);
 *   - the longest main-thread task while the file loads, until its tree is drawn (≤ 200 ms); for scale, the one task
 *     a viewer parsing on the main thread would block for (the same file's lines `JSON.parse`d in the page);
 *   - the JS heap of the page and its workers after loading, as a multiple of the file size (≤ 3×);
 *   - animation frames and long tasks during 60 pans of the tree — 20 with cards, 20 with boxes, 20 zoomed far out
 *     with lines only — and during the pinch zooms between them (no dropped frames);
 *   - the longest task when compaction is switched off with the payload view open (as loading), and the frames of
 *     60 scrolls of the payload view right after, while the worker counts the whole path (no budget of its own).
 * Then the heap once more on a session that is mostly screenshots (inline base64 images, the usual cause of huge
 * sessions), all of them on the leaf's path and sent to an OpenAI Responses model, which carries each image as a
 * `data:` URL: the images must be held once, not once more for the payload, its view or its token count.
 * Last, a folder's worth of generated sessions (300 by default) opened at once: the longest task until all are
 * listed (less the harness's task that sets the files into the input), and the heap after, against the same budgets.
 */
import { chromium, type Browser, type Page } from "@playwright/test";
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, preview, type PreviewServer } from "vite";
import {
  appTasksSince,
  heapUsage,
  installProbe,
  longTasksSince,
  mainThreadParse,
  pageNow,
  pan,
  pinch,
  recordFrames,
  scroll,
  waitForQuiet,
  type FrameFigures,
} from "./browser-page.ts";
import { generateOptions, writeSession } from "./generate-session.ts";
import { Rng, TextPool } from "./random.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
const LOAD_TIMEOUT = 300_000;

export interface BrowserBenchOptions {
  /** Size of the generated session, in MB (1 MB = 10^6 bytes). */
  readonly mb: number;
  readonly entries: number;
  /** Size of the screenshot session, in MB. */
  readonly imagesMb: number;
  /** How many sessions are opened at once, as from a folder. */
  readonly sessions: number;
}

/** Writes a generated session to `path` in 1 MB batches; returns its size in bytes. */
function writeSessionFile(path: string, options: BrowserBenchOptions): number {
  const fd = openSync(path, "w");
  let batch: string[] = [];
  let size = 0;
  const flush = () => {
    writeSync(fd, `${batch.join("\n")}\n`);
    batch = [];
    size = 0;
  };
  writeSession(generateOptions({ bytes: options.mb * 1e6, entries: options.entries, seed: 1 }), (line) => {
    batch.push(line);
    size += line.length;
    if (size >= 1 << 20) flush();
  });
  if (batch.length > 0) flush();
  closeSync(fd);
  return statSync(path).size;
}

/** A linear session of screenshots (one per user turn, ~90 KB of base64 each) for an OpenAI Responses model. */
function writeImageSessionFile(path: string, mb: number): number {
  const pool = new TextPool(new Rng(7));
  const fd = openSync(path, "w");
  const stamp = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  const line = (value: unknown) => writeSync(fd, `${JSON.stringify(value)}\n`);
  line({ type: "session", version: 3, id: "bench-images", timestamp: stamp(0), cwd: "/work" });
  let parent: string | null = null;
  for (let i = 0; statSync(path).size < mb * 1e6; i++) {
    const data = pool.base64(90_000, "iVBORw0KGgoA");
    const content = [
      { type: "text", text: `Screenshot ${i} of the settings page` },
      { type: "image", mimeType: "image/png", data },
    ];
    line({
      type: "message",
      id: `u${i}`,
      parentId: parent,
      timestamp: stamp(2 * i),
      message: { role: "user", content, timestamp: Date.parse(stamp(2 * i)) },
    });
    const usage = { input: 1000, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 1020 };
    line({
      type: "message",
      id: `a${i}`,
      parentId: `u${i}`,
      timestamp: stamp(2 * i + 1),
      message: {
        role: "assistant",
        content: [{ type: "text", text: `Screenshot ${i}: the toggle is still off.` }],
        api: "openai-responses",
        provider: "openai",
        model: "gpt-5.1-codex",
        usage: { ...usage, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: "stop",
        timestamp: Date.parse(stamp(2 * i + 1)),
      },
    });
    parent = `a${i}`;
  }
  closeSync(fd);
  return statSync(path).size;
}

async function serveApp(outDir: string): Promise<PreviewServer> {
  await build({ root: ROOT, logLevel: "error", build: { outDir, emptyOutDir: true } });
  return preview({ root: ROOT, logLevel: "error", build: { outDir }, preview: { host: "127.0.0.1", port: 0 } });
}

interface LoadFigures {
  readonly longestTask: number;
  readonly longTasks: number;
  readonly openMs: number;
}

/** Opens the file through the input and waits until its tree shows its leaf and the page is quiet again. */
async function openFile(page: Page, path: string, entries: number): Promise<LoadFigures> {
  const start = await pageNow(page);
  const wall = Date.now();
  await page.getByLabel("Open session files").setInputFiles(path);
  const list = page.getByRole("navigation", { name: "Open sessions" });
  await list.locator('[aria-current="true"]', { hasText: `${entries} entries` }).waitFor({ timeout: LOAD_TIMEOUT });
  const tree = page.getByRole("tree", { name: "Session tree" });
  await tree.getByRole("treeitem", { selected: true }).waitFor({ timeout: LOAD_TIMEOUT });
  const openMs = Date.now() - wall;
  await page.getByRole("region", { name: "Loading" }).waitFor({ state: "detached", timeout: LOAD_TIMEOUT });
  await waitForQuiet(page, 1500, 20_000);
  const tasks = await longTasksSince(page, start);
  return { longestTask: Math.max(0, ...tasks.map((t) => t.duration)), longTasks: tasks.length, openMs };
}

/**
 * Switches compaction off with the payload view open: the payload becomes that of the whole path (tens of thousands
 * of items, tens of MB of text); the page is sent its first items and reads the others as they are shown, and must
 * not be held while it does.
 */
async function compactionOff(page: Page) {
  const facts = page.getByRole("region", { name: "Provider payload" }).locator(".facts");
  const before = await facts.textContent();
  const start = await pageNow(page);
  const wall = Date.now();
  await page.getByLabel("Apply compaction").uncheck();
  let after = before;
  while (after === before && Date.now() - wall < LOAD_TIMEOUT) {
    await page.waitForTimeout(20);
    after = await facts.textContent();
  }
  if (after === before) throw new Error("the payload view did not change after switching compaction off");
  const shownMs = Date.now() - wall;
  await waitForQuiet(page, 1500, 20_000);
  const tasks = await longTasksSince(page, start);
  return {
    facts: after ?? "",
    shownMs,
    longTasks: tasks.length,
    longestTask: Math.max(0, ...tasks.map((t) => t.duration)),
  };
}

/**
 * 60 scrolls of the payload view, right after compaction was switched off: the session worker is still counting the
 * whole path's items then, and the person's scrolling must not wait for it.
 */
async function scrollPayload(page: Page): Promise<FrameFigures> {
  const box = (await page.getByRole("region", { name: "Provider payload" }).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.7);
  return recordFrames(page, async () => {
    for (let i = 0; i < 60; i++) await scroll(page, i);
  });
}

interface GestureFigures {
  readonly pans: FrameFigures;
  readonly zooms: FrameFigures;
}

function addFigures(a: FrameFigures, b: FrameFigures): FrameFigures {
  return {
    frames: a.frames + b.frames,
    dropped: a.dropped + b.dropped,
    longestFrame: Math.max(a.longestFrame, b.longestFrame),
    longTasks: a.longTasks + b.longTasks,
    longestTask: Math.max(a.longestTask, b.longestTask),
  };
}

/** 60 pans in three zoom levels (cards at 100 %, boxes, lines only), with the pinch zooms between them. */
async function panAndZoom(page: Page): Promise<GestureFigures> {
  const tree = page.getByRole("tree", { name: "Session tree" });
  const box = (await tree.boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  const pans = (from: number) =>
    recordFrames(page, async () => {
      for (let i = from; i < from + 20; i++) await pan(page, i, cx, cy);
    });
  const zoom = (steps: number, deltaY: number) =>
    recordFrames(page, async () => {
      await page.mouse.move(cx, cy);
      await pinch(page, steps, deltaY);
    });
  let panFigures = await pans(0);
  let zoomFigures = await zoom(2, 20); // to about 57 %: boxes, no cards
  panFigures = addFigures(panFigures, await pans(20));
  zoomFigures = addFigures(zoomFigures, await zoom(3, 60)); // to about 5 %: lines only
  panFigures = addFigures(panFigures, await pans(40));
  return { pans: panFigures, zooms: zoomFigures };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const verdict = (ok: boolean) => (ok ? "OK" : "MISSED");

/** Frames of a gesture, against issue 6's budget for the tree's gestures (`budgeted`), or for the record. */
function frameLine(name: string, f: FrameFigures, budgeted = true): string {
  const budget = budgeted ? `(budget: no dropped frame)  ${verdict(f.dropped === 0)}` : "(no budget of its own)";
  return (
    `${name}: ${f.dropped} of ${f.frames + f.dropped} frames dropped (longest frame ${ms(f.longestFrame)}), ` +
    `${f.longTasks} long tasks (longest ${ms(f.longestTask)})  ${budget}`
  );
}

async function measure(browser: Browser, origin: string, path: string, options: BrowserBenchOptions, bytes: number) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await installProbe(page);
  await page.goto(`${origin}/`);
  // The first visit opens the built-in sample: wait for it, so that its work is not counted.
  await page.getByRole("tree", { name: "Session tree" }).getByRole("treeitem", { selected: true }).waitFor();
  await waitForQuiet(page, 1500, 20_000);
  const load = await openFile(page, path, options.entries);
  const heap = await heapUsage(page);
  const gestures = await panAndZoom(page);
  // The payload of the chosen leaf shown too: its images must not be copied again for the view.
  await page.getByRole("tab", { name: "Payload" }).click();
  await page.getByRole("region", { name: "Provider payload" }).waitFor({ timeout: LOAD_TIMEOUT });
  await waitForQuiet(page, 1500, 20_000);
  const withPayload = await heapUsage(page);
  const uncompacted = await compactionOff(page);
  const scrolls = await scrollPayload(page);
  const baseline = await mainThreadParse(page, path);
  // The browser reports tasks from 50 ms up: "none" means every task was shorter.
  const longest = load.longTasks === 0 ? "none over 50 ms" : ms(load.longestTask);
  const ratio = baseline / Math.max(50, load.longestTask);
  console.log(
    `loading ${mb(bytes)}: longest main-thread task ${longest}  (budget ≤ 200 ms)  ` +
      `${verdict(load.longestTask <= 200)}  — ${load.longTasks} long tasks; tree shown ${(load.openMs / 1000).toFixed(1)} s ` +
      `after choosing the file; a main-thread parse of the same file blocks for ${ms(baseline)} ` +
      `(ratio ${load.longTasks === 0 ? "≥ " : ""}${ratio.toFixed(1)})`,
  );
  console.log(
    `JS heap after loading: ${mb(heap.total)} = ${(heap.total / bytes).toFixed(2)}× the file  (budget ≤ 3×)  ` +
      `${verdict(heap.total <= 3 * bytes)}  — page ${mb(heap.page)}` +
      heap.workers.map((w) => `, ${w.name} ${mb(w.bytes)}`).join(""),
  );
  console.log(
    `JS heap with the payload view open: ${mb(withPayload.total)} = ${(withPayload.total / bytes).toFixed(2)}× the file  ` +
      `(budget ≤ 3×)  ${verdict(withPayload.total <= 3 * bytes)}  — page ${mb(withPayload.page)}` +
      withPayload.workers.map((w) => `, ${w.name} ${mb(w.bytes)}`).join(""),
  );
  console.log(
    `compaction off, payload view open (${uncompacted.facts}): longest main-thread task ` +
      `${uncompacted.longTasks === 0 ? "none over 50 ms" : ms(uncompacted.longestTask)}  (budget: as loading, ≤ 200 ms)  ` +
      `${verdict(uncompacted.longestTask <= 200)}  — ${uncompacted.longTasks} long tasks; shown after ${ms(uncompacted.shownMs)}`,
  );
  console.log(frameLine("then 60 scrolls of the payload view, while the worker counts it", scrolls, false));
  console.log(frameLine(`tree, ${options.entries.toLocaleString("en")} entries, 60 pans`, gestures.pans));
  console.log(frameLine(`tree, ${options.entries.toLocaleString("en")} entries, 2 pinch zooms`, gestures.zooms));
}

/** The heap after opening an image-heavy session, and again with its payload view open. */
async function measureImages(browser: Browser, origin: string, path: string, bytes: number) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await installProbe(page);
  await page.goto(`${origin}/`);
  await page.getByRole("tree", { name: "Session tree" }).getByRole("treeitem", { selected: true }).waitFor();
  await waitForQuiet(page, 1500, 20_000);
  const entries = (await countLines(path)) - 1;
  await openFile(page, path, entries);
  const heap = await heapUsage(page);
  await page.getByRole("tab", { name: "Payload" }).click();
  await page.getByRole("region", { name: "Provider payload" }).waitFor({ timeout: LOAD_TIMEOUT });
  await waitForQuiet(page, 1500, 20_000);
  const withPayload = await heapUsage(page);
  const line = (what: string, h: Awaited<ReturnType<typeof heapUsage>>) =>
    `${what}: ${mb(h.total)} = ${(h.total / bytes).toFixed(2)}× the file  (budget ≤ 3×)  ${verdict(h.total <= 3 * bytes)}` +
    `  — page ${mb(h.page)}${h.workers.map((w) => `, ${w.name} ${mb(w.bytes)}`).join("")}`;
  console.log(line(`screenshots, ${mb(bytes)} (${entries.toLocaleString("en")} entries): JS heap after loading`, heap));
  console.log(
    line("screenshots: JS heap with the payload view open (gpt-5.1-codex, images as data: URLs)", withPayload),
  );
  await page.close();
}

async function countLines(path: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(path)) for (const byte of chunk as Buffer) if (byte === 10) lines += 1;
  return lines;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const gzipped = (path: string): number => gzipSync(readFileSync(path)).length;

/**
 * The JavaScript a first visit must load before the app runs: the module scripts and module preloads of the built
 * index.html (Vite lists an entry's static imports as preloads), gzipped as a server would send them.
 */
function firstLoadLine(outDir: string): string {
  const html = readFileSync(join(outDir, "index.html"), "utf8");
  const tags = html.match(/<(?:script|link)\b[^>]*>/g) ?? [];
  const first = new Set<string>();
  for (const tag of tags) {
    const script = /^<script\b/.test(tag) && /\btype="module"/.test(tag);
    const preload = /^<link\b/.test(tag) && /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="\/([^"]+\.js)"/.exec(tag)?.[1];
    if ((script || preload) && url) first.add(url);
  }
  const firstBytes = [...first].reduce((sum, file) => sum + gzipped(join(outDir, file)), 0);
  const later = readdirSync(join(outDir, "assets"))
    .filter((file) => file.endsWith(".js") && !first.has(`assets/${file}`))
    .map((file) => ({ file, bytes: gzipped(join(outDir, "assets", file)) }));
  const worker = later.filter((c) => c.file.includes(".worker-")).reduce((sum, c) => sum + c.bytes, 0);
  const rest = later.filter((c) => !c.file.includes(".worker-"));
  return (
    `first-load JavaScript: ${kB(firstBytes)} gzipped, ${first.size} file${first.size === 1 ? "" : "s"}  ` +
    `(budget ≤ 150 kB)  ${verdict(first.size > 0 && firstBytes <= 150_000)}  — on demand: workers ${kB(worker)}, ` +
    `${rest.length} more chunks (tokenizer vocabularies, the model registry, lazy views) ` +
    `${kB(rest.reduce((sum, c) => sum + c.bytes, 0))}`
  );
}

/**
 * Writes `count` generated sessions of different lengths (30 to 800 entries, a few hundred kB each, as the
 * public sessions of ../shared/corpus are) into `dir`, as a folder of a person's sessions; returns their paths
 * and total size in bytes.
 */
function writeSessionFolder(dir: string, count: number): { paths: string[]; bytes: number } {
  const rng = new Rng(11);
  const paths: string[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const path = join(dir, `session-${String(i).padStart(3, "0")}.jsonl`);
    const entries = 30 + Math.floor(rng.next() * 770);
    const lines: string[] = [];
    writeSession(generateOptions({ entries, bytes: entries * 700, seed: 100 + i }), (line) => lines.push(line));
    const text = `${lines.join("\n")}\n`;
    writeFileSync(path, text);
    paths.push(path);
    bytes += Buffer.byteLength(text);
  }
  return { paths, bytes };
}

/** Opens a folder's worth of sessions at once: the longest task until all are listed, and the heap after. */
async function measureMany(browser: Browser, origin: string, paths: readonly string[], bytes: number) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await installProbe(page);
  await page.goto(`${origin}/`);
  await page.getByRole("tree", { name: "Session tree" }).getByRole("treeitem", { selected: true }).waitFor();
  await waitForQuiet(page, 1500, 20_000);
  const start = await pageNow(page);
  const wall = Date.now();
  await page.getByLabel("Open session files").setInputFiles([...paths]);
  const n = paths.length.toLocaleString("en");
  // Looked for among the messages only: a text search of the whole page, polled, is a long task of its own.
  await page
    .locator("section.notices .notice", { hasText: `Opened ${n} of ${n} file${paths.length === 1 ? "" : "s"}` })
    .waitFor({ timeout: LOAD_TIMEOUT });
  const openMs = Date.now() - wall;
  await waitForQuiet(page, 1500, 20_000);
  const { tasks, harness } = await appTasksSince(page, start);
  const heap = await heapUsage(page);
  const longest = Math.max(0, ...tasks.map((t) => t.duration));
  console.log(
    `opening ${n} sessions at once (${mb(bytes)}): longest main-thread task ` +
      `${tasks.length === 0 ? "none over 50 ms" : ms(longest)}  (budget: as loading, ≤ 200 ms)  ` +
      `${verdict(longest <= 200)}  — ${tasks.length} long tasks; all listed ${(openMs / 1000).toFixed(1)} s after ` +
      `choosing them; left out: the task in which the harness sets the files into the input` +
      (harness > 0 ? ` (${ms(harness)})` : ""),
  );
  console.log(
    `${n} sessions: JS heap after opening: ${mb(heap.total)} = ${(heap.total / bytes).toFixed(2)}× the files  ` +
      `(budget ≤ 3×)  ${verdict(heap.total <= 3 * bytes)}  — page ${mb(heap.page)}` +
      heap.workers.map((w) => `, ${w.name} ${mb(w.bytes)}`).join(""),
  );
  await page.close();
}

/** Runs figure 3 and prints it (a note instead when Chromium is missing). */
export async function browserFigures(options: BrowserBenchOptions): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`note: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH); the browser figures are skipped`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "context-lens-bench-"));
  let server: PreviewServer | undefined;
  let browser: Browser | undefined;
  try {
    const path = join(dir, "bench-session.jsonl");
    const bytes = writeSessionFile(path, options);
    server = await serveApp(join(dir, "dist"));
    console.log(`\n${firstLoadLine(join(dir, "dist"))}`);
    const origin = new URL(server.resolvedUrls!.local[0]!).origin;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    console.log(`browser: Chromium ${browser.version()}, the built app, a generated session opened by file input`);
    await measure(browser, origin, path, options, bytes);
    rmSync(path);
    const images = join(dir, "bench-screenshots.jsonl");
    await measureImages(browser, origin, images, writeImageSessionFile(images, options.imagesMb));
    rmSync(images);
    const folder = join(dir, "sessions");
    mkdirSync(folder);
    const { paths, bytes: folderBytes } = writeSessionFolder(folder, options.sessions);
    await measureMany(browser, origin, paths, folderBytes);
  } finally {
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
