/** The privacy check every browser spec makes: the page's requests, collected when they leave its own origin. */
import { test, type Page } from "@playwright/test";

/** Every request the page makes must stay on its own origin (data: and blob: URLs never leave the browser). */
export function watchRequests(page: Page): string[] {
  const origin = `${new URL(test.info().project.use.baseURL!).origin}/`;
  const offOrigin: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:")) offOrigin.push(url);
  });
  return offOrigin;
}
