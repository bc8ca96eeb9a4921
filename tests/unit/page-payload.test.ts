/**
 * What the session worker posts to the page: the payload with stand-ins for its images (the page never holds a
 * copy of them), and the JSON it writes when the person copies or saves the payload (the images whole).
 */
import { describe, expect, it } from "vitest";
import { isBinaryStandIn } from "../../src/core/binary-stand-in.ts";
import { isTextStandIn, TEXT_HEAD_CHARS, TEXT_STAND_IN_CHARS } from "../../src/core/text-stand-in.ts";
import { findModel } from "../../src/core/models/registry.ts";
import { projectLeaf } from "../../src/core/project/project.ts";
import { base64Bytes } from "../../src/core/snapshot/base64.ts";
import { countPayload, TokenCounter } from "../../src/core/tokens/count.ts";
import type { Tokenizer } from "../../src/core/tokens/tokenizer.ts";
import { pageItemsOf, payloadForPage, payloadJson } from "../../src/worker/page-payload.ts";
import { assistant, header, session, toolCall, toolResult, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";

// A real 8×8 PNG's first 48 bytes, then filler: the token counter reads the size from the header.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAL0lEQVR42mOQk1O5Y2MjJ6cCRxAuAzIHmcGArBBZKyEJ7EbhsxwTMQTsS0FDEAkAYNcp3VdXZfUAAAAASUVORK5CYII=";
const SHOT = PNG.slice(0, 64) + "QUJD".repeat(300);
const RESULT = PNG.slice(0, 64) + "WFla".repeat(200);

const tree = ourSession(
  session(
    header({ id: "page-payload" }),
    user("u1", null, [
      { type: "text", text: "what is on this screenshot?" },
      { type: "image", mimeType: "image/png", data: SHOT },
    ]),
    assistant("a1", "u1", [toolCall("call_1", "read", { path: "shot.png" })]),
    toolResult("r1", "a1", "call_1", [
      { type: "text", text: "Read image file [image/png]" },
      { type: "image", mimeType: "image/png", data: RESULT },
    ]),
    assistant("a2", "r1", "A settings page."),
  ),
);

const MODELS = [
  ["anthropic", "claude-sonnet-4-5"],
  ["openai", "gpt-5.1-codex"],
  ["openai", "gpt-4o"],
  ["google", "gemini-2.5-pro"],
  ["mistral", "labs-devstral-small-2512"],
  ["amazon-bedrock", "amazon.nova-2-lite-v1:0"],
] as const;

function projected(provider: string, id: string) {
  const model = findModel(provider, id);
  if (!model) throw new Error(`${provider}/${id} is not in the registry`);
  const result = projectLeaf(tree, tree.defaultLeaf!, { model });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

function standIns(value: unknown, out: unknown[] = []): unknown[] {
  if (isBinaryStandIn(value)) out.push(value);
  else if (typeof value === "object" && value !== null && !ArrayBuffer.isView(value))
    for (const v of Object.values(value)) standIns(v, out);
  return out;
}

describe.each(MODELS)("the payload for %s/%s", (provider, id) => {
  const projection = projected(provider, id);
  const { payload } = projection;
  const page = payloadForPage(payload);

  it("reaches the page with every image as its type and size, and nothing else changed", () => {
    const text = JSON.stringify(page.body);
    expect(text).not.toContain("QUJDQUJD");
    expect(text).not.toContain("WFlaWFla");
    const shots = [SHOT, RESULT].map((data) => ({
      $standIn: "binary",
      mimeType: "image/png",
      bytes: base64Bytes(data),
    }));
    expect(standIns(page.body)).toEqual(expect.arrayContaining(shots));
    expect(page.listKey).toBe(payload.listKey);
    expect(Object.keys(page)).toEqual(["body", "listKey", "listLength"]); // provenance travels packed beside it
    // Items without images are posted as they are (the same objects), and the body keeps its keys in order.
    const list = payload.body[payload.listKey] as unknown[];
    const pageList = page.body[page.listKey] as unknown[];
    expect(pageList).toHaveLength(list.length); // a short list comes whole
    expect(page.listLength).toBe(list.length);
    expect(pageItemsOf(payload, 0, list.length)).toEqual(pageList);
    list.forEach((item, i) => {
      const hasImage = /QUJDQUJD|WFlaWFla/.test(
        JSON.stringify(item, (_k, v: unknown) => (ArrayBuffer.isView(v) ? "WFlaWFla" : v)),
      );
      if (!hasImage) expect(pageList[i]).toBe(item);
      else expect(pageList[i]).not.toBe(item);
    });
    expect(Object.keys(page.body)).toEqual(Object.keys(payload.body));
  });

  it("is written whole, exactly as JSON.stringify writes it, for the copy and the download", () => {
    expect(payloadJson(payload, undefined)).toBe(JSON.stringify(payload.body, null, 2));
    const list = payload.body[payload.listKey] as unknown[];
    list.forEach((item, i) => expect(payloadJson(payload, i)).toBe(JSON.stringify(item, null, 2)));
    expect(() => payloadJson(payload, list.length)).toThrow(`The payload has no item ${list.length}.`);
  });

  it("counts its images as before, without reading a data URL the builder made", () => {
    const chars: Tokenizer = { name: "o200k", count: (text) => text.length };
    const direct = countPayload(projection, new TokenCounter({ o200k: chars }));
    // The same body through JSON: its data URLs are plain strings again, read as such.
    const copy = {
      ...projection,
      payload: { ...payload, body: JSON.parse(JSON.stringify(payload.body)) as typeof payload.body },
    };
    const viaText = countPayload(copy, new TokenCounter({ o200k: chars }));
    expect(direct.items.map((i) => i.images)).toEqual(viaText.items.map((i) => i.images));
    expect(direct.items.flatMap((i) => i.images).some((size) => size?.width === 8)).toBe(true);
  });
});

describe("image data that is not a string (pi writes none)", () => {
  it("reaches the page as the short URL the body holds, and is written as JSON.stringify writes it", () => {
    const odd = ourSession(
      session(header(), toolResult("r1", null, "call_1", [{ type: "image", data: {}, mimeType: "image/png" }])),
    );
    const p = projectLeaf(odd, odd.defaultLeaf!, { model: findModel("openai", "gpt-5.1-codex")! });
    if (!p.ok) throw new Error(p.error);
    const page = payloadForPage(p.value.payload);
    expect(JSON.stringify(page.body)).toContain('"image_url":"data:image/png;base64,[object Object]"');
    expect(payloadJson(p.value.payload, undefined)).toBe(JSON.stringify(p.value.payload.body, null, 2));
  });
});

describe("long strings of the main list's items", () => {
  // The emoji's two halves straddle the head's end: the head stops before it rather than split it.
  const ASK = `${"a".repeat(TEXT_HEAD_CHARS - 1)}🙂${"b".repeat(4000)}`;
  const OUTPUT = "line of tool output\n".repeat(200);
  const SHORT = "x".repeat(TEXT_STAND_IN_CHARS);
  const SYSTEM = "You are pi. ".repeat(200);
  const long = ourSession(
    session(
      header({ id: "long-strings" }),
      user("u1", null, ASK),
      assistant("a1", "u1", [toolCall("call_1", "bash", { command: "ls" })]),
      toolResult("r1", "a1", "call_1", [{ type: "text", text: OUTPUT }]),
      assistant("a2", "r1", SHORT),
    ),
  );

  function texts(value: unknown, out: string[] = []): string[] {
    if (typeof value === "string") out.push(value);
    else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) texts(v, out);
    return out;
  }
  function standInsOf(value: unknown, out: unknown[] = []): unknown[] {
    if (isTextStandIn(value)) out.push(value);
    else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) standInsOf(v, out);
    return out;
  }

  it.each(MODELS.slice(0, 4))("reach the page from %s/%s as head and length; the JSON still holds them", (p, id) => {
    const model = findModel(p, id)!;
    const result = projectLeaf(long, long.defaultLeaf!, { model, systemPrompt: SYSTEM });
    if (!result.ok) throw new Error(result.error);
    const { payload } = result.value;
    const page = payloadForPage(payload);
    const pageList = page.body[page.listKey];
    const sent = texts(pageList);
    expect(sent.some((t) => t.includes("🙂") || t.includes("bbbb"))).toBe(false);
    expect(sent).toContain(SHORT); // not longer than the threshold: as it is
    expect(standInsOf(pageList)).toEqual(
      expect.arrayContaining([
        { $standIn: "text", head: ASK.slice(0, TEXT_HEAD_CHARS - 1), length: ASK.length },
        { $standIn: "text", head: OUTPUT.slice(0, TEXT_HEAD_CHARS), length: OUTPUT.length },
      ]),
    );
    // Outside the main list (the system prompt) strings are posted whole: the page asks items only.
    expect(texts(Object.entries(page.body).filter(([key]) => key !== page.listKey))).toEqual(
      texts(Object.entries(payload.body).filter(([key]) => key !== payload.listKey)),
    );
    // Each item's JSON, which the page reads a string whole from, is the real one.
    const list = payload.body[payload.listKey] as unknown[];
    expect(list.map((_, i) => payloadJson(payload, i)).join("")).toContain(JSON.stringify(ASK).slice(1, -1));
  });
});
