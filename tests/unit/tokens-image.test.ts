/** Image sizes from file headers, and what an image costs per provider. */
import { describe, expect, it } from "vitest";
import { imageSize, imageTokens, UNKNOWN_IMAGE_TOKENS } from "../../src/core/tokens/image.ts";

const base64 = (bytes: number[]) => Buffer.from(bytes).toString("base64");
const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
const le24 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

function png(width: number, height: number): string {
  return base64([
    0x89,
    ...ascii("PNG\r\n\x1a\n"),
    ...be32(13),
    ...ascii("IHDR"),
    ...be32(width),
    ...be32(height),
    8,
    6,
    0,
    0,
    0,
  ]);
}

function jpeg(width: number, height: number): string {
  const app1 = [0xff, 0xe1, 0x00, 0x10, ...ascii("Exif\0\0"), ...new Array(8).fill(0)]; // a segment to skip
  const sof2 = [
    0xff,
    0xc2,
    0x00,
    0x11,
    8,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
    ...new Array(9).fill(0),
  ];
  return base64([0xff, 0xd8, ...app1, 0xff, 0xff /* fill byte */, ...sof2.slice(1), 0xff, 0xd9]);
}

const gif = (width: number, height: number) => base64([...ascii("GIF89a"), ...le16(width), ...le16(height), 0, 0, 0]);

function webp(chunk: "VP8 " | "VP8L" | "VP8X", width: number, height: number): string {
  const head = [...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WEBP"), ...ascii(chunk), 0, 0, 0, 0];
  if (chunk === "VP8 ") return base64([...head, 0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(width), ...le16(height), 0, 0]);
  if (chunk === "VP8L") {
    const bits = (width - 1) | ((height - 1) << 14);
    return base64([
      ...head,
      0x2f,
      bits & 255,
      (bits >>> 8) & 255,
      (bits >>> 16) & 255,
      (bits >>> 24) & 255,
      0,
      0,
      0,
      0,
      0,
    ]);
  }
  return base64([...head, 0, 0, 0, 0, ...le24(width - 1), ...le24(height - 1), 0, 0]);
}

describe("imageSize", () => {
  it("reads PNG, JPEG (past other segments and fill bytes), GIF and the three WebP kinds", () => {
    expect(imageSize(png(1280, 720))).toEqual({ width: 1280, height: 720 });
    expect(imageSize(jpeg(4032, 3024))).toEqual({ width: 4032, height: 3024 });
    expect(imageSize(gif(320, 200))).toEqual({ width: 320, height: 200 });
    expect(imageSize(webp("VP8 ", 800, 600))).toEqual({ width: 800, height: 600 });
    expect(imageSize(webp("VP8L", 1024, 768))).toEqual({ width: 1024, height: 768 });
    expect(imageSize(webp("VP8X", 3000, 2000))).toEqual({ width: 3000, height: 2000 });
  });

  it("accepts data: URLs, as OpenAI payloads carry them", () => {
    expect(imageSize(`data:image/png;base64,${png(64, 32)}`)).toEqual({ width: 64, height: 32 });
  });

  it("gives up on what it cannot read instead of guessing", () => {
    expect(imageSize("iVBORw0KGgo=")).toBeUndefined(); // a PNG signature with no header after it
    expect(imageSize("not base64 at all!")).toBeUndefined();
    expect(imageSize(base64(ascii("plain text, no image")))).toBeUndefined();
    expect(imageSize(png(0, 10))).toBeUndefined();
  });
});

describe("imageTokens", () => {
  it("prices Anthropic images at about width × height / 750, scaled down past 1568 px or 1.15 MP", () => {
    expect(imageTokens({ width: 750, height: 100 }, "anthropic")).toBe(100);
    expect(imageTokens({ width: 1000, height: 1000 }, "anthropic")).toBe(1334);
    const big = imageTokens({ width: 4032, height: 3024 }, "anthropic");
    expect(big).toBeGreaterThan(1400);
    expect(big).toBeLessThanOrEqual(1534); // 1.15 MP / 750
  });

  it("prices OpenAI images by 512-pixel tiles and Google's by 768-pixel tiles", () => {
    expect(imageTokens({ width: 512, height: 512 }, "openai")).toBe(85 + 170);
    expect(imageTokens({ width: 2048, height: 4096 }, "openai")).toBe(85 + 170 * 6); // 768 × 1536 → 2 × 3 tiles
    expect(imageTokens({ width: 300, height: 300 }, "google")).toBe(258);
    expect(imageTokens({ width: 1000, height: 800 }, "google")).toBe(258 * 4);
  });

  it("falls back to pi's own flat guess for an unknown size", () => {
    expect(imageTokens(undefined, "anthropic")).toBe(UNKNOWN_IMAGE_TOKENS);
  });
});
