import { describe, expect, it } from "vitest";
import {
  MANY_ITEMS,
  NO_FOLDS,
  NO_STRINGS,
  childPointer,
  isOpenByDefault,
  withFold,
  withMember,
  type FoldOverrides,
} from "../../src/ui/payload/folding.ts";
import {
  buildRows,
  itemRow,
  nodeRowIndex,
  rowKey,
  type JsonRow,
  type PayloadRows,
  type NodeRow,
} from "../../src/ui/payload/json-rows.ts";
import { TEXT_HEAD_CHARS, textStandIn } from "../../src/core/text-stand-in.ts";
import { nearestNode, payloadKeyAction } from "../../src/ui/payload/keyboard.ts";
import { nodeText } from "../../src/ui/payload/row-text.ts";
import { LONG_STRING_CHARS, PREVIEW_CHARS } from "../../src/ui/payload/strings.ts";
import { MARGIN_ROWS, ROW_HEIGHT, rowWindow, scrollToRow } from "../../src/ui/payload/viewport.ts";

const msg = (role: string, content: unknown) => ({ role, content });
const body = (count: number, extra: Record<string, unknown> = {}) => ({
  model: "claude-sonnet-4-5",
  messages: Array.from({ length: count }, (_, i) =>
    msg(i % 2 ? "assistant" : "user", [{ type: "text", text: `m${i}` }]),
  ),
  ...extra,
});
const rowsOf = (value: Record<string, unknown>, folds: FoldOverrides = NO_FOLDS, full = NO_STRINGS) =>
  buildRows(value, { listKey: "messages", folds, fullStrings: full });

/** The pretty text the rows stand for, one line per row (folded containers as their summaries). */
function render(rows: Iterable<JsonRow>): string[] {
  return [...rows].map((row) => {
    const pad = "  ".repeat(row.depth);
    if (row.kind === "close") return `${pad}${row.text}${row.comma ? "," : ""}`;
    if (row.kind === "part") return `${pad}${row.text}${row.last ? `"${row.comma ? "," : ""}` : ""}`;
    if (row.depth === 0) return "{";
    const text = nodeText(row);
    const comma = row.comma && row.container === undefined && !row.full ? "," : "";
    const summary = text.summary === undefined ? "" : `${text.summary}${text.value === "" ? "" : " "}`;
    return `${pad}${text.key === undefined ? "" : `${text.key}: `}${summary}${text.value}${comma}`;
  });
}

const node = (rows: PayloadRows, id: string): NodeRow => rows.at(nodeRowIndex(rows, id)) as NodeRow;

describe("folding", () => {
  it("opens the body, its top-level values and the elements of short arrays; folds those of long ones", () => {
    expect(isOpenByDefault({ depth: 0 })).toBe(true);
    expect(isOpenByDefault({ depth: 1 })).toBe(true);
    expect(isOpenByDefault({ depth: 2, arrayLength: MANY_ITEMS })).toBe(true);
    expect(isOpenByDefault({ depth: 2, arrayLength: MANY_ITEMS + 1 })).toBe(false);
    expect(isOpenByDefault({ depth: 5, arrayLength: 2000 })).toBe(false);
    expect(isOpenByDefault({ depth: 5 })).toBe(true);
  });

  it("keeps overrides in new maps and sets, never changing the old ones", () => {
    const once = withFold(NO_FOLDS, "/messages/3", true);
    expect(NO_FOLDS.size).toBe(0);
    expect(once.get("/messages/3")).toBe(true);
    expect(withFold(once, "/messages/3", true)).toBe(once);
    expect(withFold(once, "/messages/3", false).get("/messages/3")).toBe(false);
    const strings = withMember(NO_STRINGS, "/a", true);
    expect([...strings]).toEqual(["/a"]);
    expect(NO_STRINGS.size).toBe(0);
    expect(withMember(strings, "/a", true)).toBe(strings);
    expect(withMember(strings, "/a", false).size).toBe(0);
  });

  it("addresses nodes by JSON pointer, escaping ~ and /", () => {
    expect(childPointer("", "messages")).toBe("/messages");
    expect(childPointer("/messages", 3)).toBe("/messages/3");
    expect(childPointer("", "a/b~c")).toBe("/a~1b~0c");
  });
});

