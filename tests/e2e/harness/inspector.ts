/**
 * Test page for tests/e2e/inspector.spec.ts: mounts the Inspector alone with one fixture entry, chosen by
 * `?entry=N`. Navigation from the inspector (tool call ⇄ result) remounts it with that entry and is recorded in
 * `window.__navigations`.
 */
import { mount, unmount } from "svelte";
import Inspector from "../../../src/ui/inspector/Inspector.svelte";
import type { EntryDetail } from "../../../src/worker/protocol.ts";
import {
  assistant,
  bash,
  compaction,
  customMessage,
  entry,
  image,
  modelChange,
  text,
  thinking,
  toolCall,
  toolResult,
  user,
} from "../../support/build.ts";

type Raw = Record<string, unknown>;

/** A 1×1 transparent PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
const SVG = btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=1"><script>window.__pwned=1</script></svg>',
);

const MARKDOWN = [
  "# Plan of attack",
  "",
  "Read the **README** first, then see [the docs](https://example.com/docs).",
  "",
  "```ts",
  "const answer = 42; // the answer",
  'export function greet(name: string) { return "hi " + name; }',
  "```",
].join("\n");

const HOSTILE = [
  "<script>window.__pwned=1</script>",
  '<img src=x onerror="window.__pwned=1">',
  "[click me](javascript:window.__pwned=1)",
  '<iframe src="https://example.com"></iframe>',
  '<svg onload="window.__pwned=1"><circle r="5"/></svg>',
  '<a href="https://example.com/x" onclick="window.__pwned=1">plain link</a>',
  '<div style="background:url(https://example.com/bg.png)">styled</div>',
  '<form action="https://example.com"><input type="image" src="https://example.com/i.png"></form>',
  "![a](https://example.com/a.png)",
].join("\n\n");

const withLabel = (raw: Raw, line: number, extra: Partial<EntryDetail> = {}): EntryDetail => ({
  index: line - 2,
  line,
  id: raw["id"] as string | undefined,
  parentId: raw["parentId"] as string | null | undefined,
  type: raw["type"] as string,
  raw,
  label: undefined,
  toolCalls: [],
  callEntry: undefined,
  diagnostics: [],
  ...extra,
});

const assistantError = assistant("a2", "h1", [{ type: "thinking", thinking: "", redacted: true }, text("partial")], {
  stopReason: "error",
});
(assistantError["message"] as Raw)["errorMessage"] = "529 overloaded_error: Overloaded";

/** Entry index = position here; the line is index + 2 (line 1 is the session header). */
const ENTRIES: readonly EntryDetail[] = [
  withLabel(user("u1", null, [text(MARKDOWN), image(PNG, "image/png")]), 2, { label: "start" }),
  withLabel(
    assistant(
      "a1",
      "u1",
      [
        thinking("Let me **look** at the file."),
        text("Reading it."),
        toolCall("call-1"),
        toolCall("call-2", "bash", { command: "ls -la" }),
      ],
      {
        usage: { input: 1200, output: 85, cacheRead: 300, cacheWrite: 0, totalTokens: 1585, cost: { total: 0.0123 } },
      },
    ),
    3,
    {
      toolCalls: [
        { callId: "call-1", name: "read", result: 2 },
        { callId: "call-2", name: "bash", result: undefined },
      ],
    },
  ),
  withLabel(toolResult("r1", "a1", "call-1", [text("file contents"), image(PNG, "image/gif")]), 4, { callEntry: 1 }),
  withLabel(toolResult("r2", "r1", "call-9", "ENOENT: no such file", true), 5),
  withLabel(
    bash("b1", "r2", "npm test", "ok 1\nok 2", {
      exitCode: 1,
      truncated: true,
      fullOutputPath: "/tmp/out.log",
      excludeFromContext: true,
    }),
    6,
  ),
  withLabel(compaction("k1", "b1", "u1", "## Summary\n\nWe read the README."), 7),
  withLabel(user("h1", "k1", [text(HOSTILE), image(SVG, "image/svg+xml")]), 8),
  withLabel(assistantError, 9),
  withLabel(customMessage("m1", "a2", "ui_status", "Status: **green**", false), 10),
  withLabel(modelChange("mc1", "m1", "openai", "gpt-5"), 11),
  withLabel(entry("future_thing", "f1", "mc1", { payload: { x: 1 } }), 12, {
    diagnostics: [
      { severity: "warning", code: "unknown-entry-type", line: 12, message: 'Unknown entry type "future_thing".' },
    ],
  }),
];

declare global {
  interface Window {
    __navigations: number[];
    __pwned?: unknown;
  }
}

window.__navigations = [];
const target = document.getElementById("harness")!;
let mounted: ReturnType<typeof mount> | undefined;

function show(index: number): void {
  if (mounted) void unmount(mounted);
  const detail = ENTRIES[index];
  if (!detail) throw new Error(`No fixture entry ${index}`);
  mounted = mount(Inspector, {
    target,
    props: {
      detail,
      entryLabel: (other: number) => `line ${ENTRIES[other]?.line ?? "?"}`,
      onnavigate: (other: number) => {
        window.__navigations.push(other);
        history.replaceState(null, "", `?entry=${other}`);
        show(other);
      },
    },
  });
}

show(Number(new URLSearchParams(location.search).get("entry") ?? "0"));
