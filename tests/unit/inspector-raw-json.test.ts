import { describe, expect, it } from "vitest";
import { LONG_BASE64_CHARS, elideBase64, formatFullJson, formatRawJson } from "../../src/ui/inspector/raw-json.ts";
import { image, text, toolResult } from "../support/build.ts";

describe("elideBase64", () => {
  it("replaces the data of image blocks by its size and keeps everything else", () => {
    const entry = toolResult("r1", "a1", "call-1", [text("a screenshot"), image("A".repeat(1234))]);
    const elided = elideBase64(entry) as { message: { content: unknown[] } };
    expect(elided.message.content).toEqual([
      { type: "text", text: "a screenshot" },
      { type: "image", data: "<1234 bytes of base64>", mimeType: "image/png" },
    ]);
    expect({ ...(elided as object), message: undefined }).toEqual({ ...entry, message: undefined });
  });

  it("elides long base64 data: URLs and long pure base64 strings anywhere, but not ordinary text", () => {
    const url = `data:image/png;base64,${"Q".repeat(300)}`;
    const long = "Ab+/".repeat(LONG_BASE64_CHARS / 4);
    expect(elideBase64({ details: { url, blob: [long] } })).toEqual({
      details: { url: "data:image/png;base64,<300 bytes of base64>", blob: [`<${LONG_BASE64_CHARS} bytes of base64>`] },
    });
    const prose = "word ".repeat(LONG_BASE64_CHARS);
    expect(elideBase64({ prose, short: "QUJD", n: 1, b: false, z: null })).toEqual({
      prose,
      short: "QUJD",
      n: 1,
      b: false,
      z: null,
    });
  });

  it("does not change its input", () => {
    const entry = { type: "image", data: "AAAA", mimeType: "image/png" };
    elideBase64(entry);
    expect(entry.data).toBe("AAAA");
  });
});

describe("formatRawJson", () => {
  it("pretty-prints with two spaces and elided images; the full JSON keeps them", () => {
    const entry = { type: "image", data: "AAAA", mimeType: "image/png" };
    expect(formatRawJson(entry)).toBe(
      '{\n  "type": "image",\n  "data": "<4 bytes of base64>",\n  "mimeType": "image/png"\n}',
    );
    expect(JSON.parse(formatFullJson(entry))).toEqual(entry);
  });
});