describe("buildRows", () => {
  it("is pretty JSON line by line when everything is open", () => {
    const rows = rowsOf({ model: "m", messages: [msg("user", "hi")], n: 1, ok: true, none: null, skip: undefined });
    expect(render(rows)).toEqual([
      "{",
      '  "model": "m",',
      '  "messages": [',
      '    [0] user · "hi" {',
      '      "role": "user",',
      '      "content": "hi"',
      "    }",
      "  ],",
      '  "n": 1,',
      '  "ok": true,',
      '  "none": null',
      "}",
    ]);
  });

  it("folds the items of a long main list to one summary row each", () => {
    const rows = rowsOf(body(MANY_ITEMS + 2));
    expect(rows).toHaveLength(MANY_ITEMS + 2 + 5);
    expect(render(rows).slice(3, 5)).toEqual(['    [0] user · "m0" · 1 block', '    [1] assistant · "m1" · 1 block']);
    const item = node(rows, "/messages/1");
    expect(item).toMatchObject({ item: 1, depth: 2, open: false, container: "object", size: 2, position: 2 });
    expect(item.siblings).toBe(MANY_ITEMS + 2);
    expect(itemRow(rows, 1)).toBe(nodeRowIndex(rows, "/messages/1"));
  });

  it("unfolds what the overrides say, and everything inside an item knows the item", () => {
    const rows = rowsOf(body(20), withFold(NO_FOLDS, "/messages/7", true));
    const start = itemRow(rows, 7);
    expect(render(rows.slice(start, start + 9))).toEqual([
      '    [7] assistant · "m7" · 1 block {',
      '      "role": "assistant",',
      '      "content": [',
      "        {",
      '          "type": "text",',
      '          "text": "m7"',
      "        }",
      "      ]",
      "    },",
    ]);
    expect(rows.slice(start, start + 9).every((row) => row.item === 7)).toBe(true);
    expect(node(rows, "/messages/7/content/0/text")).toMatchObject({
      parent: nodeRowIndex(rows, "/messages/7/content/0"),
    });
    // An item open by default (a short list) folds by its override too; the others stay open.
    const oneFolded = rowsOf(body(3), withFold(NO_FOLDS, "/messages/1", false));
    expect([0, 1, 2].map((i) => node(oneFolded, `/messages/${i}`).open)).toEqual([true, false, true]);
    const folded = rowsOf(body(3), withFold(NO_FOLDS, "/messages", false));
    expect(render(folded)).toEqual(["{", '  "model": "claude-sonnet-4-5",', '  "messages": […] 3 items', "}"]);
  });

  it("shows a long string shortened, or in full as part rows", () => {
    const long = `${"x".repeat(LONG_STRING_CHARS)}\nend`;
    const value = { messages: [msg("user", long)], after: 1 };
    const short = rowsOf(value);
    expect(node(short, "/messages/0/content")).toMatchObject({ long: true, full: false });
    expect([...short].some((row) => row.kind === "part")).toBe(false);
    const full = rowsOf(value, NO_FOLDS, withMember(NO_STRINGS, "/messages/0/content", true));
    const parts = [...full].filter((row) => row.kind === "part");
    expect(parts.length).toBeGreaterThan(1);
    expect(render(full).find((line) => line.includes('end"'))).toBe('      end"');
    const text = [...full].filter((row) => row.kind === "part" || ("id" in row && row.id === "/messages/0/content"));
    expect(text.length).toBe(parts.length + 1);
  });

  it("shows a string the worker stood in for as it shows the string itself, in full once it is read", () => {
    const whole = `${"Compiling crate…\n".repeat(300)}done`;
    const standIn = textStandIn(whole);
    const real = { messages: [msg("user", [{ type: "text", text: whole }])] };
    const page = { messages: [msg("user", [{ type: "text", text: standIn }])] };
    const id = "/messages/0/content/0/text";
    const shown = withMember(NO_STRINGS, id, true);
    // The head is a long string itself, and holds all that is shown of one shortened.
    expect(TEXT_HEAD_CHARS).toBeGreaterThan(Math.max(LONG_STRING_CHARS, PREVIEW_CHARS));
    // Shortened: the same rows, the same text, and the same summary of the item.
    expect(render(rowsOf(page))).toEqual(render(rowsOf(real)));
    expect(node(rowsOf(page), id)).toMatchObject({ long: true, full: false });
    const folded = withFold(NO_FOLDS, "/messages/0", false);
    expect(render(rowsOf(page, folded))).toEqual(render(rowsOf(real, folded)));
    // Asked for in full before the worker has sent it: still shortened.
    expect(render(rowsOf(page, NO_FOLDS, shown))).toEqual(render(rowsOf(real)));
    // Once read: exactly the whole string's part rows.
    const read = buildRows(page, {
      listKey: "messages",
      folds: NO_FOLDS,
      fullStrings: shown,
      textOf: (s) => (s === standIn ? whole : undefined),
    });
    expect(render(read)).toEqual(render(rowsOf(real, NO_FOLDS, shown)));
    expect([...read].filter((row) => row.kind === "part")).toHaveLength(300); // 301 lines: the first is on the node row
  });

  it("shows image data as its type and size, and typed arrays as one value", () => {
    const data = "A".repeat(LONG_STRING_CHARS * 10);
    const rows = rowsOf({
      messages: [msg("user", [{ type: "image", source: { type: "base64", media_type: "image/png", data } }])],
      bedrock: { format: "jpeg", source: { bytes: new Uint8Array(3000) } },
    });
    const image = node(rows, "/messages/0/content/0/source/data");
    expect(image.long).toBe(false);
    expect(nodeText(image)).toMatchObject({ key: '"data"', value: "<image/png, 1.8 KB>", tone: "binary" });
    const bytes = node(rows, "/bedrock/source/bytes");
    expect(bytes.container).toBeUndefined();
    expect(nodeText(bytes).value).toBe("<image/jpeg, 2.9 KB>");
  });

  it("gives every row a distinct key, even for keys that look like pointers", () => {
    const rows = rowsOf({ a: { b: [1] }, "a/b": "x", "a~1b": { c: "y" } });
    const keys = [...rows].map(rowKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("builds one row per item for a 2,000-message body, whatever its size", () => {
    const big = body(2000, { tools: [] });
    const rows = rowsOf(big);
    expect(rows).toHaveLength(2000 + 7);
    expect(itemRow(rows, 1999)).toBe(2002);
  });
});

describe("payloadKeyAction", () => {
  const rows = rowsOf(body(12));
  const at = (id: string) => nodeRowIndex(rows, id);

  it("moves up and down through nodes, skipping the body and closing brackets", () => {
    expect(payloadKeyAction(rows, at("/model"), "ArrowUp", 10)).toBeUndefined();
    expect(payloadKeyAction(rows, at("/model"), "ArrowDown", 10)).toEqual({ type: "focus", row: at("/messages") });
    expect(payloadKeyAction(rows, at("/messages/11"), "ArrowDown", 10)).toBeUndefined();
    expect(payloadKeyAction(rows, at("/messages/11"), "Home", 10)).toEqual({ type: "focus", row: at("/model") });
    expect(payloadKeyAction(rows, at("/model"), "End", 10)).toEqual({ type: "focus", row: at("/messages/11") });
    expect(payloadKeyAction(rows, at("/model"), "PageDown", 5)).toEqual({ type: "focus", row: at("/messages/3") });
    expect(payloadKeyAction(rows, at("/messages/3"), "PageUp", 5)).toEqual({ type: "focus", row: at("/model") });
    expect(nearestNode(rows, 0, 1)).toBe(at("/model"));
  });

  it("unfolds with Right, then enters; folds with Left, then goes to the parent", () => {
    expect(payloadKeyAction(rows, at("/messages/2"), "ArrowRight", 10)).toEqual({
      type: "fold",
      row: at("/messages/2"),
      open: true,
    });
    expect(payloadKeyAction(rows, at("/messages"), "ArrowRight", 10)).toEqual({
      type: "focus",
      row: at("/messages/0"),
    });
    expect(payloadKeyAction(rows, at("/messages"), "ArrowLeft", 10)).toEqual({
      type: "fold",
      row: at("/messages"),
      open: false,
    });
    expect(payloadKeyAction(rows, at("/messages/2"), "ArrowLeft", 10)).toEqual({ type: "focus", row: at("/messages") });
    expect(payloadKeyAction(rows, at("/model"), "ArrowLeft", 10)).toBeUndefined();
    expect(payloadKeyAction(rows, at("/model"), "ArrowRight", 10)).toBeUndefined();
  });

  it("toggles with Enter and Space: containers fold, long strings show in full", () => {
    expect(payloadKeyAction(rows, at("/messages/4"), "Enter", 10)).toEqual({
      type: "fold",
      row: at("/messages/4"),
      open: true,
    });
    expect(payloadKeyAction(rows, at("/messages"), " ", 10)).toEqual({
      type: "fold",
      row: at("/messages"),
      open: false,
    });
    expect(payloadKeyAction(rows, at("/model"), "Enter", 10)).toBeUndefined();
    const long = rowsOf({ text: "y".repeat(LONG_STRING_CHARS + 1) });
    expect(payloadKeyAction(long, 1, "Enter", 10)).toEqual({ type: "string", row: 1, full: true });
    expect(payloadKeyAction(rows, at("/model"), "x", 10)).toBeUndefined();
  });

  it("focuses the first node when the focused row is gone", () => {
    expect(payloadKeyAction(rows, 999, "ArrowDown", 10)).toEqual({ type: "focus", row: at("/model") });
  });
});

describe("viewport", () => {
  it("renders the rows on screen plus a margin, within the rows there are", () => {
    expect(rowWindow(0, 10 * ROW_HEIGHT, 2000)).toEqual({ start: 0, end: 10 + MARGIN_ROWS });
    expect(rowWindow(100 * ROW_HEIGHT, 10 * ROW_HEIGHT, 2000, 5)).toEqual({ start: 95, end: 115 });
    expect(rowWindow(1990 * ROW_HEIGHT, 100 * ROW_HEIGHT, 2000, 5)).toEqual({ start: 1985, end: 2000 });
    expect(rowWindow(0, 0, 0)).toEqual({ start: 0, end: 0 });
  });

  it("scrolls as little as needed to show a row, or puts it near the top", () => {
    const height = 10 * ROW_HEIGHT;
    expect(scrollToRow(5, 0, height)).toBe(0);
    expect(scrollToRow(20, 0, height)).toBe(11 * ROW_HEIGHT);
    expect(scrollToRow(2, 5 * ROW_HEIGHT, height)).toBe(2 * ROW_HEIGHT);
    expect(scrollToRow(50, 0, height, true)).toBe(49 * ROW_HEIGHT);
    expect(scrollToRow(0, 100, height, true)).toBe(0);
  });
});
