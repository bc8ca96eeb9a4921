/**
 * Structurally valid sessions (tests/support/arbitrary-session.ts) damaged on purpose: a property deep inside an
 * entry deleted, retyped or replaced, a hostile key added, ids duplicated, parents pointing forward, at themselves
 * or nowhere, the header's version changed (so the file is migrated), lines cut, joined, doubled or lost.
 */
import fc from "fast-check";
import { sessionText } from "../support/arbitrary-session.ts";
import { cut, hostileKey, hostileString, hostileValue, joinLines } from "./inputs.ts";
import { copyOf, objectOf, RawJson, toJsonText } from "./json.ts";

type Json = Record<string, unknown>;
/** A JSON object (raw JSON text is a leaf: its text is not a field). */
const isRecord = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof RawJson);

/** One change to one value somewhere inside one entry. */
export type ValueMutation =
  | { readonly kind: "delete" }
  | { readonly kind: "retype" }
  | { readonly kind: "replace"; readonly value: unknown }
  | { readonly kind: "add-key"; readonly key: string; readonly value: unknown };

export const valueMutation: fc.Arbitrary<ValueMutation> = fc.oneof(
  fc.constant({ kind: "delete" as const }),
  fc.constant({ kind: "retype" as const }),
  hostileValue.map((value) => ({ kind: "replace" as const, value })),
  fc.tuple(hostileKey, hostileValue).map(([key, value]) => ({ kind: "add-key" as const, key, value })),
);

/** A value of another JSON type, derived from the old one so that shrinking keeps it readable. */
function retyped(value: unknown): unknown {
  if (typeof value === "string") return value.length;
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : 0;
  if (value === null || value === undefined) return value === null ? {} : null;
  if (Array.isArray(value)) return objectOf(value.map((v, i) => [String(i), v]));
  return Object.values(value as Json);
}

/** Every place inside `root` as [container, key]; the root itself is not one (it is the line). */
function places(root: unknown): [Json | unknown[], string | number][] {
  const out: [Json | unknown[], string | number][] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    const keys: (string | number)[] = Array.isArray(node)
      ? node.map((_, i) => i)
      : isRecord(node)
        ? Object.keys(node)
        : [];
    for (const key of keys) {
      out.push([node as Json | unknown[], key]);
      stack.push((node as Record<string | number, unknown>)[key]);
    }
  }
  return out;
}

