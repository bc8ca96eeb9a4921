/**
 * Hostile inputs: strings with line breaks, BOMs, NULs and lone surrogates; JSON values with keys such as
 * `__proto__` and `toString`, numbers JSON cannot hold, nesting 12,000 deep, wrong types everywhere; and whole
 * session texts made of such lines, with or without a header, with any line endings.
 */
import fc from "fast-check";
import { objectOf, RawJson, toJsonText } from "./json.ts";

/** Keys that trip code treating parsed JSON as a plain record. */
export const HOSTILE_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "toJSON",
  "then",
  "length",
] as const;

/** Every field name pi's session format uses, so random replacements land where the code looks. */
export const SESSION_KEYS = [
  ...["type", "id", "parentId", "timestamp", "message", "role", "content", "text", "thinking", "data", "mimeType"],
  ...["name", "arguments", "toolCallId", "toolName", "isError", "api", "provider", "model", "usage", "input"],
  ...["output", "cacheRead", "cacheWrite", "totalTokens", "stopReason", "errorMessage", "command", "exitCode"],
  ...["cancelled", "truncated", "excludeFromContext", "customType", "display", "summary", "fromId", "label"],
  ...["firstKeptEntryId", "tokensBefore", "targetId", "thinkingLevel", "modelId", "details", "version", "cwd"],
  ...["thinkingSignature", "textSignature", "thoughtSignature", "redacted", "fullOutputPath", "responseId"],
] as const;

export const ENTRY_TYPES = [
  ...["message", "thinking_level_change", "model_change", "compaction", "branch_summary", "custom"],
  ...["custom_message", "label", "session_info", "session"],
] as const;
export const ROLES = [
  ...["user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary", "compactionSummary"],
  "hookMessage",
] as const;

const SPECIAL_TEXT = [
  ...["\n", "\r", "\r\n", "\uFEFF", "\0", "\ud800", "\udbff", "\udc00", "\udfff", "\u2028", "\u2029", "\u00a0"],
  ...["\t", '"', "\\", "{", "}", "[", "]", ",", ":", "🧪", "\uFFFD", "null", "1e400", "__proto__"],
];

/** Text with everything a line reader can trip over, lone surrogates included. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...SPECIAL_TEXT), fc.string({ maxLength: 3 })), { maxLength: 8 })
      .map((parts) => parts.join("")),
  },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_KEYS, ...ENTRY_TYPES, ...ROLES, "", " ", "a", "b", "c") },
);

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
  { weight: 3, arbitrary: fc.constantFrom(...SESSION_KEYS) },
  { weight: 1, arbitrary: hostileString },
);

/** Numbers at the edges; the raw literals overflow to ±Infinity or are too precise for a double. */
export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 0.5, 1e21, 1e308, -1e308, 5e-324, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER),
  fc
    .constantFrom("1e400", "-1e400", "1e-400", "-0", "123456789012345678901234567890", "1E+2")
    .map((t) => new RawJson(t)),
);

/** Arrays or objects nested this deep: fine for JSON.parse, fatal for any recursive walk over them. */
export const deepJson: fc.Arbitrary<RawJson> = fc
  .tuple(fc.constantFrom(40, 2_000, 12_000), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? new RawJson("[".repeat(depth) + "]".repeat(depth))
      : new RawJson('{"a":'.repeat(depth) + "1" + "}".repeat(depth)),
  );

