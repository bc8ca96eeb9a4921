import { expect, test } from "@playwright/test";

const SESSION = [
  { type: "session", version: 3, id: "e2e-1", timestamp: "2026-01-01T00:00:00Z", cwd: "/demo" },
  {
    type: "message",
    id: "u1",
    parentId: null,
    timestamp: "2026-01-01T00:00:01Z",
    message: { role: "user", content: "hi", timestamp: 1 },
  },
  "{broken",
]
  .map((l) => (typeof l === "string" ? l : JSON.stringify(l)))
  .join("\n");

test("opens a session file through the file input and lists its problems", async ({ page }) => {
  await page.goto("/");
  await page
    .getByLabel("Open session files")
    .setInputFiles({ name: "demo.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(SESSION) });
  const section = page.getByRole("region", { name: "demo.jsonl" });
  await expect(section).toContainText("1 entries");
  await expect(section).toContainText("Line 3 is cut off at the end of the file");
});