function setOwn(container: Json | unknown[], key: string | number, value: unknown): void {
  if (Array.isArray(container)) container[key as number] = value;
  else Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Applies `m` at the `pick`-th place of `entry` (in place; `entry` is a fresh parse). */
export function mutateValue(entry: Json, pick: number, m: ValueMutation): void {
  const all = places(entry);
  const [container, key] = all[pick % Math.max(1, all.length)] ?? [entry, "type"];
  const old = (container as Json)[key as string];
  switch (m.kind) {
    case "delete":
      if (Array.isArray(container)) container.splice(key as number, 1);
      else delete container[key as string];
      return;
    case "retype":
      return setOwn(container, key, retyped(old));
    case "replace":
      return setOwn(container, key, copyOf(m.value));
    case "add-key":
      if (isRecord(old)) setOwn(old, m.key, copyOf(m.value));
      else if (Array.isArray(old)) old.push(copyOf(m.value));
      else setOwn(container, key, objectOf([[m.key, copyOf(m.value)]]));
  }
}

/** A change to the shape of the tree: ids and parents. */
export type TreeMutation = {
  readonly kind: "parent" | "same-id" | "self-parent" | "no-parent" | "empty-parent" | "no-id" | "odd-parent";
  readonly entry: number;
  readonly other: number;
};

export const treeMutation: fc.Arbitrary<TreeMutation> = fc.record({
  kind: fc.constantFrom(
    "parent",
    "parent",
    "same-id",
    "self-parent",
    "no-parent",
    "empty-parent",
    "no-id",
    "odd-parent",
  ),
  entry: fc.nat(),
  other: fc.nat(),
});

function mutateTree(entries: Json[], m: TreeMutation): void {
  const e = entries[m.entry % entries.length];
  const o = entries[m.other % entries.length];
  if (!e || !o) return;
  if (m.kind === "parent") e["parentId"] = o["id"];
  else if (m.kind === "same-id") e["id"] = o["id"];
  else if (m.kind === "self-parent") e["parentId"] = e["id"];
  else if (m.kind === "no-parent") e["parentId"] = "no-such-entry";
  else if (m.kind === "empty-parent") e["parentId"] = "";
  else if (m.kind === "no-id") delete e["id"];
  else e["parentId"] = [o["id"]];
}

/** A change to the lines themselves. */
export type LineMutation = {
  readonly kind: "drop" | "double" | "swap" | "cut" | "join" | "insert" | "blank";
  readonly line: number;
  readonly other: number;
  readonly text: string;
};

export const lineMutation: fc.Arbitrary<LineMutation> = fc.record({
  kind: fc.constantFrom("drop", "double", "swap", "cut", "join", "insert", "blank"),
  line: fc.nat(),
  other: fc.nat(),
  text: hostileString,
});

function mutateLines(lines: string[], m: LineMutation): void {
  if (lines.length === 0) return;
  const i = m.line % lines.length;
  const j = m.other % lines.length;
  const line = lines[i] as string;
  if (m.kind === "drop") lines.splice(i, 1);
  else if (m.kind === "double") lines.splice(i, 0, line);
  else if (m.kind === "swap") [lines[i], lines[j]] = [lines[j] as string, line];
  else if (m.kind === "cut") lines[i] = cut(line, m.other);
  else if (m.kind === "join" && i + 1 < lines.length) lines.splice(i, 2, line + (lines[i + 1] as string));
  else if (m.kind === "insert") lines.splice(i, 0, m.text);
  else if (m.kind === "blank") lines[i] = m.text.replace(/\S/g, " ");
}

export interface SessionDamage {
  readonly values: readonly { readonly entry: number; readonly place: number; readonly m: ValueMutation }[];
  readonly tree: readonly TreeMutation[];
  readonly lines: readonly LineMutation[];
  /** The header's version: undefined keeps 3; 1 and 2 make the loader migrate; the rest pi never writes. */
  readonly version: unknown;
  readonly crlf: boolean;
  readonly bom: boolean;
}

/** Applies the damage to a valid session text. Entry 0 is the header. */
export function damageSession(text: string, damage: SessionDamage): string {
  const [header, ...entries] = text
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Json);
  if (damage.version !== undefined) header!["version"] = damage.version;
  for (const m of damage.tree) mutateTree(entries, m);
  for (const { entry, place, m } of damage.values) {
    const target = entries[entry % entries.length];
    if (target) mutateValue(target, place, m);
  }
  const lines = [header, ...entries].map(toJsonText);
  for (const m of damage.lines) mutateLines(lines, m);
  return joinLines(lines, [damage.crlf ? "\r\n" : "\n"], damage.bom, damage.crlf ? "\r\n" : "\n");
}

/** How hard to damage: `none` keeps the session valid, `light` is what most properties want. */
export function sessionDamage(level: { values: number; tree: number; lines: number }): fc.Arbitrary<SessionDamage> {
  return fc.record({
    values: fc.array(fc.record({ entry: fc.nat(), place: fc.nat(), m: valueMutation }), { maxLength: level.values }),
    tree: fc.array(treeMutation, { maxLength: level.tree }),
    lines: fc.array(lineMutation, { maxLength: level.lines }),
    version: fc.oneof(
      { weight: 12, arbitrary: fc.constant(undefined) },
      { weight: 3, arbitrary: fc.constantFrom(1, 2, 4) },
      fc.constantFrom(0.5, -3, 2.5, 3.5, "3", null, new RawJson("1e400")),
    ),
    crlf: fc.boolean(),
    bom: fc.boolean(),
  });
}

/** A generated valid session with some damage done to it. */
export function damagedSession(level: { values: number; tree: number; lines: number }): fc.Arbitrary<string> {
  return fc.tuple(sessionText, sessionDamage(level)).map(([text, damage]) => damageSession(text, damage));
}
