/**
 * Test page for tests/e2e/tree.spec.ts: mounts TreeView alone on a generated session — `?size=small` (the default,
 * see `smallSession`) or `?size=large` (20,000 entries, 150 branches). Choices land in `window.__chosen`.
 */
import { mount } from "svelte";
import Harness from "./tree.svelte";
import { largeSession, smallSession } from "./tree.data.ts";

const size = new URLSearchParams(location.search).get("size");
const summary = size === "large" ? largeSession(20_000, 150) : smallSession();
mount(Harness, { target: document.getElementById("harness")!, props: { summary } });
