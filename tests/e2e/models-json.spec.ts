/**
 * A session on a custom model (pi's models.json: here a local Ollama) has no payload until the person imports
 * their models.json; then it has, on every visit, until they forget the file. A file pi would refuse changes
 * nothing and says why.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { assistant, header, session, toolCall, toolResult, user } from "../support/build.ts";

const file = (name: string, text: string) => ({ name, mimeType: "application/json", buffer: Buffer.from(text) });

const OLLAMA = { provider: "ollama", model: "qwen3.5:latest", api: "openai-completions" };
const SESSION = session(
  header({ id: "custom-model" }),
  user("u1", null, "List the files, please."),
  assistant("a1", "u1", [toolCall("call_1", "ls", { path: "." })], OLLAMA),
  toolResult("r1", "a1", "call_1", "a.ts\nb.ts"),
  assistant("a2", "r1", "Two files: a.ts and b.ts.", OLLAMA),
);
const MODELS_JSON = `{
  // pi's ~/.pi/agent/models.json
  "providers": {
    "ollama": {
      "baseUrl": "http://localhost:11434/v1",
      "api": "openai-completions",
      "apiKey": "ollama",
      "models": [{ "id": "qwen3.5:latest", "maxTokens": 8192 }],
    },
  },
}`;

const rules = (page: Page) => page.getByRole("region", { name: "Projection rules" });
const projection = (page: Page) => page.getByRole("region", { name: "Projection" });
const facts = (page: Page) => page.getByRole("group", { name: "Projection summary" });

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() => indexedDB.deleteDatabase("keyval-store"));
  await page.goto("/");
  await page.getByRole("tree", { name: "Session tree" }).waitFor();
  await page.getByLabel("Open session files").setInputFiles(file("ollama.jsonl", SESSION));
  await page.getByRole("tab", { name: "Payload" }).click();
});

test("a models.json opened with the sessions is used for its models, not listed as a session", async ({ page }) => {
  await expect(projection(page).getByRole("alert")).toContainText("No payload at this entry.");
  await page
    .getByLabel("Open session files")
    .setInputFiles([file("models.json", MODELS_JSON), file("ollama-again.jsonl", SESSION)]);
  await expect(page.getByText("Models from models.json are in use")).toBeVisible();
  await expect(facts(page)).toContainText("ollama/qwen3.5:latest");
  const list = page.getByRole("navigation", { name: "Open sessions" });
  await expect(list.getByRole("listitem")).toHaveCount(3); // the sample and the session twice; no models.json
  await expect(list).not.toContainText("models.json");
});

test("a models.json gives a session on a custom model its payload, on every visit, until forgotten", async ({
  page,
}) => {
  const failed = projection(page).getByRole("alert");
  await expect(failed).toContainText("No payload at this entry.");
  await expect(failed).toContainText("ollama/qwen3.5:latest is not in pi-ai's model registry");
  await expect(failed).toContainText("import your models.json there");

  await rules(page).getByLabel("Import models.json").setInputFiles(file("models.json", MODELS_JSON));
  await expect(rules(page).getByRole("status").filter({ hasText: "Models also from models.json" })).toContainText(
    "1 custom model, 0 built-in models overridden",
  );
  await expect(facts(page)).toContainText("ollama/qwen3.5:latest");
  await expect(facts(page)).toContainText("(openai-completions)");
  await expect(facts(page)).toContainText("pi 0.73.1 exactly");
  // The model's own limit from the file reaches the body (pi-ai caps max_tokens at 32,000 otherwise).
  await expect(page.getByRole("region", { name: "Provider payload" })).toContainText(/max_(completion_)?tokens.*8192/);

  const results = await new AxeBuilder({ page }).include('[aria-label="Projection rules"]').analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  // A later visit finds it in use, and the picker offers its model.
  await page.reload();
  await page.getByRole("tab", { name: "Payload" }).click();
  await expect(rules(page)).toContainText("Models also from models.json: 1 custom model");
  await expect(facts(page)).toContainText("ollama/qwen3.5:latest");
  await rules(page).getByLabel("Search models").fill("qwen3.5");
  await expect(rules(page).getByRole("option", { name: /ollama\/qwen3\.5:latest/ })).toContainText("models.json");
  await rules(page).getByLabel("Search models").press("Escape");

  // A file pi would refuse changes nothing.
  const broken = `{"providers": {"ollama": {"api": "openai-completions", "apiKey": "x", "models": [{"id": "m"}]}}}`;
  await rules(page).getByLabel("Import models.json").setInputFiles(file("other.json", broken));
  await expect(rules(page).getByRole("alert")).toHaveText(
    'other.json was not read: Provider ollama: "baseUrl" is required when defining custom models.',
  );
  await expect(rules(page)).toContainText("Models also from models.json");
  await expect(facts(page)).toContainText("ollama/qwen3.5:latest");

  await rules(page).getByRole("button", { name: "Forget" }).click();
  await expect(rules(page).getByRole("status").filter({ hasText: "no longer in use" })).toBeVisible();
  await expect(projection(page).getByRole("alert")).toContainText("No payload at this entry.");
  await page.reload();
  await page.getByRole("tab", { name: "Payload" }).click();
  await expect(projection(page).getByRole("alert")).toContainText("No payload at this entry.");
});
