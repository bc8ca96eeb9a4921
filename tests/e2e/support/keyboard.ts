/**
 * Keyboard-only driving for the browser tests: Tab to a control (checking on every stop that focus is on a real
 * element with a visible indicator), press keys, and check that focus never falls back to <body>. Plus the axe scan
 * of a whole page against WCAG 2.1 A and AA.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type ElementHandle, type Locator, type Page } from "@playwright/test";

/** What has focus: a short description, and whether a focus indicator is drawn around it. */
export interface FocusState {
  readonly onBody: boolean;
  readonly description: string;
  readonly indicator: boolean;
}

/** Reads the focused element: on <body> (focus lost), or a description and whether its focus indicator shows. */
export async function focusState(page: Page): Promise<FocusState> {
  return (await page.evaluate(readFocus, null)).state;
}

/** In the page: the focus state, and whether focus is on or inside `target`. */
function readFocus(target: Element | null): { state: FocusState; onTarget: boolean } {
  let element = document.activeElement;
  if (!element || element === document.body || element === document.documentElement)
    return { state: { onBody: true, description: "<body>", indicator: false }, onTarget: false };
  const onTarget = target !== null && (target === element || target.contains(element));
  const drawn = (e: Element) => {
    const style = getComputedStyle(e);
    const outline =
      style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0 && style.outlineColor !== "rgba(0, 0, 0, 0)";
    return outline || style.boxShadow !== "none";
  };
  const role = element.getAttribute("role");
  const labelledBy = element.getAttribute("aria-labelledby");
  const label = (element as HTMLInputElement).labels?.[0]?.textContent;
  const name = (
    element.getAttribute("aria-label") ??
    (labelledBy ? document.getElementById(labelledBy.split(" ")[0]!)?.textContent : undefined) ??
    label ??
    element.textContent ??
    ""
  )
    .trim()
    .replace(/\s+/g, " ")
    .slice(0, 60);
  const description = `<${element.tagName.toLowerCase()}${role ? ` role=${role}` : ""}> ${name}`;
  // A visually hidden file input shows its focus on the label that stands for it (:focus-within).
  if (getComputedStyle(element).opacity === "0") element = element.closest("label") ?? element;
  return { state: { onBody: false, description, indicator: drawn(element) }, onTarget };
}

/** Focus is on an element (not lost to <body>) and that element shows a focus indicator. */
export async function expectVisibleFocus(page: Page, context = ""): Promise<FocusState> {
  const state = await focusState(page);
  expect(state.onBody, `focus was lost to <body> ${context}`).toBe(false);
  expect(state.indicator, `no visible focus indicator on ${state.description} ${context}`).toBe(true);
  return state;
}

/** Focus is not on <body> (after an action that removed or replaced the focused control). */
export async function expectFocusKept(page: Page, context = ""): Promise<void> {
  await expect
    .poll(async () => (await focusState(page)).onBody, { message: `focus lost to <body> ${context}` })
    .toBe(false);
}

/**
 * Presses Tab (or Shift+Tab with `back`) until `target` has focus, at most `max` times. Every stop on the way must
 * be a focused element with a visible indicator.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  options: { back?: boolean; max?: number } = {},
): Promise<void> {
  const key = options.back ? "Shift+Tab" : "Tab";
  const max = options.max ?? 80;
  const element = await target.elementHandle();
  const seen: string[] = [];
  try {
    for (let i = 0; i < max; i += 1) {
      await page.keyboard.press(key);
      const { state, onTarget } = await page.evaluate(readFocus, element as ElementHandle<Element> | null);
      seen.push(state.description);
      if (onTarget) return expect(state.indicator, `no visible focus indicator on ${state.description}`).toBe(true);
      if (!state.onBody) expect(state.indicator, `no visible focus indicator on ${state.description}`).toBe(true);
    }
  } finally {
    await element?.dispose();
  }
  throw new Error(`${String(target)} was not reached with ${max} × ${key}; focus went through:\n${seen.join("\n")}`);
}

/** Presses `key` and checks focus stayed on an element with a visible indicator. */
export async function press(page: Page, key: string): Promise<void> {
  await page.keyboard.press(key);
  await expectVisibleFocus(page, `after ${key}`);
}

/**
 * No keyboard trap around the focused element: Tab moves focus to another element and Shift+Tab comes back
 * (the WCAG 2.1.2 check), with a visible indicator at both ends.
 */
export async function expectNoTrap(page: Page): Promise<void> {
  const mark = () =>
    page.evaluate(() => {
      const w = window as unknown as { __kbId?: number };
      const e = document.activeElement as HTMLElement | null;
      if (!e || e === document.body) return "<body>";
      e.dataset["kbId"] ??= String((w.__kbId = (w.__kbId ?? 0) + 1));
      return e.dataset["kbId"];
    });
  const start = await mark();
  await page.keyboard.press("Tab");
  const next = await mark();
  expect(next, "Tab did not move focus away (keyboard trap)").not.toBe(start);
  // Tab from the last control may wrap round to the first; Shift+Tab from there may then stop in the browser's own
  // controls before the last one (Chromium 150 does, when nothing of the browser took focus on the way forward).
  const wrapped = await page.evaluate((id) => {
    const from = document.querySelector(`[data-kb-id="${id}"]`);
    const to = document.activeElement;
    return !!from && !!to && (from.compareDocumentPosition(to) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
  }, start);
  await page.keyboard.press("Shift+Tab");
  if (wrapped && (await mark()) === "<body>") await page.keyboard.press("Shift+Tab");
  expect(await mark(), "Shift+Tab did not return to where Tab left").toBe(start);
  await expectVisibleFocus(page, "(after Tab, Shift+Tab)");
}

/**
 * Tabs round the whole page from <body> until focus comes back to the first control: every control on the way
 * shows a focus indicator and none holds focus (no keyboard trap). Returns the stops, in order.
 */
export async function tabRound(page: Page, max = 400): Promise<string[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const stops: string[] = [];
  const ids: string[] = [];
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press("Tab");
    const state = await focusState(page);
    if (state.onBody) continue; // past the last control, before the first again
    const id = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      element.dataset["kbStop"] ??= String(document.querySelectorAll("[data-kb-stop]").length + 1);
      return element.dataset["kbStop"];
    });
    if (id === ids[0]) return stops;
    expect(state.indicator, `no visible focus indicator on ${state.description}`).toBe(true);
    expect(ids.at(-1), `Tab stayed on ${state.description}`).not.toBe(id);
    ids.push(id);
    stops.push(state.description);
  }
  throw new Error(`Tab did not come round to the first control in ${max} presses:\n${stops.join("\n")}`);
}

/**
 * Axe against WCAG 2.0/2.1 A and AA, on the whole page or only inside `within` (a CSS selector: a view that
 * changed while the rest of the page was scanned already): the violations as readable lines (expected none).
 */
export async function axeViolations(page: Page, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  const results = await (within ? builder.include(within) : builder).analyze();
  return results.violations.map(
    (v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")} — ${v.help}`,
  );
}

/** Scans the page (or the part `within`) and expects no violation of any impact, naming the view on failure. */
export async function expectAxeClean(page: Page, view: string, within?: string): Promise<void> {
  expect(await axeViolations(page, within), `axe on the ${view}`).toEqual([]);
}
