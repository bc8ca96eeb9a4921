/** Bugs the fuzzer (tests/fuzz) found in loading, the tree and snapshots, each pinned by the smallest input found. */
import { describe, expect, it } from "vitest";
import { readModelsJson } from "../../src/core/models/models-json.ts";
import { findModel } from "../../src/core/models/registry.ts";
import { parsePresets, toolsSchema } from "../../src/core/project/presets.ts";
import { PI_DEFAULTS } from "../../src/core/project/rules.ts";
import { entryText } from "../../src/core/session/describe.ts";
import { searchEntries, TREE_FILTERS } from "../../src/core/session/filter.ts";
import { loadSessionText, SessionLoader } from "../../src/core/session/load.ts";
import { indexTree } from "../../src/core/session/tree.ts";
import { createSnapshot } from "../../src/core/snapshot/create.ts";
import { snapshotJson } from "../../src/core/snapshot/export.ts";
import { parseSnapshot } from "../../src/core/snapshot/parse.ts";
import { checkData } from "../../src/core/zod.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import { assistant, entry, header, modelChange, session, user } from "../support/build.ts";

const HEADER = JSON.stringify(header());
const load = (...lines: string[]) => loadSessionText("f.jsonl", `${[HEADER, ...lines].join("\n")}\n`);
const tree = (...lines: string[]) => indexTree(load(...lines));

/** An object `String()` cannot turn into text: its toString is not a function. */
const UNPRINTABLE = '{"toString":0}';

describe("fields holding objects String() cannot print", () => {
  it("an entry type such as {toString: 0} is reported as an unknown type, not thrown", () => {
    const file = load(`{"type":${UNPRINTABLE},"id":"a","parentId":null,"timestamp":"t"}`);
    const unknown = file.diagnostics.find((d) => d.code === "unknown-entry-type");
    expect(unknown?.message).toContain('Entry type "(an object)"');
  });

  it("a message role such as {toString: 0} is reported as an unknown role, not thrown", () => {
    const file = load(`{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":${UNPRINTABLE}}}`);
    expect(file.diagnostics.find((d) => d.code === "unknown-role")?.message).toContain('role "(an object)"');
  });

  it("text, labels, names and null blocks describe and search without throwing", () => {
    const t = tree(
      `{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":[null,{"type":"text","text":${UNPRINTABLE}}]}}`,
      `{"type":"label","id":"b","parentId":"a","timestamp":"t","targetId":"a","label":${UNPRINTABLE}}`,
      `{"type":"model_change","id":"c","parentId":"b","timestamp":"t","provider":${UNPRINTABLE},"modelId":"m"}`,
    );
    expect(t.entries.map(entryText)).toEqual(["", "", "/m"]);
    for (const filter of TREE_FILTERS) expect(() => searchEntries(t, "m", filter, 2)).not.toThrow();
  });

  it("tool-call arguments nested 12,000 deep describe as … instead of overflowing JSON.stringify", () => {
    const deep = "[".repeat(12_000) + "]".repeat(12_000);
    const t = tree(
      `{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"read","arguments":${deep}}]}}`,
    );
    expect(entryText(t.entries[0]!)).toBe("read(…)");
  });
});

describe("UTF-8 statistics do not depend on how the bytes are chunked", () => {
  const loadChunks = (...chunks: number[][]) => {
    const loader = new SessionLoader("f.jsonl");
    for (const chunk of chunks) loader.push(Uint8Array.from(chunk));
    return loader.finish().stats.invalidUtf8;
  };
  const [a, quote] = [0x61, 0x22];

  it("a U+FFFD written in the file (EF BF BD) split across two chunks is valid UTF-8", () => {
    expect(loadChunks([quote, 0xef], [0xbf, 0xbd, quote])).toBe(false);
    expect(loadChunks([quote, 0xef, 0xbf], [0xbd, quote])).toBe(false);
    expect(loadChunks([quote, 0xef], [0xbf], [0xbd, quote])).toBe(false);
  });

  it("a multi-byte sequence cut off by the end of the file is invalid UTF-8", () => {
    expect(loadChunks([a, 0xe2, 0x82])).toBe(true);
    expect(loadChunks([a], [0xf0, 0x9f])).toBe(true);
  });
});

