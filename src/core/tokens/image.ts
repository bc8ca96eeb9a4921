/**
 * Image sizes read from the file header (PNG, JPEG, GIF, WebP) and what an image costs in prompt tokens.
 * Only the first bytes of the base64 data are decoded.
 */

export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

/** JPEG puts its size after EXIF and other segments; this many bytes find it in all but freak files. */
const HEADER_BYTES = 128 * 1024;

function decodePrefix(base64: string, bytes: number): Uint8Array | undefined {
  const clean = base64.startsWith("data:") ? base64.slice(base64.indexOf(",") + 1) : base64;
  const chars = Math.min(clean.length, Math.ceil(bytes / 3) * 4);
  let binary: string;
  try {
    binary = atob(clean.slice(0, chars - (chars % 4)));
  } catch {
    return undefined;
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) out[i] = binary.charCodeAt(i);
  return out;
}

const ascii = (b: Uint8Array, at: number, length: number): string =>
  String.fromCharCode(...b.subarray(at, at + length));
const be16 = (b: Uint8Array, at: number): number => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const le16 = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const le24 = (b: Uint8Array, at: number): number => le16(b, at) | ((b[at + 2] ?? 0) << 16);
const be32 = (b: Uint8Array, at: number): number => be16(b, at) * 65536 + be16(b, at + 2);

function pngSize(b: Uint8Array): ImageSize | undefined {
  if (b.length < 24 || b[0] !== 0x89 || ascii(b, 1, 3) !== "PNG" || ascii(b, 12, 4) !== "IHDR") return undefined;
  return { width: be32(b, 16), height: be32(b, 20) };
}

function gifSize(b: Uint8Array): ImageSize | undefined {
  if (b.length < 10 || !/^GIF8[79]a$/.test(ascii(b, 0, 6))) return undefined;
  return { width: le16(b, 6), height: le16(b, 8) };
}

function webpSize(b: Uint8Array): ImageSize | undefined {
  if (b.length < 30 || ascii(b, 0, 4) !== "RIFF" || ascii(b, 8, 4) !== "WEBP") return undefined;
  switch (ascii(b, 12, 4)) {
    case "VP8 ":
      return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
    case "VP8L": {
      const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case "VP8X":
      return { width: le24(b, 24) + 1, height: le24(b, 27) + 1 };
    default:
      return undefined;
  }
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic) carry the size. */
const isStartOfFrame = (marker: number): boolean =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(b: Uint8Array): ImageSize | undefined {
  if (b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1] as number;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // markers without a length
      continue;
    }
    if (isStartOfFrame(marker)) return { width: be16(b, at + 7), height: be16(b, at + 5) };
    at += 2 + be16(b, at + 2);
  }
  return undefined;
}

/** Width and height from the image header in base64 `data` (plain or a data: URL), if it can be read. */
export function imageSize(data: string): ImageSize | undefined {
  const bytes = decodePrefix(data, HEADER_BYTES);
  if (!bytes) return undefined;
  const size = pngSize(bytes) ?? jpegSize(bytes) ?? gifSize(bytes) ?? webpSize(bytes);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}

/** How providers price an image. */
export type ImagePricing = "anthropic" | "openai" | "google";

/** What pi itself assumes for an image whose size it does not know. */
export const UNKNOWN_IMAGE_TOKENS = 1200;

function scaleToFit(size: ImageSize, maxEdge: number, maxArea: number): ImageSize {
  const scale = Math.min(
    1,
    maxEdge / Math.max(size.width, size.height),
    Math.sqrt(maxArea / (size.width * size.height)),
  );
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

/** Prompt tokens of one image as the provider family prices it (UNKNOWN_IMAGE_TOKENS when the size is unknown). */
export function imageTokens(size: ImageSize | undefined, pricing: ImagePricing): number {
  if (!size) return UNKNOWN_IMAGE_TOKENS;
  switch (pricing) {
    case "anthropic": {
      // Anthropic scales images down to a 1568-pixel long edge and about 1.15 megapixels, then ≈ w × h / 750.
      const fit = scaleToFit(size, 1568, 1_150_000);
      return Math.ceil((fit.width * fit.height) / 750);
    }
    case "openai": {
      // High detail: fit in 2048 × 2048, shortest side to 768, then 170 per 512-pixel tile plus 85.
      const fit = scaleToFit(size, 2048, Number.POSITIVE_INFINITY);
      const short = Math.min(fit.width, fit.height);
      const scale = short > 768 ? 768 / short : 1;
      const tiles = Math.ceil((fit.width * scale) / 512) * Math.ceil((fit.height * scale) / 512);
      return 85 + 170 * tiles;
    }
    case "google":
      // 258 for a small image, else 258 per 768-pixel tile.
      if (size.width <= 384 && size.height <= 384) return 258;
      return 258 * Math.ceil(size.width / 768) * Math.ceil(size.height / 768);
  }
}
