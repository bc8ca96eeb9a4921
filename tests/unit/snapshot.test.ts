/** Context snapshots: what they hold, the review before export, files and links round-trip, bad input says why. */
import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { PI_DEFAULTS, type RuleSettings } from "../../src/core/project/rules.ts";
import { createSnapshot, createSnapshotFor } from "../../src/core/snapshot/create.ts";
import {
  DEFAULT_CHOICES,
  exportWith,
  prepareExport,
  reviewSnapshot,
  snapshotFileName,
  snapshotJson,
} from "../../src/core/snapshot/export.ts";
import {
  decodeSnapshotLink,
  encodeSnapshotLink,
  LINK_COMFORTABLE_CHARS,
  LINK_MAX_CHARS,
  linkFit,
  MAX_DECODED_BYTES,
} from "../../src/core/snapshot/link.ts";
import { checkSnapshot, looksLikeSnapshot, parseSnapshot } from "../../src/core/snapshot/parse.ts";
import { snapshotReport } from "../../src/core/snapshot/report.ts";
import { itemPositions, pathPositions, SNAPSHOT_FORMAT, type Snapshot } from "../../src/core/snapshot/schema.ts";
import { codedString } from "../../src/worker/coded-strings.ts";
import { listAt, listCount } from "../../src/worker/packed-lists.ts";
import { summarizeSnapshot } from "../../src/core/snapshot/summary.ts";
import { snapshotTokens } from "../../src/core/snapshot/tokens.ts";
import { findModel } from "../../src/core/models/registry.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import { binaryStandIn } from "../../src/core/binary-stand-in.ts";
import { base64Bytes } from "../../src/core/snapshot/base64.ts";
import {
  assistant,
  bash,
  compaction,
  header,
  image,
  modelChange,
  session,
  text,
  toolCall,
  toolResult,
  user,
} from "../support/build.ts";
import { ourSession } from "../support/ours.ts";
import { PNG } from "./snapshot-fixtures.ts";

const CREATED = "2026-02-03T04:05:06.000Z";

const STORY = session(
  header({ id: "sess-story", cwd: "/work/story", parentSession: "/sessions/parent.jsonl" }),
  modelChange("m1", null, "anthropic", "claude-sonnet-4-5"),
  user("u1", "m1", "Read the README"),
  assistant("a1", "u1", [toolCall("t1", "read", { path: "README.md" })]),
  toolResult("r1", "a1", "t1", "# Demo"),
  compaction("c1", "r1", "a1", "We started reading."),
  bash("b1", "c1", "ls", "a b c", { excludeFromContext: true }),
  user("u2", "b1", [text("What is in this picture?"), image(PNG)]),
  assistant("a2", "u2", [toolCall("t2", "read", { path: "x" })]),
  user("u3", "a2", "never mind"),
);

const tree = ourSession(STORY, "story.jsonl");
const leaf = tree.defaultLeaf!;
const make = (settings: RuleSettings = PI_DEFAULTS, model?: string): Snapshot => {
  const made = createSnapshotFor(tree, leaf, settings, model, { createdAt: CREATED, contextLensVersion: "9.9.9" });
  if (!made.ok) throw new Error(made.error);
  return made.value;
};

