/**
 * Watches a page for any sign that session text ran as code or made a request: calls to `window.__pwned`, dialogs,
 * requests to other origins (aborted here, so nothing leaves the machine), new windows, CSP violations, and
 * elements or attributes in the live DOM that could run script or load from elsewhere (a MutationObserver reports
 * each as it appears, so a node that exists for a moment is caught too).
 */
import { expect, test, type Page } from "@playwright/test";

export interface InjectionSignals {
  /** Payload ids that ran (`__pwned(id)`). */
  readonly ran: string[];
  readonly dialogs: string[];
  readonly offOrigin: string[];
  readonly popups: string[];
  /** Dangerous nodes and attributes seen in the DOM, and CSP violations. */
  readonly dom: string[];
  /** Uncaught errors in the page: hostile text must not break it either. */
  readonly errors: string[];
  /** CSP violations that are not the page trying anything (see `installDomWatch`): not failures. */
  readonly inertViolations: string[];
}

/** Runs in the page before any of its scripts: the DOM check and the observer that applies it to every change. */
function installDomWatch(): void {
  const w = window as unknown as {
    __domAlarm?: (message: string) => void;
    __inertViolation?: (message: string) => void;
    __injectionScan?: (root: Node) => string[];
  };
  const origin = location.origin;
  // A URL as a browser reads its scheme: leading C0 controls and spaces dropped, tabs and newlines anywhere.
  // eslint-disable-next-line no-control-regex
  const strip = (value: string) => value.replace(/^[\u0000-\u0020]+/, "").replace(/[\t\n\r]/g, "");
  const SCRIPT_URL = /^(?:javascript|vbscript|livescript|data:text\/html|data:image\/svg)/i;
  const URL_ATTRS = new Set(["href", "xlink:href", "src", "action", "formaction", "data", "poster", "background"]);
  const LOADS = new Set(["img", "image", "iframe", "embed", "object", "audio", "video", "source", "track", "input"]);
  const NEVER = new Set(["iframe", "frame", "frameset", "object", "embed", "applet", "base", "portal"]);
  const NOT_IN_MARKDOWN = new Set([
    ...["script", "style", "svg", "math", "form", "input", "button", "select", "textarea", "template", "noscript"],
    ...["link", "meta", "video", "audio", "source", "marquee", "xmp", "foreignobject", "animate", "set", "dialog"],
  ]);
  // The element and its parent's start, which names the payload when the element itself does not.
  const describe = (el: Element) => `${el.outerHTML.slice(0, 160)} in ${el.parentElement?.outerHTML.slice(0, 160)}`;
  const describeTarget = (target: EventTarget | null) =>
    target instanceof Element ? describe(target) : String(target);
  const offOrigin = (value: string) => {
    try {
      const target = new URL(value, location.href);
      return !["data:", "blob:"].includes(target.protocol) && target.origin !== origin;
    } catch {
      return false;
    }
  };

  function checkAttribute(el: Element, name: string, value: string, out: string[]): void {
    const lower = name.toLowerCase();
    if (lower.startsWith("on")) out.push(`event handler ${name} on ${describe(el)}`);
    if (lower === "srcdoc") out.push(`srcdoc on ${describe(el)}`);
    if (URL_ATTRS.has(lower) && SCRIPT_URL.test(strip(value)))
      out.push(`${name}="${value.slice(0, 80)}" on ${describe(el)}`);
    if ((lower === "src" || lower === "srcset" || lower === "data") && LOADS.has(el.localName)) {
      const first = lower === "srcset" ? value.trim().split(/\s+/)[0]! : value;
      if (offOrigin(first)) out.push(`${el.localName} loads ${value.slice(0, 80)}`);
    }
    if (lower === "style" && /url\s*\(\s*['"]?(?!data:)|expression\s*\(|behavior\s*:/i.test(value)) {
      out.push(`style ${value.slice(0, 80)} on ${describe(el)}`);
    }
  }

  function checkElement(el: Element, out: string[]): void {
    const tag = el.localName;
    if (NEVER.has(tag)) out.push(`element ${describe(el)}`);
    if (tag === "script") {
      const src = el.getAttribute("src");
      if (!src || !src.startsWith("/assets/") || el.textContent?.trim()) out.push(`script ${describe(el)}`);
    }
    if (tag === "link" && el.getAttribute("href") && offOrigin(el.getAttribute("href")!))
      out.push(`link ${describe(el)}`);
    if (tag === "meta" && el.getAttribute("http-equiv")?.toLowerCase() === "refresh") out.push(`meta ${describe(el)}`);
    if (NOT_IN_MARKDOWN.has(tag) && el.closest(".markdown"))
      out.push(`${tag} inside rendered markdown: ${describe(el)}`);
    for (const attr of el.attributes) checkAttribute(el, attr.name, attr.value, out);
  }

  function scan(root: Node): string[] {
    const out: string[] = [];
    if (root instanceof Element) checkElement(root, out);
    if (root instanceof Element || root instanceof Document || root instanceof DocumentFragment) {
      for (const el of root.querySelectorAll("*")) checkElement(el, out);
    }
    return out;
  }
  w.__injectionScan = scan;

  const report = (messages: readonly string[]) => {
    for (const message of messages) w.__domAlarm?.(message);
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "attributes" && record.target instanceof Element && record.attributeName) {
        const out: string[] = [];
        const value = record.target.getAttribute(record.attributeName);
        if (value !== null) checkAttribute(record.target, record.attributeName, value, out);
        report(out);
      }
      for (const node of record.addedNodes) report(scan(node));
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
  // A violation on an element of the page is the page trying to run or load something. Two kinds, fired at the
  // document, are not: DOMPurify parses session HTML in an inert document (DOMParser), where Chromium checks the
  // policy on each inline handler it meets though nothing there can ever run; and zod probes once whether it may
  // compile with `new Function`. Those are counted apart (the spec checks it hears them, so the CSP is in force).
  document.addEventListener("securitypolicyviolation", (event) => {
    const where = `${event.effectiveDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`;
    const inert =
      !(event.target instanceof Element) &&
      ((event.effectiveDirective === "script-src-attr" && event.blockedURI === "inline") ||
        (event.effectiveDirective === "script-src" && event.blockedURI === "eval"));
    if (inert) w.__inertViolation?.(where);
    else w.__domAlarm?.(`CSP violation: ${where} on ${describeTarget(event.target)} (${event.sample})`);
  });
}

export interface WatchOptions {
  /** Serve the page without its Content Security Policy, so that only the app's own escaping stands in the way. */
  readonly withoutCsp?: boolean;
}

/** Arms `page` (before its first navigation): every signal of injected code or of a request goes into the result. */
export async function watchForInjection(page: Page, options: WatchOptions = {}): Promise<InjectionSignals> {
  const signals: InjectionSignals = {
    ...{ ran: [], dialogs: [], offOrigin: [], popups: [], dom: [], errors: [] },
    inertViolations: [],
  };
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const context = page.context();
  await page.exposeFunction("__pwned", (id: unknown) => signals.ran.push(String(id)));
  await page.exposeFunction("__domAlarm", (message: unknown) => signals.dom.push(String(message)));
  await page.exposeFunction("__inertViolation", (message: unknown) => signals.inertViolations.push(String(message)));
  await page.addInitScript(installDomWatch);
  page.on("pageerror", (error) => signals.errors.push(error.message));
  page.on("dialog", (dialog) => {
    signals.dialogs.push(dialog.message());
    dialog.dismiss().catch(() => undefined); // the page may have navigated away meanwhile
  });
  const leaves = (url: string) => !url.startsWith(`${origin}/`) && !/^(?:data|blob):/.test(url);
  context.on("request", (request) => {
    if (leaves(request.url())) signals.offOrigin.push(request.url());
  });
  await context.route(
    (url) => leaves(url.href),
    (route) => route.abort("blockedbyclient"),
  );
  context.on("page", (opened) => {
    if (opened !== page) signals.popups.push(opened.url() || "(a new window)");
  });
  if (options.withoutCsp) {
    await page.route(
      (url) => url.origin === origin && (url.pathname === "/" || url.pathname === "/index.html"),
      async (route) => {
        // The whole page, never "304 Not Modified" (a conditional request would get no body to edit).
        const headers = { ...route.request().headers() };
        delete headers["if-none-match"];
        delete headers["if-modified-since"];
        const response = await route.fetch({ headers });
        const html = await response.text();
        const stripped = html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/i, "");
        if (stripped === html) throw new Error("index.html has no Content Security Policy meta tag to remove.");
        await route.fulfill({ response, body: stripped });
      },
    );
  }
  return signals;
}

/**
 * Asserts that nothing ran, loaded or appeared so far, after a full scan of the live DOM (`view` names what is on
 * screen, for the failure message). A short pause first lets error and load events of new elements fire.
 */
export async function expectNothingRan(page: Page, signals: InjectionSignals, view: string): Promise<void> {
  await page.waitForTimeout(150);
  const dom = await page.evaluate(() =>
    (window as unknown as { __injectionScan: (root: Node) => string[] }).__injectionScan(document),
  );
  const title = await page.title();
  expect(
    {
      ran: signals.ran,
      dialogs: signals.dialogs,
      offOrigin: signals.offOrigin,
      popups: signals.popups,
      dom: [...signals.dom, ...dom],
      errors: signals.errors,
      title,
    },
    `after ${view}`,
  ).toEqual({ ran: [], dialogs: [], offOrigin: [], popups: [], dom: [], errors: [], title: "Context Lens" });
}