describe("parent cycles", () => {
  it("the cycle diagnostic counts the entries that hang below the cycle, which no root leads to either", () => {
    const t = tree(
      JSON.stringify(user("e0", "e0")),
      JSON.stringify(user("e1", "e0")),
      JSON.stringify(user("e2", "e1")),
      JSON.stringify(user("r", null)),
    );
    expect(t.roots).toEqual([3]);
    const cycle = t.diagnostics.find((d) => d.code === "parent-cycle")!;
    expect(cycle.message).toMatch(
      /^1 entries form a parent cycle \(lines 2\) and 2 more descend from it \(lines 3, 4\);/,
    );
  });
});

describe("snapshots of damaged sessions read back", () => {
  const claude = findModel("anthropic", "claude-sonnet-4-5")!;
  const roundTrip = (text: string, leaf = 0) => {
    const made = createSnapshot(indexTree(loadSessionText("f.jsonl", text)), leaf, PI_DEFAULTS, claude);
    if (!made.ok) throw new Error(made.error);
    return parseSnapshot(snapshotJson(made.value));
  };

  it("an entry with the empty id is named line:N (a ref may not be empty)", () => {
    const read = roundTrip(session(header(), user("", null)));
    expect(read.ok && read.value.leaf.ref).toBe("line:2");
  });

  it("a header version pi never writes is recorded as the version pi reads it as", () => {
    const versions = { "0.5": 1, "-3": 1, "2.5": 2, "3.5": 4, "1e400": 4 };
    for (const [written, recorded] of Object.entries(versions)) {
      const text = session(JSON.stringify(header()).replace('"version":3', `"version":${written}`), user("u", null));
      const read = roundTrip(text);
      expect(read.ok && read.value.session.version, written).toBe(recorded);
    }
  });

  it("a value nested too deep for JSON.stringify is a stated error naming its line, not an exception", () => {
    const deep = "[".repeat(12_000) + "]".repeat(12_000);
    const call = { type: "toolCall", id: "c", name: "read", arguments: { x: "DEEP" } };
    const text = session(header(), assistant("a", null, [call])).replace('"DEEP"', deep);
    const made = createSnapshot(indexTree(loadSessionText("f.jsonl", text)), 0, PI_DEFAULTS, claude);
    expect(made).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^line 2 of f\.jsonl nests values more than 1,000 levels deep/),
    });
  });

  it("a thinking level that is a key of every object, or no string, gives a body of plain JSON that reads back", () => {
    for (const level of ['"hasOwnProperty"', '"constructor"', "false"]) {
      const change = `{"type":"thinking_level_change","id":"t","parentId":null,"timestamp":"2026-01-01T00:00:00Z","thinkingLevel":${level}}`;
      const text = session(header(), change, entry("message", "u", "t", { message: { role: "user", content: "hi" } }));
      const made = createSnapshot(indexTree(loadSessionText("f.jsonl", text)), 1, PI_DEFAULTS, claude);
      if (!made.ok) throw new Error(made.error);
      const functions = JSON.stringify(made.value.payload, (_k, v: unknown) => (typeof v === "function" ? "FN" : v));
      expect(functions, level).not.toContain('"FN"');
      expect(parseSnapshot(snapshotJson(made.value)).ok, level).toBe(true);
    }
  });

  it("a model_change naming its provider with an object does not stop a snapshot for a chosen model", () => {
    const change = { ...modelChange("m", null, "anthropic", "x"), provider: { toString: 0 } };
    const read = roundTrip(
      session(header(), change, entry("message", "u", "m", { message: { role: "user", content: "hi" } })),
      1,
    );
    expect(read.ok && read.value.model.sessionModel).toBeUndefined();
  });
});

