/**
 * Image and other binary data inside a provider request body, recognised where it sits so the payload view can
 * show `<image/png, 43 KB>` instead of dumping megabytes of base64. Every provider shape pi builds is covered:
 * Anthropic `{type: "base64", media_type, data}`, Google `inlineData: {mimeType, data}`, pi's own
 * `{type: "image", mimeType, data}`, OpenAI and Mistral `data:` URLs, and Bedrock's raw `bytes` next to `format` —
 * and the stand-ins the session worker puts in their place (core/binary-stand-in.ts).
 */
import { isBinaryStandIn } from "../../core/binary-stand-in.ts";
import { formatBytes } from "../shell/format.ts";

const MIME_KEYS = ["media_type", "mimeType", "mime_type"] as const;

/** A `data:` URL's header, looked for only in its first characters (the URL may be megabytes long). */
const DATA_URL_HEAD = /^data:([^;,]+)(?:;[^;,]*)*;base64,/;
const DATA_URL_HEAD_CHARS = 256;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Decoded size in bytes of base64 text of this length (padding and line breaks are not counted exactly). */
export function base64Bytes(base64: string): number {
  let padding = 0;
  if (base64.endsWith("==")) padding = 2;
  else if (base64.endsWith("=")) padding = 1;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** `<image/png, 43 KB>`: what stands for binary data of this type and decoded size. */
export function describeBinaryData(mimeType: string, bytes: number): string {
  return `<${mimeType}, ${formatBytes(bytes)}>`;
}

function mimeTypeOf(holder: unknown): string | undefined {
  if (!isRecord(holder)) return undefined;
  for (const key of MIME_KEYS) {
    const value = holder[key];
    if (typeof value === "string" && value.includes("/")) return value;
  }
  return undefined;
}

/**
 * What to show instead of `value`, or undefined when it is not binary data. `key` is its property name in
 * `holder`, and `outer` is the object holding `holder` (Bedrock keeps the image format one level up).
 */
export function describeBinary(value: unknown, key: string | number | undefined, holder: unknown, outer: unknown) {
  if (isBinaryStandIn(value)) return describeBinaryData(value.mimeType, value.bytes);
  if (typeof value === "string") {
    if (value.startsWith("data:")) {
      const head = DATA_URL_HEAD.exec(value.slice(0, DATA_URL_HEAD_CHARS));
      if (head) return describeBinaryData(head[1]!, base64Bytes(value.slice(head[0].length)));
    }
    const mimeType = key === "data" ? mimeTypeOf(holder) : undefined;
    return mimeType === undefined ? undefined : describeBinaryData(mimeType, base64Bytes(value));
  }
  if (ArrayBuffer.isView(value)) {
    const format = isRecord(outer) && typeof outer["format"] === "string" ? outer["format"] : undefined;
    return describeBinaryData(format === undefined ? "binary" : `image/${format}`, value.byteLength);
  }
  return undefined;
}
