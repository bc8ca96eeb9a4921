/**
 * The "Raw JSON" view of an entry: pretty JSON with long base64 payloads elided, so a screenshot-heavy
 * entry stays readable. The copy button copies the entry as it is, without elision.
 */
import { MAX_NESTING, tooDeepAt } from "../../core/nesting.ts";
import { SHOWN_CHARS } from "./clip.ts";

/** Pure base64 strings at least this long are elided wherever they appear (images kept in `details`, …). */
export const LONG_BASE64_CHARS = 4096;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const DATA_URL = /^(data:[^,;]+;base64,)([A-Za-z0-9+/]+={0,2})$/;

/** What replaces elided base64: its length in characters (the bytes of base64 text, not of the decoded image). */
export const describeElided = (base64: string): string => `<${base64.length} bytes of base64>`;

function isImageBlock(value: Record<string, unknown>): boolean {
  return value["type"] === "image" && typeof value["data"] === "string";
}

function elideString(text: string): string {
  const dataUrl = DATA_URL.exec(text);
  if (dataUrl && dataUrl[2]!.length >= 256) return `${dataUrl[1]}${describeElided(dataUrl[2]!)}`;
  if (text.length >= LONG_BASE64_CHARS && BASE64.test(text)) return describeElided(text);
  // Any other very long string is cut for display, so one huge tool output cannot freeze the page.
  return text.length > SHOWN_CHARS
    ? `${text.slice(0, SHOWN_CHARS)}… <${(text.length - SHOWN_CHARS).toLocaleString("en")} more characters>`
    : text;
}

/**
 * A copy of `value` in which the `data` of every image block (`{type: "image", data}`), the payload of every
 * long base64 `data:` URL, and every other pure base64 string of `LONG_BASE64_CHARS` or more is replaced by
 * `"<N bytes of base64>"`. Everything else is kept as it is.
 */
export function elideBase64(value: unknown): unknown {
  if (typeof value === "string") return elideString(value);
  if (Array.isArray(value)) return value.map(elideBase64);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  const imageBlock = isImageBlock(record);
  return Object.fromEntries(
    Object.entries(record).map(([key, field]) => [
      key,
      imageBlock && key === "data" ? describeElided(field as string) : elideBase64(field),
    ]),
  );
}

/** What is shown instead of a value nested too deep to write (the loader warned about its line). */
export function tooDeepNote(at: string): string {
  return `(not shown: nests arrays or objects more than ${MAX_NESTING.toLocaleString("en")} levels deep, at ${at})`;
}

/** Pretty JSON (two-space indent) of an entry for display, base64 elided. */
export function formatRawJson(raw: unknown): string {
  const at = tooDeepAt(raw);
  return at === undefined ? JSON.stringify(elideBase64(raw), null, 2) : tooDeepNote(at);
}

/** Pretty JSON of an entry for the clipboard: complete, nothing elided. */
export function formatFullJson(raw: unknown): string {
  const at = tooDeepAt(raw);
  return at === undefined ? JSON.stringify(raw, null, 2) : tooDeepNote(at);
}
