/**
 * The built-in sample session: it loads cleanly, shows every feature its README lists, and at every entry × four
 * models our payload deep-equals pi's own (pi-coding-agent + pi-ai 0.73.1).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadSessionText } from "../../src/core/session/load.ts";
import { indexTree, pathToLeaf } from "../../src/core/session/tree.ts";
import { referenceLoad, referenceSessionPayload } from "../reference/pi-session.ts";
import { ourPayload, ourSession } from "../support/ours.ts";

const SAMPLE = "src/ui/sample/sample-session.jsonl";
const text = readFileSync(SAMPLE, "utf8");
const MODELS = ["session", "anthropic/claude-sonnet-4-5", "openai/gpt-5.1-codex", "google/gemini-2.5-pro"];

type Raw = Readonly<Record<string, unknown>>;
const messageOf = (raw: Raw): Raw | undefined => (raw["type"] === "message" ? (raw["message"] as Raw) : undefined);

describe("sample session", () => {
  const file = loadSessionText("sample-session.jsonl", text);
  const tree = indexTree(file);
  const raws = tree.entries.map((e) => e.raw);
  const messages = raws.map(messageOf).filter((m): m is Raw => m !== undefined);

  it("loads without errors or warnings", () => {
    const problems = [...file.diagnostics, ...tree.diagnostics].filter((d) => d.severity !== "info");
    expect(problems).toEqual([]);
    expect(file.kind).toBe("pi-session");
    expect(file.version).toBe(3);
    expect(tree.entries.length).toBeGreaterThanOrEqual(40);
    expect(tree.entries.length).toBeLessThanOrEqual(80);
  });

  it("has branch points, a compaction, a branch summary, labels and a name", () => {
    expect(tree.children.filter((kids) => kids.length >= 2).length).toBeGreaterThanOrEqual(1);
    expect(raws.filter((r) => r["type"] === "compaction")).toHaveLength(1);
    expect(raws.filter((r) => r["type"] === "branch_summary")).toHaveLength(1);
    expect(tree.labels.size).toBeGreaterThanOrEqual(2);
    expect(tree.name).toBe("Fix invoice rounding");
  });

  it("ends on the successful branch, through the compaction and the branch summary", () => {
    const leaf = tree.defaultLeaf!;
    expect(messageOf(raws[leaf]!)?.["role"]).toBe("assistant");
    const path = pathToLeaf(tree, leaf);
    const types = path.ok ? path.value.map((i) => raws[i]!["type"]) : [];
    expect(types).toContain("compaction");
    expect(types).toContain("branch_summary");
    const compaction = raws.find((r) => r["type"] === "compaction")!;
    const kept = tree.byId.get(compaction["firstKeptEntryId"] as string);
    expect(path.ok && kept !== undefined && path.value.includes(kept)).toBe(true);
  });

  it("shows the features its README lists", () => {
    const assistants = messages.filter((m) => m["role"] === "assistant");
    expect(new Set(assistants.map((m) => `${m["provider"]}/${m["model"]}/${m["api"]}`))).toEqual(
      new Set(["anthropic/claude-sonnet-4-5/anthropic-messages", "openai/gpt-5.1-codex/openai-responses"]),
    );
    expect(new Set(assistants.map((m) => m["stopReason"]))).toEqual(new Set(["error", "aborted", "toolUse", "stop"]));
    expect(messages.some((m) => m["role"] === "toolResult" && m["isError"] === true)).toBe(true);
    const bash = messages.filter((m) => m["role"] === "bashExecution");
    expect(bash.some((m) => m["excludeFromContext"] === true)).toBe(true);
    expect(bash.some((m) => m["truncated"] === true && typeof m["fullOutputPath"] === "string")).toBe(true);
    const images = messages.flatMap((m) =>
      m["role"] === "user" && Array.isArray(m["content"])
        ? (m["content"] as Raw[]).filter((b) => b["type"] === "image")
        : [],
    );
    expect(
      images.map((b) =>
        Buffer.from(b["data"] as string, "base64")
          .subarray(1, 4)
          .toString(),
      ),
    ).toEqual(["PNG"]);
    expect(raws.map((r) => r["type"])).toEqual(
      expect.arrayContaining(["model_change", "thinking_level_change", "custom", "custom_message", "session_info"]),
    );
  });

  it("gives pi's payload at every entry for every model", async () => {
    const ours = ourSession(text, "sample-session.jsonl");
    const reference = referenceLoad(text);
    for (const entry of ours.entries) {
      for (const model of MODELS) {
        const theirs = await referenceSessionPayload(reference, { leafLine: entry.line, model });
        const mine = ourPayload(ours, entry.index, model);
        if ("error" in theirs) expect(mine, `${model} at line ${entry.line}`).toHaveProperty("error");
        else expect(mine, `${model} at line ${entry.line}`).toEqual({ payload: theirs.payload });
      }
    }
  });
});
