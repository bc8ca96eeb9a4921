/** `snapshot` on the command line: real files, a real process, stdout/stderr and exit codes. */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/temp.ts";
import { parseSnapshot } from "../../src/core/snapshot/parse.ts";
import { VARIANTS } from "../fixtures/variants.ts";
import { plantedSecrets, PNG, secretSession } from "./snapshot-fixtures.ts";

const run = promisify(execFile);
const dir = tempDir("context-lens-snapshot-");
const at = (name: string) => join(dir, name);
const planted = plantedSecrets(11);
const secrets = planted.flatMap((p) => p.secrets);

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
      cwd: process.cwd(),
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const snapshotOf = (stdout: string) => {
  const parsed = parseSnapshot(stdout, "stdout");
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};

let made: Awaited<ReturnType<typeof cli>>;

beforeAll(async () => {
  writeFileSync(at("secrets.jsonl"), secretSession(planted));
  writeFileSync(at("branches.jsonl"), VARIANTS["branches"]!);
  writeFileSync(at("broken.json"), '{"format": "context-lens/snapshot", "version": 1, "path": 3}');
  writeFileSync(at("newer.json"), '{"format": "context-lens/snapshot", "version": 4}');
  made = await cli("snapshot", at("secrets.jsonl"), "--no-tokens");
  writeFileSync(at("snap.json"), made.stdout);
});

describe("cli snapshot", () => {
  it("writes a reviewed snapshot: secrets redacted, images left out, both listed on stderr", async () => {
    const { code, stdout, stderr } = made;
    expect(code).toBe(0);
    const snapshot = snapshotOf(stdout);
    expect(snapshot.session).toMatchObject({ id: "sess-secret", fileName: "secrets.jsonl" });
    expect(snapshot.tokens).toBeUndefined();
    for (const secret of secrets) expect(stdout).not.toContain(secret);
    expect(stdout).not.toContain(PNG);
    expect(stderr).toMatch(/^snapshot: redacted \d+ secret\(s\) \(--no-redact keeps them\):\n {2}\w/);
    expect(stderr).toMatch(/\n {2}OpenAI API key → \[REDACTED openai-key …\w{4}\] at payload\.body\.messages\[1\]/);
    expect(stderr).toContain("snapshot: left out 2 image(s) (--keep-images keeps them):\n  image/png, 104 bytes at ");
    for (const secret of secrets) expect(stderr).not.toContain(secret);
  });

  it("keeps secrets and images only when asked, and warns about the secrets", async () => {
    const { code, stdout, stderr } = await cli(
      "snapshot",
      at("secrets.jsonl"),
      "--no-redact",
      "--keep-images",
      "--no-tokens",
    );
    expect(code).toBe(0);
    for (const secret of secrets) expect(stdout).toContain(secret);
    expect(stdout).toContain(PNG);
    expect(stderr).toMatch(/^warning: \d+ secret\(s\) found and NOT redacted \(--no-redact\)/);
    expect(snapshotOf(stdout).redactions).toEqual([]);
  });

  it("takes the leaf, model and rules as payload does, and counts tokens by default", async () => {
    const { code, stdout } = await cli(
      "snapshot",
      at("branches.jsonl"),
      "--leaf",
      "line:5",
      "--model",
      "openai/gpt-5.1",
      "--rules",
      "lean",
    );
    expect(code).toBe(0);
    const snapshot = snapshotOf(stdout);
    expect(snapshot.leaf.line).toBe(5);
    expect(snapshot.model).toMatchObject({ provider: "openai", id: "gpt-5.1" });
    expect(snapshot.rules).toEqual({
      preset: "lean",
      settings: { bash: "head-tail", dropThinking: true, truncateToolResults: 20000, redactSecrets: true },
    });
    expect(snapshot.tokens?.kind).toMatch(/^(exact|calibrated|estimated)$/);
    expect(snapshot.tokens?.perItem).toHaveLength(snapshot.payload.itemSources.length);
    expect(snapshot.tokens?.tokenizer).toMatch(/^openai family: o200k/);
  });

  it("--open prints the snapshot for people", async () => {
    const { code, stdout, stderr } = await cli("snapshot", "--open", at("snap.json"));
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toMatch(
      /^Context Lens snapshot, version 1: made .* by Context Lens \d+\.\d+\.\d+ \(pi 0\.73\.1\)\n/,
    );
    expect(stdout).toContain("session       secrets.jsonl (sess-secret)  cwd /work/demo  (file format v3)");
    expect(stdout).toMatch(/\nleaf {10}line 12 \(u2\); path of 11 entries: /);
    expect(stdout).toContain("\nrules         pi 0.73.1 exactly\n");
    expect(stdout).toContain("\ntokens        not counted\n");
    expect(stdout).toMatch(/\nredactions {4}\d+\n {2}\w/);
    expect(stdout).toMatch(
      /\n {2}OpenAI API key → \[REDACTED openai-key …\w{4}\] at payload\.body\S+ \(before sharing\)\n/,
    );
    expect(stdout).toMatch(/\nimages {8}2 left out\n {2}image\/png, 104 bytes at /);
    expect(stdout).toMatch(
      /\npath \(root → leaf\):\n {2}line {5}2 {2}m1 {11}model_change {11}summarised by the compaction on line 11\n/,
    );
  });

  it("--open --payload prints the payload body, --jsonl one line", async () => {
    const snapshot = JSON.parse(readFileSync(at("snap.json"), "utf8"));
    const pretty = await cli("snapshot", "--open", at("snap.json"), "--payload");
    expect(pretty.code).toBe(0);
    expect(JSON.parse(pretty.stdout)).toEqual(snapshot.payload.body);
    const jsonl = await cli("snapshot", "--open", at("snap.json"), "--jsonl");
    expect(jsonl.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(JSON.parse(jsonl.stdout)).toEqual({
      file: "secrets.jsonl",
      leaf: "u2",
      line: 12,
      model: "anthropic/claude-sonnet-4-5",
      payload: snapshot.payload.body,
    });
  });

  it("--open says what is wrong with a file that is not a readable snapshot", async () => {
    const broken = await cli("snapshot", "--open", at("broken.json"));
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^error: .*broken\.json is damaged: at createdAt: /);
    const newer = await cli("snapshot", "--open", at("newer.json"));
    expect(newer.stderr).toContain("was made by a newer Context Lens (snapshot version 4");
    const session = await cli("snapshot", "--open", at("branches.jsonl"));
    expect(session.stderr).toContain("is not a Context Lens snapshot: it is a pi session file (JSON Lines)");
    const missing = await cli("snapshot", "--open", at("nothing.json"));
    expect(missing.stderr).toMatch(/nothing\.json: cannot be read \(ENOENT\)/);
  });

  it("bad usage gets a message and exit code 2; a bad leaf or model exit code 1", async () => {
    expect((await cli("snapshot")).code).toBe(2);
    const mixed = await cli("snapshot", "--open", at("snap.json"), "--leaf", "u1");
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("--open reads a snapshot; it takes no --leaf");
    expect((await cli("snapshot", at("branches.jsonl"), "--payload")).stderr).toContain(
      "--payload goes with --open SNAP.json",
    );
    const leaf = await cli("snapshot", at("branches.jsonl"), "--leaf", "nope", "--no-tokens");
    expect(leaf.code).toBe(1);
    expect(leaf.stderr).toContain('--leaf nope: no entry has id "nope"');
    const model = await cli("snapshot", at("branches.jsonl"), "--model", "acme/rocket", "--no-tokens");
    expect(model.code).toBe(1);
    expect(model.stderr).toContain("--model acme/rocket: not a model in pi-ai's registry");
  });
});
