/**
 * A long main list that the page does not hold: its rows made as they are asked for (the same rows as when the
 * list is held), and its items read from the worker a block at a time.
 */
import { describe, expect, it } from "vitest";
import { NO_FOLDS, NO_STRINGS, withFold, withMember, type FoldOverrides } from "../../src/ui/payload/folding.ts";
import {
  HeldItems,
  ITEM_BLOCK,
  MAX_BLOCKS,
  NOT_READ,
  RemoteItems,
  type PayloadItems,
} from "../../src/ui/payload/items.ts";
import { buildRows, type JsonRow, type PayloadRows } from "../../src/ui/payload/json-rows.ts";
import { payloadKeyAction } from "../../src/ui/payload/keyboard.ts";
import { nodeText } from "../../src/ui/payload/row-text.ts";
import { LONG_STRING_CHARS } from "../../src/ui/payload/strings.ts";

const messages = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    i % 7 === 3
      ? `${"long item ".repeat(LONG_STRING_CHARS / 5)}${i}`
      : {
          role: i % 2 ? "assistant" : "user",
          content: [
            { type: "text", text: `m${i}` },
            { type: "text", text: "x" },
          ],
        },
  );

/** What each row says, with its index, parent and pointer: two row lists are the same view when these are equal. */
function describe_(rows: PayloadRows): string[] {
  return [...rows].map((row: JsonRow, i) => {
    if (row.kind !== "node") return `${i} ${row.kind} ${row.id} ${row.kind === "part" ? row.part : row.text}`;
    const text = row.depth === 0 ? { key: "", summary: "", value: "{" } : nodeText(row);
    return `${i} ${row.id} p${row.parent} ${row.open} ${text.key ?? ""}${text.summary ?? ""}${text.value}`;
  });
}

/** Items from `list` as a source whose items are read only where `read` says. */
class PartlyRead implements PayloadItems {
  constructor(
    readonly list: readonly unknown[],
    readonly read: (index: number) => boolean,
  ) {}
  get length() {
    return this.list.length;
  }
  at(index: number) {
    return index >= 0 && index < this.list.length && this.read(index) ? this.list[index] : NOT_READ;
  }
  want() {}
  readonly problem = undefined;
}

describe("the rows of a main list the page does not hold", () => {
  const list = messages(500);
  const body = { model: "m", messages: list, tools: [{ name: "read", parameters: { type: "object" } }], n: 1 };
  const cases: [string, FoldOverrides, ReadonlySet<string>][] = [
    ["all folded", NO_FOLDS, NO_STRINGS],
    [
      "some unfolded, one folded back, a long item in full",
      [5, 6, 7, 250, 499].reduce(
        (f, i) => withFold(f, `/messages/${i}`, true),
        withFold(NO_FOLDS, "/messages/6", false),
      ),
      withMember(withMember(NO_STRINGS, "/messages/10", true), "/messages/7/content/0/text", true),
    ],
    ["the list folded", withFold(NO_FOLDS, "/messages", false), NO_STRINGS],
    [
      "the first and last unfolded",
      withFold(withFold(NO_FOLDS, "/messages/0", true), "/messages/499", true),
      NO_STRINGS,
    ],
  ];

  for (const [name, folds, fullStrings] of cases) {
    it(`are the rows of the list held, once read (${name})`, () => {
      const held = buildRows(body, { listKey: "messages", folds, fullStrings });
      const first = list.slice(0, 40);
      const remote = buildRows(
        { ...body, messages: first },
        { listKey: "messages", folds, fullStrings, items: new PartlyRead(list, () => true) },
      );
      expect(remote.length).toBe(held.length);
      expect(describe_(remote)).toEqual(describe_(held));
      // Every node row is found by its pointer, and every item's row by its number.
      for (let i = 0; i < remote.length; i++) {
        const row = remote.at(i)!;
        if (row.kind === "node") expect(remote.nodeIndex(row.id)).toBe(i);
        if (row.kind === "node" && row.depth === 2 && row.item !== undefined)
          expect(remote.itemIndex(row.item)).toBe(i);
      }
      expect(remote.at(-1)).toBeUndefined();
      expect(remote.at(remote.length)).toBeUndefined();
      expect(remote.itemIndex(500)).toBe(-1);
      expect(remote.nodeIndex("/messages/500")).toBe(-1);
      expect(remote.nodeIndex("/messages/01")).toBe(-1);
    });
  }

  it("shows an item not read yet as its number, with nothing to unfold, and the same rows once it is", () => {
    const folds = withFold(NO_FOLDS, "/messages/300", true);
    let read = false;
    const items = new PartlyRead(list, (i) => i < 100 || read);
    const options = { listKey: "messages", folds, fullStrings: NO_STRINGS, items };
    const before = buildRows({ ...body, messages: [] }, options);
    const at = before.itemIndex(200);
    expect(before.at(at)).toMatchObject({ kind: "node", value: NOT_READ, item: 200, container: undefined });
    expect(nodeText(before.at(at) as never)).toEqual({
      key: undefined,
      summary: "[200]",
      value: "reading…",
      tone: "summary",
    });
    // An unfolded item not read yet is one row until it is.
    const unfolded = before.itemIndex(300);
    expect(before.at(unfolded + 1)).toMatchObject({ item: 301, depth: 2 });
    expect(payloadKeyAction(before, unfolded, "ArrowRight", 10)).toBeUndefined();
    read = true;
    const after = buildRows({ ...body, messages: [] }, options);
    expect(describe_(after)).toEqual(describe_(buildRows(body, { ...options, items: new HeldItems(list) })));
  });

  it("makes no row for a folded item until it is asked for", () => {
    let reads = 0;
    const items = new PartlyRead(list, () => (reads++, true));
    const rows = buildRows(
      { ...body, messages: [] },
      { listKey: "messages", folds: NO_FOLDS, fullStrings: NO_STRINGS, items },
    );
    expect(reads).toBe(0);
    expect(rows.length).toBe(500 + 14);
    rows.at(rows.itemIndex(123));
    rows.at(rows.itemIndex(123));
    expect(reads).toBe(1);
  });
});