describe("createSnapshot", () => {
  const snap = make();

  it("holds the session's identity, the leaf, and every path entry with its fate", () => {
    expect(snap).toMatchObject({
      format: SNAPSHOT_FORMAT,
      version: 1,
      createdAt: CREATED,
      producer: { contextLens: "9.9.9", pi: "0.73.1" },
      session: {
        id: "sess-story",
        fileName: "story.jsonl",
        cwd: "/work/story",
        version: 3,
        parentSession: "/sessions/parent.jsonl",
      },
      leaf: { ref: "u3", id: "u3", line: 10 },
      model: { provider: "anthropic", id: "claude-sonnet-4-5", api: "anthropic-messages" },
      rules: { settings: {} },
    });
    expect(snap.path.map((e) => [e.ref, e.line, e.type, e.fate.kind])).toEqual([
      ["m1", 2, "model_change", "summarised"],
      ["u1", 3, "message/user", "summarised"],
      ["a1", 4, "message/assistant", "in-context"],
      ["r1", 5, "message/toolResult", "in-context"],
      ["c1", 6, "compaction", "compaction-summary"],
      ["b1", 7, "message/bashExecution", "excluded"],
      ["u2", 8, "message/user", "in-context"],
      ["a2", 9, "message/assistant", "in-context"],
      ["u3", 10, "message/user", "in-context"],
    ]);
    expect(snap.path[0]!.fate.reason).toBe("summarised by the compaction on line 6");
    expect(snap.path[5]!.fate.reason).toMatch(/^excluded by rule Honour excludeFromContext: /);
  });

  it("maps every payload item to the path entries it came from, and keeps the findings", () => {
    const list = snap.payload.body[snap.payload.listKey] as unknown[];
    expect(snap.payload.itemSources).toHaveLength(list.length);
    expect(snap.payload.itemSources[0]).toEqual(["c1"]);
    expect(snap.payload.itemSources.flat()).toContain("u3");
    expect(snap.findings).toEqual([
      expect.objectContaining({ code: "tool-call-without-result", severity: "warning", entries: ["a2"] }),
    ]);
    expect(itemPositions(snap)[0]).toEqual([4]);
  });

  it("records only the rules that differ from pi; the system prompt and tools have fields of their own", () => {
    const tools = [{ name: "read", description: "Read a file", parameters: { type: "object" } }];
    const changed = make({ ...PI_DEFAULTS, dropThinking: true, systemPrompt: "You are pi.", tools });
    expect(changed.rules.settings).toEqual({ dropThinking: true });
    expect(changed.systemPrompt).toBe("You are pi.");
    expect(changed.tools).toEqual(tools);
    expect(summarizeSnapshot(changed).changedRules).toEqual(["Drop thinking", "System prompt", "Tool definitions"]);
    expect(summarizeSnapshot(snap).rules).toBe("pi 0.73.1 exactly");
  });

  it("names another model than the session's, and the one the session used", () => {
    const other = make(PI_DEFAULTS, "openai/gpt-5.1");
    expect(other.model).toMatchObject({
      provider: "openai",
      id: "gpt-5.1",
      sessionModel: "anthropic/claude-sonnet-4-5",
    });
    expect(other.payload.listKey).toBe("input");
    expect(createSnapshotFor(tree, leaf, PI_DEFAULTS, "acme/rocket")).toEqual({
      ok: false,
      error: "acme/rocket is not a model in pi-ai's registry (nor in a models.json in use)",
    });
  });

  it("fails where the projection fails", () => {
    const noModel = ourSession(session(header(), user("u1", null, "hi")));
    const made = createSnapshot(noModel, 0, PI_DEFAULTS, undefined);
    expect(made.ok).toBe(false);
    expect(!made.ok && made.error).toMatch(/no model on this path/);
  });

  it("keeps Bedrock's image bytes as base64, as the AWS SDK sends them", () => {
    const bedrock = make(PI_DEFAULTS, "amazon-bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0");
    const text = JSON.stringify(bedrock.payload.body);
    expect(text).toContain(`"bytes":"${PNG}"`);
    expect(JSON.parse(JSON.stringify(bedrock))).toEqual(bedrock);
  });

  it("lists what the redact-secrets rule replaced, by entry, never the secret", () => {
    const key = `sk-proj-${"Zq8Rw2Lm5Tx9Vb3Nc7Hd1Kf4Gj6Ps0Ya".repeat(2)}`;
    const withKey = ourSession(
      session(header(), modelChange("m1", null, "anthropic", "claude-sonnet-4-5"), user("u1", "m1", `key ${key}`)),
    );
    const made = createSnapshot(withKey, 1, { ...PI_DEFAULTS, redactSecrets: true }, undefined);
    expect(made.ok).toBe(true);
    if (!made.ok) return;
    expect(made.value.redactions).toEqual([
      expect.objectContaining({ kind: "openai-key", by: "rule", entries: ["u1"] }),
    ]);
    expect(JSON.stringify(made.value)).not.toContain(key);
  });
});

