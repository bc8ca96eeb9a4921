/**
 * Test page for tests/e2e/payload-view.spec.ts: mounts PayloadView alone on `?size=small` (the default, see
 * `smallFixture`) or `?size=large` (2,000 messages, about 20 MB); `?tokens=1` passes token counts. The body is
 * built first; then, a task later, long tasks are observed from just before the mount: `window.__longTasks`
 * (durations, ms), `window.__mountMs` (the synchronous mount) and `window.__firstFrameMs` (until the first frame
 * with the view is drawn).
 */
import { mount } from "svelte";
import "../../../src/ui/shell/theme.css";
import Harness from "./payload.svelte";
import { largeFixture, smallFixture } from "./payload.data.ts";

declare global {
  interface Window {
    __longTasks: number[];
    __mountMs?: number;
    __firstFrameMs?: number;
    __bodyBytes?: number;
    __pwned?: unknown;
  }
}

const params = new URLSearchParams(location.search);
const large = params.get("size") === "large";
const fixture = large ? largeFixture(2_000, 10_000) : smallFixture();
if (large) window.__bodyBytes = JSON.stringify(fixture.body).length;
window.__longTasks = [];

setTimeout(() => {
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) window.__longTasks.push(task.duration);
  }).observe({ type: "longtask" });
  const start = performance.now();
  mount(Harness, {
    target: document.getElementById("harness")!,
    props: { fixture, tokens: params.get("tokens") === "1" },
  });
  window.__mountMs = performance.now() - start;
  requestAnimationFrame(() => setTimeout(() => (window.__firstFrameMs = performance.now() - start)));
}, 50);
