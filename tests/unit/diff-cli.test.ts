/** `diff` as a person (or a script) uses it: real files, real process, stdout/stderr and exit codes. */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/temp.ts";
import { plainTextDiff } from "../../src/cli/diff.ts";
import { diffText } from "../../src/core/diff/text-diff.ts";
import { compareSession } from "./diff-fixtures.ts";

const run = promisify(execFile);
const dir = tempDir("context-lens-diff-cli-");
const session = join(dir, "compare.jsonl");
const preset = join(dir, "short.preset.json");

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "src/cli/main.ts", "diff", ...args], {
      cwd: process.cwd(),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(() => {
  writeFileSync(session, compareSession());
  writeFileSync(
    preset,
    JSON.stringify({
      format: "context-lens/preset",
      version: 1,
      name: "Short",
      settings: { truncateToolResults: 500, bash: "head-tail", bashHead: 5, bashTail: 5 },
    }),
  );
});

describe("cli diff", () => {
  it("prints the changes with token deltas, the totals, the cost delta and the first divergence", async () => {
    const { code, stdout, stderr } = await cli(session, "--leaf", "a3", "--leaf", "u2");
    expect([code, stderr]).toEqual([0, ""]);
    expect(stdout).toMatch(/A: leaf line 8, anthropic\/claude-sonnet-4-5, 8 items \(a3\)/);
    expect(stdout).toMatch(/−\d+ +- assistant turn on line 8 removed \(in B: not on B's path\)/);
    expect(stdout).toMatch(/~ user message on line 7: only its prompt-cache marker differs/);
    expect(stdout).toMatch(/^total: A [\d,]+ \(estimated\), B [\d,]+ \(estimated\), Δ −\d+ tokens$/m);
    expect(stdout).toMatch(
      /^cost at each model's input price: A \$[\d.]+ \(\$3\/M\), B \$[\d.]+ \(\$3\/M\), Δ −\$[\d.]+$/m,
    );
    expect(stdout).toMatch(/^first divergence: B ends after 7 items where A goes on .*; 0 tokens of B from there on/m);
  });

  it("compares two presets (a built-in name or a file) and shows text and JSON diffs on demand", async () => {
    const { code, stdout } = await cli(
      session,
      "--leaf",
      "a3",
      "--rules",
      "pi",
      "--rules",
      preset,
      "--text-diff",
      "--json-diff",
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/B: .*\(Short\)/);
    expect(stdout).toMatch(/−\d+ +~ tool result of read on line 4: truncated/);
    expect(stdout).toMatch(/~ bash output on line 6: cut to its first and last lines/);
    expect(stdout).toContain("{+[…+}");
    expect(stdout).toContain("0 added, 0 removed, 2 changed, 6 unchanged");
    expect(stdout).toMatch(/^first divergence: item 2 of B: tool result of read on line 4: truncated; [\d,]+ tokens/m);
    expect(stdout).toContain("JSON diff (2 paths):");
    expect(stdout).toContain("  ~ messages[2].content[0].content: ");
  });

  it("prints one JSON object with --jsonl: sides, every item with its entries, deltas, divergence, JSON diff", async () => {
    const { code, stdout } = await cli(session, "--model", "session", "--model", "openai/gpt-5.1-codex", "--jsonl");
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]!);
    expect(Object.keys(record)).toEqual(
      expect.arrayContaining([
        "file",
        "compare",
        "a",
        "b",
        "changes",
        "counts",
        "tokenDelta",
        "costDelta",
        "divergence",
        "json",
      ]),
    );
    expect(record).toMatchObject({ file: "compare.jsonl", compare: "model" });
    expect(record.a).toMatchObject({
      name: "session",
      leaf: "a4",
      line: 11,
      model: "anthropic/claude-sonnet-4-5",
      inputPrice: 3,
    });
    expect(record.b).toMatchObject({ name: "openai/gpt-5.1-codex", model: "openai/gpt-5.1-codex", inputPrice: 1.25 });
    expect(record.divergence).toMatchObject({ at: "model", unit: 0, tokensBefore: 0 });
    expect(record.divergence.tokensAfter).toBe(Math.round(record.b.total.value));
    expect(record.changes.map((c: { entries: string[] }) => c.entries)).toContainEqual(["bs"]);
    expect(record.tokenDelta).toBe(Math.round(record.b.total.value) - Math.round(record.a.total.value));
    expect(record.costDelta).toBeCloseTo(record.b.cost - record.a.cost, 12);
  });

  it("says what is wrong with a bad combination of sides", async () => {
    const cases: [string[], number, RegExp][] = [
      [[session], 2, /say what to compare: --rules A --rules B, --model A --model B, or --leaf A --leaf B/],
      [[session, "--rules", "lean"], 2, /say what to compare: .* \(--rules once sets it for both sides\)/],
      [
        [session, "--leaf", "a3", "--leaf", "a4", "--leaf", "u2"],
        2,
        /--leaf takes exactly two values to compare, A then B \(got --leaf 3 times\)/,
      ],
      [
        [session, "--rules", "pi", "--rules", "lean", "--model", "session", "--model", "openai/gpt-5.1-codex"],
        2,
        /compare one thing at a time: two rule presets, two models or two leaves \(got --rules 2 times and --model 2 times\)/,
      ],
      [
        [session, "--model", "session", "--model", "nope/none"],
        1,
        /--model nope\/none: not a model in pi-ai's registry/,
      ],
      [[session, "--leaf", "a3", "--leaf", "zzz"], 1, /compare\.jsonl: --leaf zzz: /],
      [
        [session, "--rules", "pi", "--rules", "nothing-like-it"],
        1,
        /--rules nothing-like-it: neither a built-in preset/,
      ],
      [[join(dir, "missing.jsonl"), "--rules", "pi", "--rules", "lean"], 1, /missing\.jsonl: cannot be read/],
      [[session, session, "--rules", "pi", "--rules", "lean"], 2, /name one session file/],
    ];
    for (const [args, code, message] of cases) {
      const result = await cli(...args);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code, stdout: "" });
      expect(result.stderr).toMatch(message);
    }
  });
});

describe("--text-diff", () => {
  it("shortens long runs to their ends and says how much it left out", () => {
    const kept = "kept line\n".repeat(100);
    const gone = "0123456789".repeat(10_000);
    const text = plainTextDiff(diffText(`${kept}${gone}`, `${kept}[cut]`));
    expect(text.startsWith(`${kept.slice(0, 60)}[… 880 characters unchanged …]${kept.slice(-60)}[-0123`)).toBe(true);
    expect(text).toContain(`${gone.slice(0, 400)}[… 99,200 more characters removed …]${gone.slice(-400)}-]{+[cut]+}`);
    expect(text.length).toBeLessThan(1_100);
  });

  it("shows short runs whole, and says when only how the text is sent differs", () => {
    expect(plainTextDiff(diffText("one two three", "one 2 three"))).toBe("one [-two-]{+2+} three");
    expect(plainTextDiff(diffText("same", "same"))).toBe("(the text the model reads is the same)");
  });
});
