import { describe, expect, it } from "vitest";
import { forkParents } from "../../src/ui/shell/fork-parents.ts";
import { formatDate } from "../../src/ui/shell/format.ts";
import type { SessionSummary } from "../../src/worker/protocol.ts";

describe("formatDate", () => {
  it("writes a date as toLocaleString does with a medium date and a short time", () => {
    for (const iso of ["2026-01-02T03:04:05.000Z", "1999-12-31T23:59:59Z", "2026-07-10T23:18:29.197Z"]) {
      expect(formatDate(iso)).toBe(
        new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }),
      );
    }
  });

  it("keeps text that is not a date, and writes nothing for none", () => {
    expect(formatDate("yesterday")).toBe("yesterday");
    expect(formatDate(undefined)).toBe("");
    expect(formatDate("")).toBe("");
  });
});

describe("forkParents", () => {
  const session = (key: string, sessionId: string, parentSession?: string) =>
    ({ key, sessionId, ...(parentSession ? { parentSession } : {}) }) as unknown as SessionSummary;

  it("finds the open session a fork's parent path names, once for every fork of it", () => {
    const root = session("a", "1111-aaaa");
    const fork = session("b", "2222-bbbb", "/home/me/.pi/sessions/2026-01-01T00-00-00_1111-aaaa.jsonl");
    const again = session("c", "3333-cccc", "/home/me/.pi/sessions/2026-01-01T00-00-00_1111-aaaa.jsonl");
    const orphan = session("d", "4444-dddd", "/elsewhere/9999-zzzz.jsonl");
    const parents = forkParents([root, fork, again, orphan]);
    expect(parents.get(fork.parentSession!)).toBe(root);
    expect(parents.get(orphan.parentSession!)).toBeUndefined();
    expect(parents.size).toBe(1);
  });
});
