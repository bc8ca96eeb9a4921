/**
 * A structural diff of two JSON values (two request bodies): the paths added, removed and changed. Array elements
 * are aligned by content first (so one message left out reads as one removal, not as every later message
 * changed); elements replaced in place are compared key by key.
 */
import { freshDataUrls, freshField } from "../providers/common.ts";
import { shortestEdit } from "./myers.ts";

export interface JsonChange {
  readonly kind: "added" | "removed" | "changed";
  /** `messages[3].content[0].text`: B's indices for added and changed values, A's for removed ones. */
  readonly path: string;
  /** A short JSON rendering of the value in A (removed, changed). */
  readonly before?: string;
  /** A short JSON rendering of the value in B (added, changed). */
  readonly after?: string;
}

export interface JsonDiff {
  readonly changes: readonly JsonChange[];
  /** More changes than `maxChanges` were found; the rest are left out. */
  readonly truncated: boolean;
}

export interface JsonDiffOptions {
  readonly maxChanges?: number;
  /** Characters of each rendered value. */
  readonly preview?: number;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isContainer = (value: unknown): boolean => typeof value === "object" && value !== null;

/** A JSON value shortened to `limit` characters, saying how long it was. */
export function previewJson(value: unknown, limit: number): string {
  const text = json(value) ?? "undefined";
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length.toLocaleString("en-US")} characters)`;
}

/**
 * A value's JSON, with the data URLs of payload images written from fresh strings: reading the builder's own URL
 * would make V8 keep a flat copy of the image with the payload item for as long as the session is open.
 */
const json = (value: unknown): string | undefined => JSON.stringify(value, freshDataUrls);

const keyPath = (path: string, key: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;

class Collector {
  readonly changes: JsonChange[] = [];
  readonly ids = new JsonIds();
  truncated = false;
  constructor(
    readonly max: number,
    readonly preview: number,
  ) {}

  get full(): boolean {
    return this.changes.length >= this.max;
  }

  add(kind: JsonChange["kind"], path: string, before?: unknown, after?: unknown): void {
    if (this.full) {
      this.truncated = true;
      return;
    }
    this.changes.push({
      kind,
      path: path || "(the whole value)",
      ...(kind !== "added" ? { before: previewJson(before, this.preview) } : {}),
      ...(kind !== "removed" ? { after: previewJson(after, this.preview) } : {}),
    });
  }
}

/** JSON writes nothing for these in an object, and null in an array. */
const hasJson = (value: unknown): boolean =>
  value !== undefined && typeof value !== "function" && typeof value !== "symbol";

/**
 * Ids that are equal exactly when two values' JSON is, made once per value bottom-up from its children's ids
 * (hash-consing): arrays are aligned by them, a subtree whose id is the same on both sides is skipped whole, and
 * values met again deeper down (a message's content, compared once its message was paired) already have theirs.
 * Stringifying every element again at every level it was compared at took twice as long on two 100 MB bodies.
 */
export class JsonIds {
  #next = 0;
  readonly #strings = new Map<string, number>();
  /** Numbers, booleans and null by their JSON; arrays and objects by their children's ids. */
  readonly #texts = new Map<string, number>();
  readonly #objects = new Map<object, number>();

  #intern<K>(map: Map<K, number>, key: K): number {
    let id = map.get(key);
    if (id === undefined) map.set(key, (id = this.#next++));
    return id;
  }

  /** The id of `value`'s JSON (of "" for a value that has none: undefined, a function). */
  of(value: unknown): number {
    if (typeof value === "string") return this.#intern(this.#strings, value);
    if (typeof value !== "object" || value === null) return this.#intern(this.#texts, JSON.stringify(value) ?? "");
    let id = this.#objects.get(value);
    if (id === undefined) {
      id = this.#intern(this.#texts, this.#shape(value));
      this.#objects.set(value, id);
    }
    return id;
  }

  #shape(value: object): string {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") return `=${json(value) ?? ""}`;
    if (Array.isArray(value)) return `[${value.map((item) => this.of(hasJson(item) ? item : null)).join(",")}]`;
    let shape = "{";
    for (const key of Object.keys(value)) {
      const field = freshField(value as Json, key);
      if (!hasJson(field)) continue;
      shape += `${JSON.stringify(key)}:${this.of(field)},`;
    }
    return shape;
  }
}

function diffValue(a: unknown, b: unknown, path: string, out: Collector): void {
  if (a === b || out.ids.of(a) === out.ids.of(b)) return;
  if (out.full) {
    out.truncated = true;
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) return diffArray(a, b, path, out);
  if (isObject(a) && isObject(b)) return diffObject(a, b, path, out);
  out.add("changed", path, a, b);
}

function diffObject(a: Json, b: Json, path: string, out: Collector): void {
  for (const key of Object.keys(a)) {
    if (a[key] === undefined) continue;
    if (!(key in b) || b[key] === undefined) out.add("removed", keyPath(path, key), freshField(a, key));
    else diffValue(freshField(a, key), freshField(b, key), keyPath(path, key), out);
  }
  for (const key of Object.keys(b)) {
    if (b[key] !== undefined && (!(key in a) || a[key] === undefined))
      out.add("added", keyPath(path, key), undefined, freshField(b, key));
  }
}

function diffArray(a: readonly unknown[], b: readonly unknown[], path: string, out: Collector): void {
  const ids = (values: readonly unknown[]) => Int32Array.from(values, (value) => out.ids.of(value));
  const edits = shortestEdit(ids(a), ids(b)) ?? [
    ...a.map((_, i) => ({ op: "removed" as const, a: i })),
    ...b.map((_, j) => ({ op: "added" as const, b: j })),
  ];
  // Between two kept elements, removals and additions are paired in order and compared inside when both are
  // objects or arrays (a message whose text changed); what is left over was removed or added whole.
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    const pairs = Math.min(removed.length, added.length);
    for (let k = 0; k < pairs; k += 1) {
      const i = removed[k] as number;
      const j = added[k] as number;
      if (isContainer(a[i]) && isContainer(b[j])) diffValue(a[i], b[j], `${path}[${j}]`, out);
      else out.add("changed", `${path}[${j}]`, a[i], b[j]);
    }
    for (const i of removed.slice(pairs)) out.add("removed", `${path}[${i}]`, a[i]);
    for (const j of added.slice(pairs)) out.add("added", `${path}[${j}]`, undefined, b[j]);
    removed = [];
    added = [];
  };
  for (const edit of edits) {
    if (edit.op === "removed") removed.push(edit.a);
    else if (edit.op === "added") added.push(edit.b);
    else flush();
  }
  flush();
}

/** Every path at which `b` differs from `a`, in document order (up to `maxChanges`). */
export function diffJson(a: unknown, b: unknown, options: JsonDiffOptions = {}): JsonDiff {
  const out = new Collector(options.maxChanges ?? 1_000, options.preview ?? 200);
  diffValue(a, b, "", out);
  return { changes: out.changes, truncated: out.truncated };
}