describe("RemoteItems", () => {
  function remote(length: number, first: number, fail?: (start: number) => boolean) {
    const asked: [number, number][] = [];
    const answers: (() => void)[] = [];
    let changes = 0;
    const items = new RemoteItems(
      length,
      Array.from({ length: first }, (_, i) => `item ${i}`),
      (start, end) => {
        asked.push([start, end]);
        return new Promise((resolve, reject) =>
          answers.push(() =>
            fail?.(start)
              ? reject(new Error("the worker has no such payload"))
              : resolve(Array.from({ length: end - start }, (_, i) => `item ${start + i}`)),
          ),
        );
      },
      { track: () => undefined, changed: () => void (changes += 1) },
    );
    const answerAll = async () => {
      for (const answer of answers.splice(0)) answer();
      await new Promise((resolve) => setTimeout(resolve, 0));
    };
    return { items, asked, answerAll, changes: () => changes };
  }

  it("holds the first items and reads the others a run of blocks at a time, each block once", async () => {
    const { items, asked, answerAll, changes } = remote(10 * ITEM_BLOCK + 5, 50);
    expect(items.at(49)).toBe("item 49");
    expect(items.at(50)).toBe(NOT_READ);
    items.want(0, 10); // all held
    expect(asked).toEqual([]);
    items.want(40, 2 * ITEM_BLOCK + 1);
    items.want(100, 200); // already asked for
    expect(asked).toEqual([[0, 3 * ITEM_BLOCK]]);
    await answerAll();
    expect(changes()).toBe(1);
    expect(items.at(2 * ITEM_BLOCK + 1)).toBe(`item ${2 * ITEM_BLOCK + 1}`);
    expect(items.at(3 * ITEM_BLOCK)).toBe(NOT_READ);
    items.want(0, items.length + 100);
    expect(asked.at(-1)).toEqual([3 * ITEM_BLOCK, items.length]);
    await answerAll();
    expect(items.at(items.length - 1)).toBe(`item ${items.length - 1}`);
    expect(items.at(items.length)).toBe(NOT_READ);
  });

  it("keeps at most MAX_BLOCKS blocks, forgetting the least recently used", async () => {
    const { items, asked, answerAll } = remote((MAX_BLOCKS + 3) * ITEM_BLOCK, 0);
    for (let block = 0; block < MAX_BLOCKS + 3; block++) {
      items.want(block * ITEM_BLOCK, block * ITEM_BLOCK + 1);
      await answerAll();
      expect(items.at(5)).toBe("item 5"); // block 0 is used all along (an unfolded item's, say): it stays
    }
    for (const block of [1, 2, 3]) expect(items.at(block * ITEM_BLOCK)).toBe(NOT_READ); // the 3 over the bound
    expect(items.at(4 * ITEM_BLOCK)).toBe(`item ${4 * ITEM_BLOCK}`);
    items.want(ITEM_BLOCK, ITEM_BLOCK + 1);
    expect(asked.at(-1)).toEqual([ITEM_BLOCK, 2 * ITEM_BLOCK]);
  });

  it("says which items could not be read, and does not ask for them again", async () => {
    const { items, asked, answerAll } = remote(4 * ITEM_BLOCK, 0, (start) => start === 0);
    items.want(0, 10);
    await answerAll();
    expect(items.problem).toBe(
      `Items 0–${ITEM_BLOCK - 1} of the payload could not be read: the worker has no such payload`,
    );
    expect(items.at(0)).toBe(NOT_READ);
    items.want(0, 2 * ITEM_BLOCK);
    expect(asked).toEqual([
      [0, ITEM_BLOCK],
      [ITEM_BLOCK, 2 * ITEM_BLOCK],
    ]);
  });
});
