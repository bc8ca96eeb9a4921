/**
 * Stage 2: check every entry against pi 0.73.1's schema. Nothing is removed: entries that do not fit are kept
 * (pi keeps them too) and reported; unknown types, roles and fields are reported once each, with a count.
 */
import type { Diagnostic } from "./diagnostics.ts";
import { checkEntry, isKnownEntryType, isKnownRole, unknownFields } from "./schema.ts";
import type { SessionEntry } from "./types.ts";

/** More than this many invalid entries are summarised in one diagnostic instead of one each. */
const MAX_INVALID_REPORTS = 200;

interface Tally {
  count: number;
  firstLine: number;
}

function tally(map: Map<string, Tally>, key: string, line: number): void {
  const seen = map.get(key);
  if (seen) seen.count += 1;
  else map.set(key, { count: 1, firstLine: line });
}

const times = (n: number) => (n === 1 ? "once" : `${n} times`);

/** A type or role from the file, for a message: `String` of a scalar, the kind of an object or array. */
const nameOf = (value: unknown): string =>
  typeof value !== "object" || value === null ? String(value) : Array.isArray(value) ? "(an array)" : "(an object)";

export function validateEntries(entries: readonly SessionEntry[], diagnostics: Diagnostic[]): void {
  const unknownTypes = new Map<string, Tally>();
  const unknownRoles = new Map<string, Tally>();
  const extraFields = new Map<string, Tally>();
  let invalid = 0;
  for (const entry of entries) {
    if (entry.id === undefined) {
      diagnostics.push({
        severity: "warning",
        code: "missing-id",
        line: entry.line,
        message: `Line ${entry.line} (${entry.type}) has no id; address it as line:${entry.line}.`,
      });
    }
    if (!isKnownEntryType(entry.raw["type"])) {
      tally(unknownTypes, nameOf(entry.raw["type"] ?? "(none)"), entry.line);
      continue;
    }
    const type = entry.raw["type"];
    for (const field of unknownFields(`entry:${type}`, entry.raw))
      tally(extraFields, `${type} entry: ${field}`, entry.line);
    const message = entry.raw["message"];
    if (type === "message" && typeof message === "object" && message !== null) {
      const role = (message as Record<string, unknown>)["role"];
      if (!isKnownRole(role)) tally(unknownRoles, nameOf(role), entry.line);
      else
        for (const field of unknownFields(`role:${role}`, message as Record<string, unknown>))
          tally(extraFields, `${role} message: ${field}`, entry.line);
    }
    const issues = checkEntry(type, entry.raw);
    if (issues.length === 0) continue;
    invalid += 1;
    if (invalid > MAX_INVALID_REPORTS) continue;
    const detail = issues.map((i) => `${i.path || "(entry)"}: ${i.message}`).join("; ");
    diagnostics.push({
      severity: "warning",
      code: "invalid-entry",
      line: entry.line,
      ...(entry.id !== undefined ? { entryId: entry.id } : {}),
      message: `Line ${entry.line} (${type}${entry.id ? ` ${entry.id}` : ""}) does not match pi's schema: ${detail}. It was kept as is.`,
    });
  }
  if (invalid > MAX_INVALID_REPORTS) {
    diagnostics.push({
      severity: "warning",
      code: "invalid-entry",
      message: `${invalid - MAX_INVALID_REPORTS} more entries do not match pi's schema (not listed one by one).`,
    });
  }
  for (const [type, t] of unknownTypes) {
    diagnostics.push({
      severity: "info",
      code: "unknown-entry-type",
      line: t.firstLine,
      message: `Entry type "${type}" is not one pi 0.73.1 writes (${times(t.count)}, first on line ${t.firstLine}); kept, and it does not reach the model.`,
    });
  }
  for (const [role, t] of unknownRoles) {
    diagnostics.push({
      severity: "info",
      code: "unknown-role",
      line: t.firstLine,
      message: `Message role "${role}" is not one pi 0.73.1 knows (${times(t.count)}, first on line ${t.firstLine}); kept, and convertToLlm leaves it out.`,
    });
  }
  for (const [field, t] of extraFields) {
    diagnostics.push({
      severity: "info",
      code: "unknown-field",
      line: t.firstLine,
      message: `Unknown field ${field} (${times(t.count)}, first on line ${t.firstLine}); kept.`,
    });
  }
}
