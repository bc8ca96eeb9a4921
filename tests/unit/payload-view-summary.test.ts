import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64Bytes, describeBinary } from "../../src/ui/payload/binary.ts";
import { payloadFileName, payloadJson } from "../../src/ui/payload/export.ts";
import { formatCount } from "../../src/ui/payload/format.ts";
import { firstItemFrom, formatItemTokens, tokenLegend } from "../../src/ui/payload/provenance.ts";
import {
  CHUNK_CHARS,
  LONG_STRING_CHARS,
  PREVIEW_CHARS,
  isLongString,
  previewString,
  stringChunks,
} from "../../src/ui/payload/strings.ts";
import { describeFolded, quoteText, summarizeItem } from "../../src/ui/payload/summary.ts";
import { packLists } from "../../src/worker/packed-lists.ts";

/** 43 KB decoded: 44,034 bytes. */
const B64_43K = "A".repeat(58_712);

describe("describeBinary", () => {
  it("recognises image data in every provider's shape, by where it sits", () => {
    const anthropic = { type: "base64", media_type: "image/png", data: B64_43K };
    expect(describeBinary(B64_43K, "data", anthropic, {})).toBe("<image/png, 43 KB>");
    const google = { mimeType: "image/jpeg", data: "QUJD" };
    expect(describeBinary("QUJD", "data", google, {})).toBe("<image/jpeg, 3 B>");
    const pi = { type: "image", mimeType: "image/webp", data: "QUJDRA==" };
    expect(describeBinary("QUJDRA==", "data", pi, [])).toBe("<image/webp, 4 B>");
    const url = `data:image/png;base64,${B64_43K}`;
    expect(describeBinary(url, "image_url", { type: "input_image" }, [])).toBe("<image/png, 43 KB>");
    expect(describeBinary(url, "url", { url }, {})).toBe("<image/png, 43 KB>");
    const bytes = new Uint8Array(2048);
    expect(describeBinary(bytes, "bytes", { bytes }, { format: "gif", source: { bytes } })).toBe("<image/gif, 2.0 KB>");
    expect(describeBinary(bytes, "blob", {}, {})).toBe("<binary, 2.0 KB>");
  });

  it("leaves ordinary strings alone, even under a `data` key or starting with data:", () => {
    expect(describeBinary("hello", "data", { other: 1 }, {})).toBeUndefined();
    expect(describeBinary("data: not a url", "text", {}, {})).toBeUndefined();
    expect(describeBinary("data:text/plain,hello", "url", {}, {})).toBeUndefined();
    expect(describeBinary(B64_43K, "text", { media_type: "image/png" }, {})).toBeUndefined();
    expect(describeBinary(42, "data", { mimeType: "image/png" }, {})).toBeUndefined();
  });

  it("counts decoded bytes, padding excluded", () => {
    expect(base64Bytes("")).toBe(0);
    expect(base64Bytes("QUJD")).toBe(3);
    expect(base64Bytes("QUI=")).toBe(2);
    expect(base64Bytes("QQ==")).toBe(1);
  });
});

describe("long strings", () => {
  it("shortens strings over the limit to a preview that ends in …", () => {
    const short = "a".repeat(LONG_STRING_CHARS);
    expect(isLongString(short)).toBe(false);
    expect(previewString(short)).toBe(JSON.stringify(short));
    const long = `say "hi"\n${"b".repeat(LONG_STRING_CHARS)}`;
    expect(isLongString(long)).toBe(true);
    const preview = previewString(long);
    expect(preview.startsWith('"say \\"hi\\"\\nbbb')).toBe(true);
    expect(preview.endsWith('…"')).toBe(true);
    expect(JSON.parse(preview.replace('…"', '"'))).toBe(long.slice(0, PREVIEW_CHARS));
  });

  it("never cuts a surrogate pair in a preview", () => {
    const text = `${"x".repeat(PREVIEW_CHARS - 1)}😀${"y".repeat(LONG_STRING_CHARS)}`;
    expect(previewString(text)).toBe(`"${"x".repeat(PREVIEW_CHARS - 1)}…"`);
  });

  it("splits a string into pieces that end at newlines or the chunk size and join to its JSON", () => {
    const text = `first line\nsecond "quoted"\n${"z".repeat(CHUNK_CHARS + 5)}\n`;
    expect(stringChunks(text)).toEqual([
      "first line\\n",
      'second \\"quoted\\"\\n',
      "z".repeat(CHUNK_CHARS),
      "zzzzz\\n",
    ]);
    expect(stringChunks("")).toEqual([""]);
    expect(stringChunks(text, 2)).toHaveLength(2);
  });

  it("joins back to exactly JSON.stringify for any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (text) => {
        const chunks = stringChunks(text);
        expect(`"${chunks.join("")}"`).toBe(JSON.stringify(text));
      }),
    );
  });
});