describe("objects String() cannot print, in what the app asks of a session (engine fuzz target)", () => {
  const odd = { toString: 1 };
  const text = session(
    header(),
    { ...modelChange("m", null, "anthropic", "x"), provider: odd, modelId: odd },
    entry("custom_message", "c", "m", { customType: odd, content: "hi", display: true }),
    user("u", "c", "read it"),
    assistant("a", "u", [{ type: "toolCall", id: odd, name: odd, arguments: {} }], { provider: "google" }),
    entry("message", "r", "a", { message: { role: "toolResult", toolCallId: odd, toolName: odd, content: [] } }),
  );

  it("list the session, detail its entries and project it for a chosen model, as pi builds it", async () => {
    const client = createInProcessClient();
    const summary = await client.load("s", new Blob([text]), "odd.jsonl", () => undefined).done;
    expect(summary.models).toEqual(['{"toString":1}/{"toString":1}', "google/claude-sonnet-4-5"]);
    expect((await client.entry("s", 3))?.toolCalls).toEqual([{ callId: "", name: "", result: undefined }]);
    expect((await client.entry("s", 4))?.callEntry).toBeUndefined();
    const answer = await client.project("s", 4, PI_DEFAULTS, "google/gemini-2.5-pro");
    expect(answer?.ok && answer.view.customTypes.extension).toEqual([""]);
    const excluded = await client.project(
      "s",
      4,
      { ...PI_DEFAULTS, dropExtensionTypes: [""] },
      "google/gemini-2.5-pro",
    );
    expect(excluded?.ok && excluded.view.payload.listLength).toBe(answer?.ok && answer.view.payload.listLength - 1);
  });

  it("compare two leaves in words", async () => {
    const client = createInProcessClient();
    await client.load("s", new Blob([text]), "odd.jsonl", () => undefined).done;
    const side = (leaf: number) => ({ leaf, settings: PI_DEFAULTS, model: "google/gemini-2.5-pro" });
    const compared = await client.compare("s", side(2), side(4), false);
    expect(compared?.ok).toBe(true);
  });
});

describe("a timestamp String() cannot print, on an extension message (engine fuzz target)", () => {
  const text = session(
    header(),
    modelChange("m", null, "anthropic", "claude-sonnet-4-5"),
    entry("custom_message", "c", "m", {
      customType: "note",
      content: "",
      display: true,
      timestamp: { toString: null },
    }),
    entry("custom", "x", "c", { customType: "ext", data: {} }),
  );

  it("fails the projection as it fails pi, naming the line, and the view still knows the session's model", async () => {
    const client = createInProcessClient();
    await client.load("s", new Blob([text]), "ts.jsonl", () => undefined).done;
    expect(await client.project("s", 2, PI_DEFAULTS, undefined)).toEqual({
      ok: false,
      error:
        "the path to line 4 holds data pi does not write, and projecting it failed (TypeError: Cannot convert " +
        "object to primitive value); it fails at line 3 of ts.jsonl",
      sessionModel: "anthropic/claude-sonnet-4-5",
      unknownModel: undefined,
    });
  });
});

describe("a length field holding an object, where a schema checks a length (zod 4 compared it and threw)", () => {
  const trap = '{"length":{"toString":0}}';

  it("makes a snapshot damaged at that place", () => {
    const claude = findModel("anthropic", "claude-sonnet-4-5")!;
    const made = createSnapshot(tree(JSON.stringify(user("u", null, "hi"))), 0, PI_DEFAULTS, claude);
    if (!made.ok) throw new Error(made.error);
    const json = snapshotJson(made.value).replace('"ref": "u"', `"ref": ${trap}`);
    expect(parseSnapshot(json)).toEqual({
      ok: false,
      error:
        'the snapshot is damaged: at leaf.ref: expected text or a list, found an object whose "length" field holds an object.',
    });
  });

  it("makes a preset, a tool list or a models.json invalid at that place", () => {
    const preset = parsePresets(`{"format":"context-lens/preset","version":1,"name":${trap},"settings":{}}`);
    expect(!preset.ok && preset.error).toMatch(/^the preset file is not a valid preset: at name: expected text/);
    expect(checkData(toolsSchema, JSON.parse(`[{"name":${trap},"description":"","parameters":{}}]`))).toMatchObject({
      success: false,
      error: { issues: [{ path: [0, "name"] }] },
    });
    const models = readModelsJson(
      `{"providers":{"x":{"baseUrl":"http://x","api":"openai-completions","apiKey":"k","models":[{"id":${trap}}]}}}`,
      [],
    );
    expect(!models.ok && models.error).toMatch(
      /^it does not match pi's models.json schema: providers.x.models.0.id: expected text/,
    );
  });
});
