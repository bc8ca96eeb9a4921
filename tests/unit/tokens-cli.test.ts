/** `npm run cli -- tokens …` as a person or a script uses it: real process, stdout, stderr, exit codes. */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/temp.ts";
import { MEASURED_TURNS } from "../../src/core/tokens/accuracy.ts";
import { longSession, PROMPTS, toolLoopSession } from "./tokens-fixtures.ts";

const run = promisify(execFile);
const dir = tempDir("context-lens-tokens-");
const file = join(dir, "loop.jsonl");

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "src/cli/main.ts", "tokens", ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(() => {
  writeFileSync(file, toolLoopSession());
  writeFileSync(join(dir, "system.txt"), "You are pi, a coding agent.");
});

describe("tokens --turns", () => {
  it("prints one object per recorded turn with exactly line, entry, actual, standalone, anchored", async () => {
    const { code, stdout, stderr } = await cli(file, "--turns", "--jsonl");
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(Object.keys(line)).toEqual(["line", "entry", "actual", "standalone", "anchored"]);
    expect(lines.map((l) => [l.line, l.entry, l.actual])).toEqual([
      [3, "a1", PROMPTS[0]],
      [5, "a2", PROMPTS[1]],
      [7, "a3", PROMPTS[2]],
      [9, "a4", PROMPTS[3]],
    ]);
    expect(lines[0]).toMatchObject({ standalone: null, anchored: null });
    expect(Number.isInteger(lines[1].standalone) && Number.isInteger(lines[1].anchored)).toBe(true);
  });

  it("prints a table with each estimate's error without --jsonl", async () => {
    const { code, stdout } = await cli(file, "--turns");
    expect(code).toBe(0);
    expect(stdout).toMatch(/line\s+entry\s+actual\s+standalone\s+error\s+anchored\s+error/);
    expect(stdout).toMatch(/\n\s+9\s+a4\s+7,100\s+[\d,]+\s+-?\d+\.\d\d%/);
  });

  it("stops quietly when its reader goes away (piped into head)", async () => {
    const long = join(dir, "long-turns.jsonl");
    writeFileSync(long, longSession(2 * MEASURED_TURNS + 7));
    const { stdout, stderr } = await run("bash", [
      "-c",
      `set -o pipefail; "${process.execPath}" --import tsx src/cli/main.ts tokens "${long}" --turns | head -2`,
    ]);
    expect(stdout.trim().split("\n")).toHaveLength(2);
    expect(stderr).toBe("");
  });

  it("refuses options that would not measure pi's own requests", async () => {
    const { code, stderr } = await cli(file, "--turns", "--block-images");
    expect(code).toBe(2);
    expect(stderr).toMatch(/--turns .* takes no --block-images/);
  });
});

describe("tokens", () => {
  it("prints per-message counts and a labelled total as JSON with --jsonl", async () => {
    const { code, stdout } = await cli(file, "--jsonl", "--leaf", "u2");
    expect(code).toBe(0);
    const record = JSON.parse(stdout);
    expect(record).toMatchObject({ leaf: "u2", line: 8, model: "anthropic/claude-sonnet-4-5", family: "claude" });
    expect(record.items.map((i: { role: string }) => i.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
      "toolResult",
      "assistant",
      "user",
    ]);
    expect(record.items[2].entries).toEqual(["r1"]);
    // u2 is the context a4 was sent with: the recorded prompt is the exact answer.
    expect(record.total).toEqual({
      kind: "exact",
      value: PROMPTS[3],
      basis: "recorded usage of the request on line 9",
    });
    expect(record.systemAndTools.kind).toBe("estimated");
  });

  it("labels an anchored total as calibrated with its measured error, and a foreign model's as estimated", async () => {
    const own = JSON.parse((await cli(file, "--jsonl")).stdout);
    expect(own.total.kind).toBe("calibrated");
    expect(own.total.basis).toMatch(/anchored on the recorded request on line 9/);
    expect(own.total.error.turns).toBe(3);
    const other = JSON.parse((await cli(file, "--jsonl", "--model", "openai/gpt-5.2")).stdout);
    expect(other).toMatchObject({ model: "openai/gpt-5.2", family: "openai", systemAndTools: null });
    expect(other.total.kind).toBe("estimated");
    const given = JSON.parse((await cli(file, "--jsonl", "--leaf", "u2", "--system", join(dir, "system.txt"))).stdout);
    expect(given.total.kind).toBe("calibrated"); // a given system prompt is not what pi sent: no longer exact
  });

  it("measures the error on a spread of a long session's turns, and says so", async () => {
    const long = join(dir, "long.jsonl");
    writeFileSync(long, longSession(2 * MEASURED_TURNS + 7));
    const record = JSON.parse((await cli(long, "--jsonl")).stdout);
    expect(record.total.kind).toBe("calibrated");
    expect(record.total.error).toMatchObject({ of: 2 * MEASURED_TURNS + 7 });
    expect(record.total.error.turns).toBeLessThanOrEqual(MEASURED_TURNS);
    const { stdout } = await cli(long);
    expect(stdout).toMatch(/over \d+ of its 247 turns \(spread evenly\)\)/);
  });

  it("prints a table by default", async () => {
    const { code, stdout } = await cli(file);
    expect(code).toBe(0);
    expect(stdout).toMatch(/model anthropic\/claude-sonnet-4-5/);
    expect(stdout).toMatch(
      /\n\s+total\s+[\d,]+\s+calibrated \(anchored on the recorded request on line 9; on this session: median/,
    );
  });

  it("says what is wrong with bad input", async () => {
    expect(await cli()).toMatchObject({ code: 2, stderr: expect.stringMatching(/name one session file/) });
    expect(await cli(file, "--leaf", "nope")).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/--leaf nope: no entry has id "nope"/),
    });
    expect(await cli(file, "--model", "acme/none")).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/acme\/none: not a model/),
    });
    expect(await cli(join(dir, "missing.jsonl"))).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/cannot be read/),
    });
  });
});
