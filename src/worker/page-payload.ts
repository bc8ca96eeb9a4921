/**
 * The payload as the page gets it: every image replaced by a stand-in with its type and size (see
 * core/binary-stand-in.ts), every long string of the main list's items by its head and length
 * (core/text-stand-in.ts; the page asks for one in full with the item's JSON), everything else as it is. Items are
 * kept per item object, as the builders keep the items themselves, so an unchanged item is not walked again for the
 * next view.
 */
import { binaryStandIn } from "../core/binary-stand-in.ts";
import { TEXT_STAND_IN_CHARS, textStandIn } from "../core/text-stand-in.ts";
import type { PayloadResult } from "../core/llm/types.ts";
import { dataUrlIn, freshDataUrls } from "../core/providers/common.ts";
import { base64Bytes } from "../core/snapshot/base64.ts";
import { imageOf } from "../core/snapshot/images.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null;

const pageItems = new WeakMap<object, unknown>();

/**
 * `value` with its images stood in for, and with `texts` its long strings; the very same value when it holds none.
 */
function standIn(value: unknown, key: string | number, holder: unknown, outer: unknown, texts: boolean): unknown {
  if (typeof value === "string") {
    const image = value.length > 256 ? imageOf(value, key, holder, outer) : undefined;
    if (image) return binaryStandIn(image[0], image[1]);
    return texts && value.length > TEXT_STAND_IN_CHARS ? textStandIn(value) : value;
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
      const replaced = standIn(element, i, value, holder, texts);
      if (replaced !== element) (out ??= value.slice())[i] = replaced;
    }
    return out ?? value;
  }
  let out: Json | undefined;
  for (const k of Object.keys(value)) {
    const field = value[k];
    const replaced = standIn(field, k, value, holder, texts);
    if (replaced !== field) (out ??= { ...value })[k] = replaced;
  }
  return out ?? value;
}

function pageItem(item: unknown, list: readonly unknown[], body: unknown): unknown {
  if (!isObject(item)) return item;
  let made = pageItems.get(item);
  if (made === undefined) {
    made = standIn(item, 0, list, body, true);
    pageItems.set(item, made);
  }
  return made;
}

/**
 * The request body as the page holds it: its main list's provenance travels packed beside it (the view's
 * `itemSources`), not as the payload's `origins`, a small array per item. Of a long main list only the first items
 * come (`body[listKey]` holds them; `listLength` says how many there are): the page reads the others as they are
 * scrolled to ("payloadItems"), so it never deserialises, or holds, tens of thousands of items nobody looks at.
 */
/** A request body and the key of its main list: a projection's payload, or a snapshot's. */
export type BodyAndList = Pick<PayloadResult, "body" | "listKey">;

export interface PagePayload extends BodyAndList {
  /** How many items the main list has; `body[listKey]` holds the first of them (all, for a short list). */
  readonly listLength: number;
}

/**
 * The payload with stand-ins for its images: what the worker posts to the page. The main list's items come as far
 * as `budget` characters of text (see `textWeight`): a list under it comes whole.
 */
export function payloadForPage(payload: BodyAndList, budget = FIRST_ITEMS_CHARS): PagePayload {
  const { body, listKey } = payload;
  const out: Json = {};
  let listLength = 0;
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (key === listKey && Array.isArray(value)) {
      listLength = value.length;
      out[key] = leadingItems(value, body, budget);
    } else out[key] = standIn(value, key, body, undefined, false);
  }
  return { body: out, listKey, listLength };
}

/** The main list's items `[start, end)` as the page holds them (images and long strings stood in for). */
export function pageItemsOf(payload: BodyAndList, start: number, end: number): unknown[] {
  const list = payload.body[payload.listKey];
  if (!Array.isArray(list)) throw new Error("The payload has no main list.");
  if (!(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end && end <= list.length))
    throw new Error(`The payload has no items ${start}–${end} (it has ${list.length}).`);
  const items: unknown[] = [];
  for (let i = start; i < end; i += 1) items.push(pageItem(list[i], list, payload.body));
  return items;
}

/**
 * The request body as pretty JSON, exactly `JSON.stringify(body, null, 2)`, or one item of its main list. Data
 * URLs are written from fresh strings (`freshDataUrls`), so writing one leaves no copy of its image behind.
 */
export function payloadJson(payload: BodyAndList, item: number | undefined): string {
  const list = payload.body[payload.listKey];
  if (item !== undefined && !(Array.isArray(list) && item >= 0 && item < list.length))
    throw new Error(`The payload has no item ${item}.`);
  const value: unknown = item === undefined ? payload.body : (list as unknown[])[item];
  return JSON.stringify(value, freshDataUrls, 2);
}

/**
 * How much text of the main list's items a projection answer carries, in characters. The page reads a message in
 * one task: Chromium read the 41,336 items of a whole 100 MB session's path (48 million characters of JSON) in about
 * 190 ms, so this is a few ms, and a list of a few hundred ordinary messages comes whole.
 */
export const FIRST_ITEMS_CHARS = 1_000_000;

/** Characters of text in `value` (strings and keys), plus a little for every other value: what cloning it reads. */
function textWeight(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (typeof value !== "object" || value === null) return 8;
  let weight = 16;
  if (ArrayBuffer.isView(value)) return weight + value.byteLength;
  if (Array.isArray(value)) for (const element of value) weight += textWeight(element);
  else for (const key in value) weight += key.length + textWeight((value as Json)[key]);
  return weight;
}

/** The text weight of each page item, kept with it: the next view of an unchanged list is not walked again. */
const itemWeights = new WeakMap<object, number>();

function itemWeight(item: unknown): number {
  if (!isObject(item)) return textWeight(item);
  let weight = itemWeights.get(item);
  if (weight === undefined) itemWeights.set(item, (weight = textWeight(item)));
  return weight;
}

/** The page's items from the start of `list` up to the one whose text passes `budget` (at least one item). */
function leadingItems(list: readonly unknown[], body: unknown, budget: number): unknown[] {
  const items: unknown[] = [];
  let weight = 0;
  for (const item of list) {
    if (weight >= budget) break;
    const made = pageItem(item, list, body);
    weight += itemWeight(made);
    items.push(made);
  }
  return items;
}
