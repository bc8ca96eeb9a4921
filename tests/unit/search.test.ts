/** Search as a person types: a query typed on reads only the last hits, and finds what a whole search finds. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { narrows, queryTokens, searchEntries, TREE_FILTERS, TypedSearch } from "../../src/core/session/filter.ts";
import type { EntryTree } from "../../src/core/session/tree.ts";
import { assistant, header, label, session, text, toolCall, toolResult, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";

const WORDS = ["ab", "abc", "b", "ca", "Abc", "x", "bab", "c a", " "]; // an assistant turn of " " shows only as the leaf

/** A chain of user, assistant and tool entries with texts made of a few overlapping words, and some labels. */
function treeOf(texts: readonly string[]): EntryTree {
  const lines: Parameters<typeof session> = [header()];
  let parent: string | null = null;
  texts.forEach((t, i) => {
    const id = `e${i}`;
    switch (i % 4) {
      case 0:
        lines.push(user(id, parent, t));
        break;
      case 1:
        lines.push(assistant(id, parent, [text(t), toolCall(`c${i}`)]));
        break;
      case 2:
        lines.push(toolResult(id, parent, `c${i - 1}`, t));
        break;
      default:
        lines.push(label(id, parent, `e${i - 3}`, t));
    }
    parent = id;
  });
  return ourSession(session(...lines));
}

describe("narrows", () => {
  it("says a query finds a subset of another's hits when each of the other's tokens is part of one of its own", () => {
    expect(narrows(queryTokens("ab"), queryTokens("abc"))).toBe(true);
    expect(narrows(queryTokens("ab"), queryTokens("x ab"))).toBe(true);
    expect(narrows(queryTokens("b a"), queryTokens("ab"))).toBe(true); // both tokens are in "ab"
    expect(narrows(queryTokens(""), queryTokens("ab"))).toBe(true);
    expect(narrows(queryTokens("abc"), queryTokens("ab"))).toBe(false);
    expect(narrows(queryTokens("ab x"), queryTokens("abc"))).toBe(false);
    expect(narrows(queryTokens("AB"), queryTokens("xaby"))).toBe(true); // lowercased
  });
});

describe("TypedSearch", () => {
  it("finds what a whole search finds, whatever the queries before it", () => {
    const query = fc
      .array(fc.constantFrom(...WORDS, " ", "a", "b", "c"), { maxLength: 4 })
      .map((parts) => parts.join(""));
    const filter = fc.oneof(
      { weight: 3, arbitrary: fc.constant("default" as const) },
      { weight: 2, arbitrary: fc.constantFrom(...TREE_FILTERS) },
    );
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 24 }),
        fc.array(fc.tuple(query, filter, fc.option(fc.nat(23), { nil: undefined, freq: 2 })), {
          minLength: 1,
          maxLength: 12,
        }),
        (texts, queries) => {
          const tree = treeOf(texts);
          const typed = new TypedSearch();
          for (const [q, filter, leaf] of queries)
            expect([...typed.search(tree, q, filter, leaf)]).toEqual([...searchEntries(tree, q, filter, leaf)]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("types a query on by reading only the previous hits", () => {
    const tree = treeOf(["qq one", "qq two", "zz three", "x"]);
    const typed = new TypedSearch();
    expect([...typed.search(tree, "qq", "all", undefined)]).toEqual([0, 1]);
    // An entry that did not hold "qq" is changed to hold "qqz": only a search that reads it again finds it.
    (tree.entries[2]!.raw["message"] as { content: unknown[] }).content = [text("qqz three")];
    expect([...typed.search(tree, "qqz", "all", undefined)]).toEqual([]);
    expect([...searchEntries(tree, "qqz", "all", undefined)]).toEqual([2]);
    // Another filter, leaf or session is a search of its own.
    expect([...typed.search(tree, "qqz", "default", undefined)]).toEqual([2]);
    expect([...typed.search(tree, "qqz", "all", 3)]).toEqual([2]);
    expect([...typed.search(treeOf(["qqz"]), "qqz", "all", undefined)]).toEqual([0]);
  });

  it("answers a query it answered a moment ago without reading anything, after a few characters are deleted", () => {
    const tree = treeOf(["qqz", "qq"]);
    const typed = new TypedSearch();
    for (const q of ["q", "qq", "qqz"]) typed.search(tree, q, "all", undefined);
    (tree.entries[1]!.raw["message"] as { content: unknown[] }).content = [text("no longer")];
    expect([...typed.search(tree, "qq", "all", undefined)]).toEqual([0, 1]); // kept, not read again
    expect([...typed.search(tree, " qq ", "all", undefined)]).toEqual([0, 1]); // the same tokens
    expect([...typed.search(tree, "qq", "all", 1)]).toEqual([0]); // another leaf: read again
  });
});