/** Any JSON value, small, with hostile keys, strings and numbers; rarely nested thousands deep. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown; array: unknown[]; object: unknown }>(
  (tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      { weight: 30, arbitrary: fc.oneof(fc.constant(null), fc.boolean(), hostileNumber, hostileString) },
      { weight: 10, arbitrary: tie("array") },
      { weight: 10, arbitrary: tie("object") },
      { weight: 1, arbitrary: deepJson },
    ),
    array: fc.array(tie("value"), { maxLength: 4 }),
    object: fc.array(fc.tuple(hostileKey, tie("value")), { maxLength: 4 }).map(objectOf),
  }),
).value;

const idPool = fc.constantFrom("a", "b", "c", "d", "e");

/** Something shaped like an entry: a known type or not, ids from a small pool (duplicates, cycles), odd fields. */
export const hostileEntry: fc.Arbitrary<unknown> = fc
  .record(
    {
      type: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ENTRY_TYPES) }, hostileValue),
      id: fc.oneof({ weight: 4, arbitrary: idPool }, hostileValue),
      parentId: fc.oneof({ weight: 4, arbitrary: fc.oneof(idPool, fc.constant(null)) }, hostileValue),
      timestamp: fc.oneof(fc.constant("2026-01-01T00:00:00Z"), hostileValue),
      message: fc.oneof(
        fc
          .tuple(fc.oneof(fc.constantFrom(...ROLES), hostileValue), fc.array(fc.tuple(hostileKey, hostileValue)))
          .map(([role, rest]) => objectOf([["role", role], ...rest])),
        hostileValue,
      ),
      extra: fc.array(fc.tuple(hostileKey, hostileValue), { maxLength: 3 }),
    },
    { requiredKeys: [] },
  )
  .map(({ extra, ...fields }) => objectOf([...Object.entries(fields), ...(extra ?? [])]));

/** A first line that is a pi header, or nearly one (migrated versions, a newer one, a wrong id). */
export const headerLine: fc.Arbitrary<string> = fc
  .record(
    {
      version: fc.oneof(fc.constantFrom(1, 2, 3, 4, 0.5, -1), hostileValue),
      id: fc.oneof({ weight: 5, arbitrary: fc.constant("fuzz-session") }, hostileValue),
      timestamp: fc.constant("2026-01-01T00:00:00Z"),
      cwd: fc.oneof(fc.constant("/work"), hostileValue),
      extra: fc.array(fc.tuple(hostileKey, hostileValue), { maxLength: 2 }),
    },
    { requiredKeys: ["id"] },
  )
  .map(({ extra, ...fields }) =>
    toJsonText(objectOf([["type", "session"], ...Object.entries(fields), ...(extra ?? [])])),
  );

/** One line of a hostile file. */
export const hostileLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileEntry.map(toJsonText) },
  { weight: 2, arbitrary: hostileValue.map(toJsonText) },
  { weight: 2, arbitrary: hostileString },
  { weight: 1, arbitrary: headerLine },
  {
    weight: 1,
    arbitrary: fc
      .tuple(hostileEntry, hostileEntry, fc.constantFrom("", " ", "\t"))
      .map(([a, b, gap]) => toJsonText(a) + gap + toJsonText(b)),
  },
  { weight: 1, arbitrary: fc.tuple(hostileEntry, fc.nat()).map(([e, n]) => cut(toJsonText(e), n)) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\t", "\u00a0", "\uFEFF", "\r", "\u2028", "\v") },
);

/** `text` cut somewhere before its end. */
export const cut = (text: string, at: number): string => text.slice(0, text.length === 0 ? 0 : at % text.length);

const separator = fc.constantFrom("\n", "\n", "\n", "\r\n", "\r", "\n\n");

/** Lines joined by any line endings, maybe after a BOM, maybe with a final newline. */
export function joinLines(lines: readonly string[], seps: readonly string[], bom: boolean, final: string): string {
  const body = lines.map((l, i) => (i === 0 ? l : (seps[i % Math.max(1, seps.length)] ?? "\n") + l)).join("");
  return (bom ? "\uFEFF" : "") + body + final;
}

/** A whole hostile file: usually a header first, then hostile lines. */
export const hostileSessionText: fc.Arbitrary<string> = fc
  .record({
    header: fc.oneof({ weight: 4, arbitrary: headerLine.map((h) => [h]) }, fc.constant([] as string[])),
    lines: fc.array(hostileLine, { maxLength: 12 }),
    seps: fc.array(separator, { minLength: 1, maxLength: 4 }),
    bom: fc.boolean(),
    final: fc.constantFrom("\n", "", "\r\n", "\n\n"),
  })
  .map(({ header, lines, seps, bom, final }) => joinLines([...header, ...lines], seps, bom, final));
