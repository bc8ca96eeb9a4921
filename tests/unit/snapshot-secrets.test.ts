/**
 * The privacy promise of sharing: with default settings, none of a planted list of fake secrets — one of every
 * format the redactor covers, planted all over a session, the system prompt and the tools — survives an export
 * (the exported JSON is searched for each), for every provider API, through the file and through the link.
 * Images are left out by default in every provider's shape.
 */
import { describe, expect, it } from "vitest";
import { PI_DEFAULTS, type RuleSettings } from "../../src/core/project/rules.ts";
import { createSnapshotFor } from "../../src/core/snapshot/create.ts";
import { DEFAULT_CHOICES, exportWith, reviewSnapshot, snapshotJson } from "../../src/core/snapshot/export.ts";
import { decodeSnapshotLink, encodeSnapshotLink } from "../../src/core/snapshot/link.ts";
import { ourSession } from "../support/ours.ts";
import { plantedSecrets, PNG, secretSession } from "./snapshot-fixtures.ts";

const planted = plantedSecrets();
const tree = ourSession(secretSession(planted), "secrets.jsonl");
const settings: RuleSettings = {
  ...PI_DEFAULTS,
  systemPrompt: `You deploy with ${planted[0]!.text} and ${planted[9]!.text}`,
  tools: [
    {
      name: "deploy",
      description: `Deploys. Uses ${planted[3]!.text}`,
      parameters: { type: "object", properties: { token: { type: "string", default: planted[5]!.secrets[0] } } },
    },
  ],
};

const MODELS = [
  "anthropic/claude-sonnet-4-5",
  "openai/gpt-5.1",
  "openrouter/openai/gpt-4o",
  "google/gemini-2.5-pro",
  "amazon-bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0",
  "mistral/mistral-large-latest",
];

/** Each planted secret still found in `text`, by name. */
const leaks = (text: string): string[] =>
  planted.flatMap((p) => p.secrets.filter((s) => text.includes(s)).map((s) => `${p.name}: ${s.slice(0, 12)}…`));

describe.each(MODELS)("a default export for %s", (model) => {
  const made = createSnapshotFor(tree, tree.defaultLeaf!, settings, model);
  if (!made.ok) throw new Error(made.error);
  const snapshot = made.value;
  const review = reviewSnapshot(snapshot);
  const exported = exportWith(review, DEFAULT_CHOICES);

  it("holds every planted secret before the review (the test plants what it claims)", () => {
    expect(leaks(JSON.stringify(snapshot)).length).toBe(planted.flatMap((p) => p.secrets).length);
  });

  it("holds none of them in the file", () => {
    expect(leaks(snapshotJson(exported))).toEqual([]);
    expect(review.redactions.length).toBeGreaterThanOrEqual(planted.length);
  });

  it("holds none of them in the link", async () => {
    const decoded = await decodeSnapshotLink(await encodeSnapshotLink(exported));
    expect(decoded.ok).toBe(true);
    expect(leaks(JSON.stringify(decoded.ok && decoded.value))).toEqual([]);
  });

  it("lists each redaction without the secret, and each one can be undone alone", () => {
    expect(exported.redactions.length).toBe(review.redactions.length);
    for (const r of exported.redactions) expect(Object.keys(r)).not.toContain("original");
    const last = review.redactions.at(-1)!;
    const one = JSON.stringify(exportWith(review, { reveal: [last.id], keepImages: false }));
    expect(one).toContain(last.original);
    expect(leaks(one).length).toBeLessThan(planted.flatMap((p) => p.secrets).length);
  });

  it("leaves out both images, and says where they were", () => {
    expect(exported.images.map((i) => i.mimeType)).toEqual(["image/png", "image/jpeg"]);
    expect(JSON.stringify(exported)).not.toContain(PNG);
    expect(JSON.stringify(exportWith(review, { reveal: [], keepImages: true }))).toContain(PNG);
  });
});