describe("prepareExport", () => {
  const snap = make();
  const imageWhere = "payload.body.messages[3].content[1].source.data";

  it("stubs every image by default, with its type and size", () => {
    const exported = prepareExport(snap);
    expect(exported.images).toEqual([{ where: imageWhere, mimeType: "image/png", bytes: 104 }]);
    const json = JSON.stringify(exported);
    expect(json).not.toContain(PNG);
    expect(json).toContain("[image left out of this snapshot: image/png, 104 bytes]");
    expect(snap.payload.body).toEqual(make().payload.body); // the snapshot itself is untouched
  });

  it("keeps images when asked, exactly as they were", () => {
    const exported = exportWith(reviewSnapshot(snap), { ...DEFAULT_CHOICES, keepImages: true });
    expect(exported.images).toEqual([]);
    expect(exported.payload).toEqual(snap.payload);
  });

  it("redacts secrets one by one, and puts back exactly those the person keeps visible", () => {
    const first = `sk-ant-api03-${"Xy7Wv3Ut9Sr1Qp5On2Ml8Kj4Ih6Gf0Ed".repeat(3)}AA`;
    const second = `ghp_${"Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"}`;
    const withKeys = ourSession(
      session(
        header(),
        modelChange("m1", null, "anthropic", "claude-sonnet-4-5"),
        user("u1", "m1", `first ${first}`),
        assistant("a1", "u1", `second ${second}`),
        user("u2", "a1", "thanks"),
      ),
    );
    const made = createSnapshot(withKeys, 3, PI_DEFAULTS, undefined);
    if (!made.ok) throw new Error(made.error);
    const review = reviewSnapshot(made.value);
    expect(review.redactions.map((r) => [r.id, r.kind, r.where, r.entries])).toEqual([
      ["r1", "anthropic-key", "payload.body.messages[0].content", ["u1"]],
      ["r2", "github-token", "payload.body.messages[1].content[0].text", ["a1"]],
    ]);
    const hidden = JSON.stringify(exportWith(review, DEFAULT_CHOICES));
    expect(hidden).not.toContain(first);
    expect(hidden).not.toContain(second);
    const one = exportWith(review, { reveal: ["r2"], keepImages: false });
    expect(JSON.stringify(one)).not.toContain(first);
    expect(JSON.stringify(one)).toContain(second);
    expect(one.redactions).toEqual([
      {
        kind: "anthropic-key",
        label: "Anthropic API key",
        replacement: review.redactions[0]!.replacement,
        where: "payload.body.messages[0].content",
        by: "export",
        entries: ["u1"],
      },
    ]);
    expect(exportWith(review, { reveal: ["r1", "r2"], keepImages: true }).payload).toEqual(made.value.payload);
  });

  it("produces a snapshot that reads back as one", () => {
    const exported = prepareExport(snap);
    expect(checkSnapshot(JSON.parse(JSON.stringify(exported)))).toEqual({ ok: true, value: exported });
    expect(snapshotFileName(exported)).toBe("story-u3.snapshot.json");
  });
});

