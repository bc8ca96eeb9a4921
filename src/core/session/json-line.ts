/**
 * Stage 1b: one line → one JSON value, or the reason it is not one.
 * pi's reader runs `JSON.parse` on each line and silently skips failures; we name every failure.
 */

export type LineValue =
  | { readonly kind: "blank" }
  | { readonly kind: "value"; readonly value: unknown }
  | { readonly kind: "not-json"; readonly reason: string }
  | { readonly kind: "multiple-values"; readonly count: number }
  | { readonly kind: "incomplete"; readonly reason: string };

/** Parses one line the way pi does (whitespace-tolerant `JSON.parse`), classifying failures. */
export function parseJsonLine(text: string): LineValue {
  if (text.trim() === "") return { kind: "blank" };
  try {
    return { kind: "value", value: JSON.parse(text) };
  } catch (error) {
    return classifyFailure(text, error instanceof Error ? error.message : String(error));
  }
}

function classifyFailure(text: string, reason: string): LineValue {
  let position = 0;
  let count = 0;
  while (position < text.length) {
    position = skipWhitespace(text, position);
    if (position >= text.length) break;
    const end = findValueEnd(text, position);
    if (end === "incomplete") return count === 0 ? { kind: "incomplete", reason } : { kind: "not-json", reason };
    if (end === "invalid") return { kind: "not-json", reason };
    if (!isValidJson(text.slice(position, end))) return { kind: "not-json", reason };
    count += 1;
    position = end;
  }
  return count > 1 ? { kind: "multiple-values", count } : { kind: "not-json", reason };
}

function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function skipWhitespace(text: string, position: number): number {
  while (position < text.length && " \t\r\n".includes(text.charAt(position))) position += 1;
  return position;
}

/** End index of the object or array starting at `start`, by bracket depth outside strings. */
function findValueEnd(text: string, start: number): number | "incomplete" | "invalid" {
  const open = text.charAt(start);
  if (open !== "{" && open !== "[") return "invalid";
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth += 1;
    else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return "incomplete";
}
