/** Stages 1–3: every line not accepted gets a diagnostic with its line number; nothing is dropped silently. */
import { describe, expect, it } from "vitest";
import { loadSessionBytes, loadSessionText } from "../../src/core/session/load.ts";
import { HANGS_PI, NOT_SESSIONS, VARIANTS } from "../fixtures/variants.ts";

const codes = (text: string) => loadSessionText("f.jsonl", text).diagnostics.map((d) => [d.code, d.line]);

describe("loading variants", () => {
  it("reads a clean session without diagnostics", () => {
    const file = loadSessionText("f.jsonl", VARIANTS["linear"]!);
    expect(file.kind).toBe("pi-session");
    expect(file.entries.map((e) => e.id)).toEqual(["m1", "t1", "u1", "a1", "r1", "a2"]);
    expect(file.entries.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(file.diagnostics).toEqual([]);
  });

  it("reads CRLF, a BOM and blank lines like pi, noting the first two", () => {
    const plain = loadSessionText("f", VARIANTS["linear"]!).entries.map((e) => e.raw);
    expect(loadSessionText("f", VARIANTS["crlf"]!).entries.map((e) => e.raw)).toEqual(plain);
    expect(loadSessionText("f", VARIANTS["bom"]!).entries.map((e) => e.raw)).toEqual(plain);
    expect(loadSessionText("f", VARIANTS["blank-lines"]!).entries.map((e) => e.raw)).toEqual(plain);
    expect(codes(VARIANTS["crlf"]!)).toEqual([["crlf", undefined]]);
    expect(codes(VARIANTS["bom"]!)).toEqual([["bom", 1]]);
    expect(codes(VARIANTS["blank-lines"]!)).toEqual([]);
  });

  it("names a malformed line, two objects on one line, a truncated last line and non-object lines", () => {
    expect(codes(VARIANTS["malformed-line"]!)).toEqual([["not-json", 3]]);
    expect(codes(VARIANTS["two-objects-on-a-line"]!)).toEqual([["multiple-values", 5]]);
    expect(codes(VARIANTS["truncated-last-line"]!)).toEqual([["truncated-line", 8]]);
    expect(codes(VARIANTS["non-object-line"]!)).toEqual([
      ["not-object", 4],
      ["not-object", 5],
      ["not-object", 6],
    ]);
    const message = loadSessionText("f", VARIANTS["malformed-line"]!).diagnostics[0]!.message;
    expect(message).toMatch(/^Line 3 is not JSON.*The rest of the file was loaded\.$/);
  });

  it("reports unknown types, roles and fields once each, and keeps the entries", () => {
    const file = loadSessionText("f", VARIANTS["unknown-types-and-fields"]!);
    expect(file.entries.map((e) => e.type)).toEqual(["message", "future_entry", "message", "message"]);
    const messages = (code: string) =>
      file.diagnostics
        .filter((d) => d.code === code)
        .map((d) => d.message)
        .join(" ");
    expect(messages("unknown-entry-type")).toContain('"future_entry"');
    expect(messages("unknown-role")).toContain('"widget"');
    expect(messages("unknown-field")).toContain("mood");
  });

  it("loads a newer version with a warning", () => {
    const file = loadSessionText("f", VARIANTS["newer-version"]!);
    expect(file.entries).toHaveLength(2);
    expect(file.diagnostics.map((d) => [d.code, d.severity])).toEqual([["newer-version", "warning"]]);
  });

  it("reports entries without ids", () => {
    expect(codes(VARIANTS["missing-ids"]!)).toEqual([["missing-id", 3]]);
  });

  it("splits lines identically whatever the chunk size, including inside multi-byte characters", () => {
    const text = VARIANTS["bash-and-custom"]!.replace(/README/g, "RÉADMÉ 🧪 説明");
    const bytes = new TextEncoder().encode(text);
    const whole = loadSessionText("f", text);
    for (const size of [1, 2, 3, 7, 64, 1000]) {
      const chunked = loadSessionBytes("f", bytes, size);
      expect(chunked.entries.map((e) => e.raw)).toEqual(whole.entries.map((e) => e.raw));
      expect(chunked.diagnostics).toEqual(whole.diagnostics);
    }
  });

  it("does not flag U+FFFD written in the file as invalid UTF-8, but flags invalid bytes", () => {
    const text = VARIANTS["linear"]!.replace("demo project", "demo \uFFFD project");
    expect(loadSessionBytes("f", new TextEncoder().encode(text)).diagnostics).toEqual([]);
    const bytes = new TextEncoder().encode(VARIANTS["linear"]!);
    bytes[bytes.indexOf(0x44)] = 0xff; // an invalid byte inside the JSON text ("D" of "Demo")
    expect(loadSessionBytes("f", bytes).diagnostics.map((d) => d.code)).toContain("invalid-utf8");
  });
});

describe("files that are not pi sessions", () => {
  for (const [name, { text, kind }] of Object.entries(NOT_SESSIONS)) {
    it(`recognises ${name} as ${kind}`, () => {
      const file = typeof text === "string" ? loadSessionText(name, text) : loadSessionBytes(name, text);
      expect(file.kind).toBe(kind);
      expect(file.entries).toEqual([]);
      expect(file.diagnostics[0]?.severity).toBe("error");
      expect(file.diagnostics[0]?.message).toBe(file.kindDescription);
    });
  }

  it("keeps the looping variants loadable", () => {
    for (const text of Object.values(HANGS_PI)) expect(loadSessionText("f", text).kind).toBe("pi-session");
  });
});
