/**
 * The payload as the page gets it: every image replaced by a stand-in with its type and size (see
 * core/binary-stand-in.ts), everything else as it is. Items are kept per item object, as the builders keep the
 * items themselves, so an unchanged item is not walked again for the next view.
 */
import { binaryStandIn } from "../core/binary-stand-in.ts";
import type { PayloadResult } from "../core/llm/types.ts";
import { dataUrlIn, freshDataUrls } from "../core/providers/common.ts";
import { base64Bytes } from "../core/snapshot/base64.ts";
import { imageOf } from "../core/snapshot/images.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null;

const pageItems = new WeakMap<object, unknown>();

/** `value` with its images stood in for; the very same value when it holds none. */
function standIn(value: unknown, key: string | number, holder: unknown, outer: unknown): unknown {
  if (typeof value === "string") {
    const image = value.length > 256 ? imageOf(value, key, holder, outer) : undefined;
    return image ? binaryStandIn(image[0], image[1]) : value;
  }
  if (!isObject(value)) return value;
  if (ArrayBuffer.isView(value)) {
    const format = isObject(outer) && typeof outer["format"] === "string" ? `image/${outer["format"]}` : "binary";
    return binaryStandIn(format, value.byteLength);
  }
  const behind = dataUrlIn(value);
  if (behind) {
    // The URL itself is never read (that would copy the image into it): its image says what it is.
    const { image } = behind;
    return { ...value, [behind.key]: binaryStandIn(image.mimeType, base64Bytes(image.data)) };
  }
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i += 1) {
      const element: unknown = value[i];
      const replaced = standIn(element, i, value, holder);
      if (replaced !== element) (out ??= value.slice())[i] = replaced;
    }
    return out ?? value;
  }
  let out: Json | undefined;
  for (const k of Object.keys(value)) {
    const field = value[k];
    const replaced = standIn(field, k, value, holder);
    if (replaced !== field) (out ??= { ...value })[k] = replaced;
  }
  return out ?? value;
}

function pageItem(item: unknown, list: readonly unknown[], body: unknown): unknown {
  if (!isObject(item)) return item;
  let made = pageItems.get(item);
  if (made === undefined) {
    made = standIn(item, 0, list, body);
    pageItems.set(item, made);
  }
  return made;
}

/** The payload with stand-ins for its images: what the worker posts to the page. */
export function payloadForPage(payload: PayloadResult): PayloadResult {
  const { body, listKey } = payload;
  const out: Json = {};
  for (const key of Object.keys(body)) {
    const value = body[key];
    out[key] =
      key === listKey && Array.isArray(value)
        ? value.map((item) => pageItem(item, value, body))
        : standIn(value, key, body, undefined);
  }
  return { ...payload, body: out };
}

/**
 * The request body as pretty JSON, exactly `JSON.stringify(body, null, 2)`, or one item of its main list. Data
 * URLs are written from fresh strings (`freshDataUrls`), so writing one leaves no copy of its image behind.
 */
export function payloadJson(payload: PayloadResult, item: number | undefined): string {
  const list = payload.body[payload.listKey];
  if (item !== undefined && !(Array.isArray(list) && item >= 0 && item < list.length))
    throw new Error(`The payload has no item ${item}.`);
  const value: unknown = item === undefined ? payload.body : (list as unknown[])[item];
  return JSON.stringify(value, freshDataUrls, 2);
}
