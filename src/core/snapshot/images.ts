/**
 * Images inside a provider request body, found in every shape pi builds — Anthropic `{type: "base64", media_type,
 * data}`, Google `inlineData: {mimeType, data}`, pi's own `{type: "image", mimeType, data}`, OpenAI and Mistral
 * `data:` URLs, Bedrock `{format, source: {bytes}}` — and replaced by a short note that keeps their type and size.
 */
import { base64Bytes } from "./base64.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const MIME_KEYS = ["media_type", "mimeType", "mime_type"] as const;
const DATA_URL_HEAD = /^data:([^;,]+)(?:;[^;,]*)*;base64,/;

export interface FoundImage {
  /** Path of the string that holds the image ("body.messages[0].content[1].source.data"). */
  readonly where: string;
  /** The same path as keys. */
  readonly keys: readonly (string | number)[];
  readonly mimeType: string;
  readonly bytes: number;
  /** The string as it was. */
  readonly original: string;
  /** The note that replaces it. */
  readonly stub: string;
}

const stubFor = (mimeType: string, bytes: number): string =>
  `[image left out of this snapshot: ${mimeType}, ${bytes.toLocaleString("en-US")} bytes]`;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const child = (path: string, key: string | number): string =>
  typeof key === "number"
    ? `${path}[${key}]`
    : IDENTIFIER.test(key)
      ? path === ""
        ? key
        : `${path}.${key}`
      : `${path}[${JSON.stringify(key)}]`;

/** The image a string is ([type, bytes]), given the object holding it (`holder`) and the one above (`outer`). */
export function imageOf(
  value: string,
  key: string | number,
  holder: unknown,
  outer: unknown,
): [string, number] | undefined {
  if (value.startsWith("data:")) {
    const head = DATA_URL_HEAD.exec(value.slice(0, 256));
    return head ? [head[1]!, base64Bytes(value.slice(head[0].length))] : undefined;
  }
  if (key === "data" && isObject(holder)) {
    const mime = MIME_KEYS.map((k) => holder[k]).find((m): m is string => typeof m === "string" && m.includes("/"));
    return mime ? [mime, base64Bytes(value)] : undefined;
  }
  if (key === "bytes" && isObject(outer) && typeof outer["format"] === "string")
    return [`image/${outer["format"]}`, base64Bytes(value)];
  return undefined;
}

interface Node {
  readonly value: unknown;
  readonly key: string | number;
  readonly parent: Node | undefined;
}

const keysOf = (node: Node): (string | number)[] => {
  const keys: (string | number)[] = [];
  for (let n: Node | undefined = node; n?.parent; n = n.parent) keys.push(n.key);
  return keys.reverse();
};

type Container = Record<string | number, unknown>;
const shallowCopy = (v: unknown): Container => (Array.isArray(v) ? v.slice() : { ...(v as Json) }) as Container;

/** A copy of `root` with the value at `keys` replaced, sharing every subtree off that path. */
export function replaceAt(root: unknown, keys: readonly (string | number)[], value: unknown): unknown {
  if (keys.length === 0) return value;
  const top = shallowCopy(root);
  let node = top;
  for (const key of keys.slice(0, -1)) {
    const next = shallowCopy(node[key]);
    node[key] = next;
    node = next;
  }
  node[keys.at(-1)!] = value;
  return top;
}

/**
 * A copy of `value` with every image replaced by its note, and the images found (paths relative to `prefix`).
 * Walks without recursion (any depth); `value` itself is never modified, unchanged subtrees are shared.
 */
export function stubImages<T>(value: T, prefix = ""): { value: T; images: FoundImage[] } {
  const images: FoundImage[] = [];
  const found: { keys: (string | number)[]; stub: string }[] = [];
  const stack: Node[] = [{ value, key: "", parent: undefined }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node.value === "string") {
      const image = imageOf(node.value, node.key, node.parent?.value, node.parent?.parent?.value);
      if (!image) continue;
      const keys = keysOf(node);
      const stub = stubFor(image[0], image[1]);
      found.push({ keys, stub });
      images.push({
        where: keys.reduce<string>(child, prefix),
        keys,
        mimeType: image[0],
        bytes: image[1],
        original: node.value,
        stub,
      });
    } else if (Array.isArray(node.value)) {
      for (let i = node.value.length - 1; i >= 0; i -= 1) stack.push({ value: node.value[i], key: i, parent: node });
    } else if (isObject(node.value)) {
      for (const k of Object.keys(node.value).reverse()) stack.push({ value: node.value[k], key: k, parent: node });
    }
  }
  let out: unknown = value;
  for (const { keys, stub } of found) out = replaceAt(out, keys, stub);
  return { value: out as T, images };
}