describe("summarizeItem", () => {
  it("summarises Anthropic messages: role, first text, blocks, tool calls and results, images", () => {
    expect(summarizeItem({ role: "user", content: "Fix the failing test in the parser module, please, now" }, 12)).toBe(
      '[12] user · "Fix the failing test in the parser module, pleas…"',
    );
    const assistant = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "hmm", signature: "sig" },
        { type: "text", text: "Reading it." },
        { type: "tool_use", id: "t1", name: "read", input: { path: "a" } },
        { type: "tool_use", id: "t2", name: "bash", input: { command: "ls" } },
      ],
    };
    expect(summarizeItem(assistant, 1)).toBe('[1] assistant · "Reading it." · 4 blocks · calls read, bash');
    const result = { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok\n  done" }] };
    expect(summarizeItem(result, 2)).toBe('[2] user · "ok done" · 1 block · tool result');
    const image = {
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "QUJD" } },
      ],
    };
    expect(summarizeItem(image, 3)).toBe('[3] user · "look" · 2 blocks · 1 image');
    expect(summarizeItem({ role: "assistant", content: [{ type: "thinking", thinking: "only thoughts" }] }, 4)).toBe(
      '[4] assistant · "only thoughts" · 1 block',
    );
  });

  it("summarises OpenAI Responses items by type when they have no role", () => {
    const call = { type: "function_call", call_id: "c1", name: "edit", arguments: '{"path":"x"}' };
    expect(summarizeItem(call, 4)).toBe("[4] function_call · calls edit");
    expect(summarizeItem({ type: "function_call_output", call_id: "c1", output: "Done." }, 5)).toBe(
      '[5] function_call_output · "Done." · tool result',
    );
    const message = { type: "message", role: "assistant", content: [{ type: "output_text", text: "Hi" }] };
    expect(summarizeItem(message, 6)).toBe('[6] assistant · "Hi" · 1 block');
    const reasoning = { type: "reasoning", summary: [{ type: "summary_text", text: "Thinking about it" }] };
    expect(summarizeItem(reasoning, 7)).toBe('[7] reasoning · "Thinking about it"');
    const picture = { role: "user", content: [{ type: "input_image", image_url: "data:image/png;base64,QUJD" }] };
    expect(summarizeItem(picture, 8)).toBe("[8] user · 1 block · 1 image");
  });

  it("summarises Google contents, OpenAI Completions and Bedrock messages", () => {
    const model = { role: "model", parts: [{ text: "On it" }, { functionCall: { name: "read", args: {} } }] };
    expect(summarizeItem(model, 0)).toBe('[0] model · "On it" · 2 parts · calls read');
    const response = { role: "user", parts: [{ functionResponse: { name: "read", response: { output: "file" } } }] };
    expect(summarizeItem(response, 1)).toBe('[1] user · "file" · 1 part · tool result');
    const tool = { role: "tool", content: "3 passed", tool_call_id: "c1" };
    expect(summarizeItem(tool, 2)).toBe('[2] tool · "3 passed" · tool result');
    const calls = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: "{}" } }],
    };
    expect(summarizeItem(calls, 3)).toBe("[3] assistant · calls bash");
    const bedrock = { role: "user", content: [{ toolResult: { toolUseId: "t", content: [{ text: "ok" }] } }] };
    expect(summarizeItem(bedrock, 4)).toBe('[4] user · "ok" · 1 block · tool result');
    const many = { role: "assistant", content: ["a", "b", "c", "d", "e"].map((name) => ({ toolUse: { name } })) };
    expect(summarizeItem(many, 5)).toBe("[5] assistant · 5 blocks · calls a, b, c +2");
  });

  it("summarises what is not an object", () => {
    expect(summarizeItem("text", 0)).toBe('[0] "text"');
    expect(summarizeItem([1, 2], 1)).toBe("[1] […] 2 items");
    expect(summarizeItem({}, 2)).toBe("[2] item");
  });

  it("quotes only the start of a long text, on one line", () => {
    expect(quoteText("  a\n\n b  ")).toBe('"a b"');
    expect(quoteText(`${"word ".repeat(10)}\n`, 12)).toBe('"word word wo…"');
    expect(quoteText(`${" ".repeat(1000)}late`, 10)).toBe('"…"');
    expect(quoteText(`short${" ".repeat(1000)}`, 10)).toBe('"short"');
  });

  it("describes folded objects and arrays by size, with their type", () => {
    expect(describeFolded([1, 2, 3])).toBe("[…] 3 items");
    expect(describeFolded([0])).toBe("[…] 1 item");
    expect(describeFolded({ type: "text", text: "x", skipped: undefined })).toBe("{…} text · 2 keys");
    expect(describeFolded({ a: 1 })).toBe("{…} 1 key");
  });
});

describe("provenance, tokens and export", () => {
  it("finds the first item that came from an entry", () => {
    const sources = packLists([[1], [], [2, 3], [3]]);
    expect(firstItemFrom(sources, 3)).toBe(2);
    expect(firstItemFrom(sources, 1)).toBe(0);
    expect(firstItemFrom(sources, 9)).toBeUndefined();
  });

  it("says what kind of token count it shows", () => {
    expect(formatItemTokens(1234.4, "exact")).toBe("1,234 tok");
    expect(formatItemTokens(1234, "calibrated")).toBe("≈1,234 tok");
    expect(formatItemTokens(12, "estimated")).toBe("~12 tok");
    expect(tokenLegend("estimated")).toBe("~ estimated token counts");
    expect(tokenLegend("exact")).toBe("exact token counts (provider-reported)");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(-1000)).toBe("-1,000");
  });

  it("names the download after the model and writes the body as pretty JSON", () => {
    expect(payloadFileName("anthropic/claude-sonnet-4-5")).toBe("anthropic-claude-sonnet-4-5-payload.json");
    expect(payloadFileName("amazon-bedrock/anthropic.claude:0")).toBe("amazon-bedrock-anthropic.claude-0-payload.json");
    expect(payloadFileName("../..")).toBe("model-payload.json");
    const body = { model: "m", messages: [{ role: "user", content: "hi" }] };
    expect(payloadJson(body)).toBe(JSON.stringify(body, null, 2));
  });
});