describe("round trips", () => {
  const exported = prepareExport(make(PI_DEFAULTS, "google/gemini-2.5-pro"));

  it("file: create → export → JSON → parse → equal", () => {
    const text = snapshotJson(exported);
    expect(looksLikeSnapshot(text.slice(0, 4096))).toBe(true);
    expect(parseSnapshot(text, "snap.json")).toEqual({ ok: true, value: exported });
  });

  it("link: create → export → encode → decode → equal, from a fragment or a whole URL", async () => {
    const fragment = await encodeSnapshotLink(exported);
    expect(fragment).toMatch(/^#snapshot=[A-Za-z0-9_-]+$/);
    expect(fragment.length).toBeLessThan(JSON.stringify(exported).length);
    expect(await decodeSnapshotLink(fragment)).toEqual({ ok: true, value: exported });
    expect(await decodeSnapshotLink(`https://lens.example/app/?x=1${fragment}`)).toEqual({ ok: true, value: exported });
  });

  it("with tokens: figures per item survive both ways", async () => {
    const list = exported.payload.body[exported.payload.listKey] as unknown[];
    const tokens = snapshotTokens(
      {
        total: { kind: "calibrated", value: 1234.4, basis: "anchored on line 4" },
        items: list.map((_, index) => ({ index, role: index === 0 ? "system" : "user", tokens: 10.6 * index })),
        family: { id: "claude", coefficients: { o200k: 0.2, claude: 1.1 } },
      },
      list.length,
    );
    expect(tokens.tokenizer).toBe("claude family: o200k + legacy Claude vocabularies, fitted coefficients");
    expect(tokens.total).toBe(1234);
    expect(tokens.perItem[0]).toBeNull();
    expect(tokens.perItem[1]).toBe(11);
    const withTokens = { ...exported, tokens };
    expect(parseSnapshot(snapshotJson(withTokens))).toEqual({ ok: true, value: withTokens });
    expect(await decodeSnapshotLink(await encodeSnapshotLink(withTokens))).toEqual({ ok: true, value: withTokens });
    expect(snapshotReport(withTokens).find((l) => l.startsWith("tokens"))).toMatch(/≈1,234 tokens, calibrated/);
  });
});

describe("bad snapshot files say what they are", () => {
  const good = prepareExport(make());
  const edit = (change: (s: Record<string, unknown>) => void): string => {
    const copy = JSON.parse(JSON.stringify(good)) as Record<string, unknown>;
    change(copy);
    return JSON.stringify(copy);
  };
  const error = (text: string) => {
    const parsed = parseSnapshot(text, "snap.json");
    expect(parsed.ok).toBe(false);
    return parsed.ok ? "" : parsed.error;
  };

  it.each([
    ["empty", "", "snap.json is empty."],
    ["not JSON", "hello", "snap.json is not JSON (Unexpected token"],
    ["cut off", snapshotJson(good).slice(0, 300), "It looks like a snapshot that was cut off or edited."],
    ["a session", STORY, "snap.json is not a Context Lens snapshot: it is a pi session file (JSON Lines)"],
    [
      "a preset",
      JSON.stringify({ format: "context-lens/preset", version: 1, name: "x", settings: {} }),
      "it is a Context Lens rule preset",
    ],
    ["a payload", JSON.stringify({ model: "gpt-5.1", input: [] }), "it is a provider request body"],
    ["an array", "[1, 2]", "it is a JSON array"],
    ["an object", '{"hello": "world"}', 'it is a JSON object without a "format" field'],
    ["another format", '{"format": "acme/thing"}', 'it is a document of another format ("acme/thing")'],
  ])("%s", (_name, text, message) => {
    expect(error(text)).toContain(message);
  });

  it("a newer version: made by a newer Context Lens", () => {
    expect(error(edit((s) => (s["version"] = 2)))).toBe(
      "snap.json was made by a newer Context Lens (snapshot version 2; this one reads version 1). Open it with a newer Context Lens.",
    );
  });

  it("an older or unknown version", () => {
    expect(error(edit((s) => (s["version"] = 0)))).toContain("has snapshot version 0, which no Context Lens wrote");
    expect(error(edit((s) => delete s["version"]))).toContain("has snapshot version (none)");
    expect(error(edit((s) => (s["version"] = "1")))).toContain('has snapshot version "1"');
  });

  it.each([
    ["payload.body", (s: Record<string, unknown>) => delete (s["payload"] as Record<string, unknown>)["body"]],
    ["path[3].line", (s: Record<string, unknown>) => ((s["path"] as Record<string, unknown>[])[3]!["line"] = "four")],
    ["createdAt", (s: Record<string, unknown>) => (s["createdAt"] = "yesterday")],
    ["model.provider", (s: Record<string, unknown>) => ((s["model"] as Record<string, unknown>)["provider"] = 7)],
    [
      "rules.settings",
      (s: Record<string, unknown>) => ((s["rules"] as Record<string, unknown>)["settings"] = { x: 1 }),
    ],
    ["path", (s: Record<string, unknown>) => (s["path"] = [])],
  ])("a damaged field names its path: %s", (path, change) => {
    expect(error(edit(change))).toMatch(new RegExp(`^snap\\.json is damaged: at ${path.replace(/[[\].]/g, "\\$&")}: `));
  });

  it("references that point nowhere are damage too", () => {
    expect(error(edit((s) => ((s["payload"] as { itemSources: string[][] }).itemSources[2] = ["nowhere"])))).toBe(
      'snap.json is damaged: at payload.itemSources[2]: "nowhere" is not an entry of the path.',
    );
    expect(error(edit((s) => (s["payload"] as { itemSources: string[][] }).itemSources.pop()))).toMatch(
      /at payload\.itemSources: \d+ source lists for \d+ payload items/,
    );
    expect(error(edit((s) => ((s["leaf"] as { ref: string }).ref = "a1")))).toContain(
      'at leaf.ref: "a1" is not the last entry of the path',
    );
    expect(error(edit((s) => (s["tokens"] = { total: 1, perItem: [1], kind: "estimated", tokenizer: "x" })))).toMatch(
      /at tokens\.perItem: 1 counts for \d+ payload items/,
    );
  });

  it("only text that names the snapshot format is taken for one", () => {
    expect(looksLikeSnapshot('{\n  "format": "context-lens/snapshot",')).toBe(true);
    expect(looksLikeSnapshot('{"type":"session","id":"x"}')).toBe(false);
    expect(looksLikeSnapshot('[{"format": "context-lens/snapshot"}]')).toBe(false);
  });
});

describe("links", () => {
  it("say what is wrong with a link that carries no usable snapshot", async () => {
    const fragment = await encodeSnapshotLink(prepareExport(make()));
    const message = async (link: string) => {
      const decoded = await decodeSnapshotLink(link);
      return decoded.ok ? "" : decoded.error;
    };
    expect(await message("#session=abc")).toBe('the link holds no snapshot (no "#snapshot=" part).');
    expect(await message("#snapshot=")).toMatch(/^the link holds an empty snapshot/);
    expect(await message("#snapshot=abc$def")).toMatch(/^the link is damaged: its snapshot has characters/);
    expect(await message(fragment.slice(0, Math.floor(fragment.length / 2)))).toMatch(
      /^the link is damaged or incomplete \(.*\)\. Links pasted into chat or mail are sometimes cut short/,
    );
    const notSnapshot = await encodeSnapshotLink({ hello: "world" } as unknown as Snapshot);
    expect(await message(notSnapshot)).toBe(
      'the link is not a Context Lens snapshot: it is a JSON object without a "format" field.',
    );
  });

  it("refuse a link that unpacks to more than 64 MB", async () => {
    const bomb = deflateRawSync(Buffer.alloc(MAX_DECODED_BYTES + 1024, 0x20)).toString("base64url");
    expect(bomb.length).toBeLessThan(200_000);
    const decoded = await decodeSnapshotLink(`#snapshot=${bomb}`);
    expect(decoded).toEqual({
      ok: false,
      error: "the link holds more than a link may (it unpacks to more than 64 MB); ask for the snapshot file instead.",
    });
  });

  it("refuse a file or a link holding a value nested too deep to walk, and say where", async () => {
    const written = JSON.parse(snapshotJson(prepareExport(make(PI_DEFAULTS)))) as Snapshot;
    (written.payload.body as Record<string, unknown>)["deep"] = "DEEP";
    const text = JSON.stringify(written).replace('"DEEP"', "[".repeat(12_000) + "]".repeat(12_000));
    const why =
      /^nests arrays or objects more than 1,000 levels deep \(at payload\.body\.deep\[0\]\[0\]\[0\]…\); it is not one Context Lens wrote\.$/;
    const file = parseSnapshot(text, "deep.json");
    expect(file.ok).toBe(false);
    if (!file.ok) expect(file.error.replace("deep.json ", "")).toMatch(why);
    const link = await decodeSnapshotLink(`#snapshot=${deflateRawSync(Buffer.from(text)).toString("base64url")}`);
    expect(link.ok).toBe(false);
    if (!link.ok) expect(link.error.replace("the link ", "")).toMatch(why);
  });

  it("say when a link is too long to travel well, and when browsers would not open it", () => {
    expect(linkFit(LINK_COMFORTABLE_CHARS)).toEqual({ fit: "fine", length: LINK_COMFORTABLE_CHARS });
    const long = linkFit(LINK_COMFORTABLE_CHARS + 1);
    expect(long.fit).toBe("long");
    expect(long.fit !== "fine" && long.message).toMatch(/chat apps and mail may cut links longer than 32,000/);
    expect(linkFit(LINK_MAX_CHARS).fit).toBe("long");
    const tooLong = linkFit(LINK_MAX_CHARS + 1);
    expect(tooLong.fit).toBe("too-long");
    expect(tooLong.fit !== "fine" && tooLong.message).toMatch(/Share the snapshot file instead/);
  });

  it("a large session still round-trips through a link", async () => {
    const big = ourSession(
      session(
        header(),
        modelChange("m1", null, "anthropic", "claude-sonnet-4-5"),
        ...Array.from({ length: 200 }, (_, i) =>
          i % 2 === 0
            ? user(`u${i}`, i === 0 ? "m1" : `a${i - 1}`, `question ${i}: ${"why ".repeat(50)}`)
            : assistant(`a${i}`, `u${i - 1}`, `answer ${i}: ${"because ".repeat(80)}`),
        ),
      ),
    );
    const made = createSnapshot(big, big.defaultLeaf!, PI_DEFAULTS, findModel("anthropic", "claude-sonnet-4-5"));
    if (!made.ok) throw new Error(made.error);
    const exported = prepareExport(made.value);
    const fragment = await encodeSnapshotLink(exported);
    expect(await decodeSnapshotLink(fragment)).toEqual({ ok: true, value: exported });
    // Repetitive text compresses well: the link is a fraction of the JSON.
    expect(fragment.length / JSON.stringify(exported).length).toBeLessThan(0.25);
  });
});

describe("the worker seam", () => {
  it("answers a share request with what the review found and the export with all of it hidden, tokens counted", async () => {
    const client = createInProcessClient();
    await client.load("s1", new Blob([STORY]), "story.jsonl", () => undefined).done;
    const answer = await client.snapshot("s1", leaf, PI_DEFAULTS, undefined, "pi 0.73.1");
    if (!answer.ok) throw new Error(answer.error);
    const { shareId, findings, output } = answer.value;
    // The file is the snapshot exported with the default choices: the image left out.
    const json = await output.file.text();
    const sent = JSON.parse(json) as Snapshot;
    const { createdAt: _a, tokens, rules, ...rest } = sent;
    const { createdAt: _b, tokens: _t, rules: _r, ...direct } = prepareExport(make());
    expect({ ...rest, producer: direct.producer }).toEqual(direct);
    expect(rules).toEqual({ preset: "pi 0.73.1", settings: {} });
    expect(tokens?.kind).toMatch(/^(exact|calibrated|estimated)$/);
    expect(tokens?.perItem).toHaveLength(sent.payload.itemSources.length);
    expect(tokens?.tokenizer).toMatch(/^claude family: /);
    expect(json).toBe(snapshotJson(sent));
    expect(output.file.type).toBe("application/json");
    expect(output.fileName).toBe(snapshotFileName(sent));
    expect(output.summary).toEqual(summarizeSnapshot(sent));
    expect(await decodeSnapshotLink(output.linkFragment)).toEqual({ ok: true, value: sent });
    // What the review found, for the page to show: the image, and where each path entry is in the file.
    expect(findings.images).toHaveLength(1);
    expect(findings.redactions).toEqual([]);
    expect(findings.lines).toEqual(sent.path.map((e) => [e.ref, e.line]));

    // The person's choices are applied where the review is held.
    const kept = await client.shareOutput(shareId, { reveal: [], keepImages: true });
    if (!kept.ok) throw new Error(kept.error);
    const keptJson = await kept.value.file.text();
    const withImage = JSON.parse(keptJson) as Snapshot;
    expect(sent.images).toHaveLength(1); // the notes of what was left out
    expect(withImage.images).toEqual([]);
    expect(keptJson).toContain(PNG);
    expect(json).not.toContain(PNG);
    const gone = {
      ok: false,
      error: "this snapshot is no longer held here (another was made, or the session worker restarted); share again",
    };
    expect(await client.shareOutput(shareId + 1, DEFAULT_CHOICES)).toEqual(gone);
    // Closing the review lets the worker drop the snapshot.
    await client.shareEnd(shareId);
    expect(await client.shareOutput(shareId, DEFAULT_CHOICES)).toEqual(gone);
    expect(await client.snapshot("s1", leaf, PI_DEFAULTS, "acme/rocket", undefined)).toEqual({
      ok: false,
      error: "acme/rocket is not a model in pi-ai's registry (nor in a models.json in use)",
    });
  });

  it("reads a snapshot file or link as the page would, and says what a file is when it is not one", async () => {
    const client = createInProcessClient();
    const snapshot = prepareExport(make());
    const json = snapshotJson(snapshot);
    const file = (text: string, name: string) => ({ file: new Blob([text]), name });
    const opened = await client.openSnapshot(file(json, "story.snapshot.json"));
    if (!opened.ok) throw new Error(opened.error);
    // Nothing in this one to stand in for: the page gets it as it is.
    const listLength = (snapshot.payload.body[snapshot.payload.listKey] as unknown[]).length;
    const {
      path,
      payload: { itemSources: _sources, ...payload },
      ...others
    } = snapshot;
    const rest = { ...others, payload };
    // Everything else of the snapshot as it is; its path and item sources come as what the page reads.
    expect(opened.value.snapshot).toEqual(rest);
    expect(opened.value).toMatchObject({ summary: summarizeSnapshot(snapshot), listLength });
    // The path comes as columns, item sources and findings by path position.
    const shown = opened.value;
    expect(Array.from(shown.path.lines)).toEqual(path.map((e) => e.line));
    expect(path.map((_, i) => codedString(shown.path.types, i))).toEqual(path.map((e) => e.type));
    expect(path.map((_, i) => codedString(shown.path.fates, i))).toEqual(path.map((e) => e.fate.kind));
    expect(path.map((_, i) => codedString(shown.path.reasons, i))).toEqual(path.map((e) => e.fate.reason));
    expect(Array.from({ length: listCount(shown.itemSources) }, (_, i) => listAt(shown.itemSources, i))).toEqual(
      itemPositions(snapshot),
    );
    const positions = pathPositions(snapshot);
    expect(shown.findings).toEqual(
      snapshot.findings.map((f) => ({ ...f, entries: f.entries.map((ref) => positions.get(ref)) })),
    );
    expect(shown.findings.some((f) => f.entries.length > 0)).toBe(true);
    expect(await client.openSnapshot(file(STORY, "story.jsonl"))).toEqual(parseSnapshot(STORY, "story.jsonl"));
    const unreadable = { text: () => Promise.reject(new Error("the file was moved")) } as unknown as Blob;
    expect(await client.openSnapshot({ file: unreadable, name: "gone.json" })).toEqual({
      ok: false,
      error: "gone.json cannot be read (the file was moved).",
    });
    const link = await encodeSnapshotLink(snapshot);
    expect(await client.openSnapshot({ link })).toMatchObject({ ok: true, value: { snapshot: rest, listLength } });
    expect(await client.openSnapshot({ link: link.slice(0, -40) })).toEqual(
      await decodeSnapshotLink(link.slice(0, -40), "The link"),
    );
  });

  it("holds a snapshot that keeps its images where it was read: the page gets stand-ins, copies get the images", async () => {
    const client = createInProcessClient();
    // A screenshot of 3,000 bytes: big enough that the view holds its type and size instead.
    const screenshot = `iVBORw0KGgo${"A".repeat(3989)}`;
    const pictured = ourSession(
      session(header({ id: "pictured" }), user("u1", null, [text("What is this?"), image(screenshot)])),
      "pictured.jsonl",
    );
    const made = createSnapshotFor(pictured, pictured.defaultLeaf!, PI_DEFAULTS, "openai/gpt-5.1-codex", {
      createdAt: CREATED,
    });
    if (!made.ok) throw new Error(made.error);
    const snapshot = exportWith(reviewSnapshot(made.value), { ...DEFAULT_CHOICES, keepImages: true });
    const opened = await client.openSnapshot({ file: new Blob([snapshotJson(snapshot)]), name: "kept.json" });
    if (!opened.ok) throw new Error(opened.error);
    const { id, snapshot: shown, summary, listLength } = opened.value;
    const body = snapshot.payload.body;
    const list = body[snapshot.payload.listKey] as unknown[];
    expect(listLength).toBe(list.length);
    // The view holds the image's type and size, not its data; everything else is the snapshot's own.
    expect(JSON.stringify(snapshot.payload.body)).toContain(screenshot);
    expect(JSON.stringify(shown.payload.body)).not.toContain(screenshot);
    expect(JSON.stringify(shown.payload.body)).toContain(
      JSON.stringify(binaryStandIn("image/png", base64Bytes(screenshot))),
    );
    expect({ ...shown, payload: undefined }).toEqual({ ...snapshot, path: undefined, payload: undefined });
    expect(summary).toEqual(summarizeSnapshot(snapshot));
    expect(await client.snapshotItems(id, 0, list.length)).toEqual(shown.payload.body[snapshot.payload.listKey]);
    // What is copied and downloaded is the snapshot's body itself, image and all.
    expect(await client.snapshotJson(id, undefined)).toBe(JSON.stringify(body, null, 2));
    expect(await client.snapshotJson(id, 0)).toBe(JSON.stringify(list[0], null, 2));
    const saved = await client.snapshotFile(id);
    expect(saved.type).toBe("application/json");
    expect(await saved.text()).toBe(JSON.stringify(body, null, 2));
    await expect(client.snapshotItems(id, 0, list.length + 1)).rejects.toThrow(
      `The payload has no items 0–${list.length + 1} (it has ${list.length}).`,
    );
    // Closed, or another opened: it is let go, and asking for it says so.
    await client.closeSnapshot(id);
    await expect(client.snapshotJson(id, undefined)).rejects.toThrow("This snapshot is no longer held here");
  });
});
