/** The CLI as a person (or a script) uses it: real files, real process, stdout/stderr and exit codes. */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/temp.ts";
import { VARIANTS, NOT_SESSIONS } from "../fixtures/variants.ts";
import { assistant, header, session, user } from "../support/build.ts";

const run = promisify(execFile);
const dir = tempDir("context-lens-cli-");
const file = (name: string) => join(dir, `${name}.jsonl`);

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
      cwd: process.cwd(),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(() => {
  for (const [name, text] of Object.entries(VARIANTS)) writeFileSync(file(name), text);
  writeFileSync(file("pi-json-mode"), NOT_SESSIONS["pi-json-mode"]!.text as string);
  writeFileSync(
    join(dir, "tools.json"),
    JSON.stringify([
      {
        name: "read",
        description: "Read a file",
        parameters: { type: "object", properties: { path: { type: "string" } } },
      },
    ]),
  );
  writeFileSync(join(dir, "bad-tools.json"), JSON.stringify([{ name: "read" }]));
  writeFileSync(join(dir, "system.txt"), "You are pi.");
});

describe("cli payload", () => {
  it("prints the default leaf's payload for the session's model as pretty JSON", async () => {
    const { code, stdout, stderr } = await cli("payload", file("linear"));
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const body = JSON.parse(stdout);
    expect(body.model).toBe("claude-sonnet-4-5");
    expect(body.messages).toHaveLength(4);
  });

  it("prints one JSON object per file × leaf × model with --jsonl, errors in place of payloads", async () => {
    const { code, stdout } = await cli(
      "payload",
      file("branches"),
      file("no-model"),
      "--leaf",
      "leaves",
      "--model",
      "session",
      "--model",
      "openai/gpt-5.1-codex",
      "--jsonl",
    );
    expect(code).toBe(0);
    const records = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records.map((r) => [r.file, r.leaf, r.line, r.asked, r.model])).toEqual([
      ["branches.jsonl", "a3", 9, "session", "anthropic/claude-sonnet-4-5"],
      ["branches.jsonl", "a3", 9, "openai/gpt-5.1-codex", "openai/gpt-5.1-codex"],
      ["branches.jsonl", "a4", 11, "session", "anthropic/claude-sonnet-4-5"],
      ["branches.jsonl", "a4", 11, "openai/gpt-5.1-codex", "openai/gpt-5.1-codex"],
      ["branches.jsonl", "a5", 14, "session", "openai/gpt-5.1-codex"],
      ["branches.jsonl", "a5", 14, "openai/gpt-5.1-codex", "openai/gpt-5.1-codex"],
      ["no-model.jsonl", "u1", 2, "session", null],
      ["no-model.jsonl", "u1", 2, "openai/gpt-5.1-codex", "openai/gpt-5.1-codex"],
    ]);
    expect(records[0].payload.messages).toBeDefined();
    expect(records[6].error).toMatch(/no model on this path/);
    expect(records[6]).not.toHaveProperty("payload");
  });

  it("prints several records as one pretty JSON array, errors in place", async () => {
    const asked = ["payload", file("branches"), file("no-model"), "--leaf", "leaves", "--model", "session"];
    const jsonl = await cli(...asked, "--jsonl");
    const records = jsonl.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(4);
    expect(records[3].error).toMatch(/no model on this path/);
    const pretty = await cli(...asked);
    expect(pretty.code).toBe(0);
    expect(pretty.stdout).toBe(`${JSON.stringify(records, null, 2)}\n`);
    const two = await cli("payload", file("branches"), "--leaf", "a3", "--leaf", "a4");
    expect(two.stdout).toBe(`${JSON.stringify(JSON.parse(two.stdout), null, 2)}\n`);
    expect(JSON.parse(two.stdout).map((r: { leaf: string }) => r.leaf)).toEqual(["a3", "a4"]);
  });

  it("addresses leaves by line, reports an unknown model as an error line", async () => {
    const { stdout } = await cli("payload", file("unknown-model"), "--leaf", "line:3", "--jsonl");
    const record = JSON.parse(stdout);
    expect(record).toMatchObject({ leaf: "u1", line: 3, asked: "session", model: "acme/rocket-1" });
    expect(record.error).toMatch(/not in pi-ai's model registry/);
  });

  it("takes a system prompt, tools and --block-images", async () => {
    const { stdout } = await cli(
      "payload",
      file("bash-and-custom"),
      "--system",
      join(dir, "system.txt"),
      "--tools",
      join(dir, "tools.json"),
      "--block-images",
    );
    const body = JSON.parse(stdout);
    expect(body.system[0].text).toBe("You are pi.");
    expect(body.tools[0].name).toBe("read");
    expect(stdout).toContain("Image reading is disabled.");
    expect(stdout).not.toContain("iVBORw0KGgo=");
  });

  it("projects through a built-in preset or a preset file with --rules, and says what is wrong with a bad one", async () => {
    const pi = JSON.parse((await cli("payload", file("bash-and-custom"))).stdout);
    expect(JSON.parse((await cli("payload", file("bash-and-custom"), "--rules", "pi")).stdout)).toEqual(pi);
    writeFileSync(
      join(dir, "no-bash.json"),
      JSON.stringify({ format: "context-lens/preset", version: 1, name: "No bash", settings: { bash: "exclude" } }),
    );
    const noBash = await cli("payload", file("bash-and-custom"), "--rules", join(dir, "no-bash.json"));
    expect(noBash.code).toBe(0);
    expect(JSON.stringify(pi)).toContain("Ran `ls`");
    expect(noBash.stdout).not.toContain("Ran `ls`");
    const lean = await cli("payload", file("bash-and-custom"), "--rules", "lean", "--jsonl");
    expect(JSON.parse(lean.stdout.split("\n")[0]!).payload).toBeDefined();
    writeFileSync(
      join(dir, "bad-preset.json"),
      JSON.stringify({ format: "context-lens/preset", version: 1, name: "x", settings: { bash: "maybe" } }),
    );
    const bad = await cli("payload", file("linear"), "--rules", join(dir, "bad-preset.json"));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad-preset.json is not a valid preset: at settings.bash/);
    const unknown = await cli("payload", file("linear"), "--rules", "nonsense");
    expect(unknown.stderr).toContain("--rules nonsense: neither a built-in preset");
  });

  it("rejects bad input with a message naming the file and a non-zero exit, never a stack trace", async () => {
    const missing = await cli("payload", join(dir, "nope.jsonl"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nope.jsonl: cannot be read (ENOENT)");
    const notSession = await cli("payload", file("pi-json-mode"));
    expect(notSession.code).toBe(1);
    expect(notSession.stderr).toContain("--mode json");
    const badTools = await cli("payload", file("linear"), "--tools", join(dir, "bad-tools.json"));
    expect(badTools.stderr).toMatch(/bad-tools.json: tool definitions must be .* at 0.description/);
    const badLeaf = await cli("payload", file("linear"), "--leaf", "zzz");
    expect(badLeaf.code).toBe(1);
    expect(badLeaf.stderr).toContain('--leaf zzz: no entry has id "zzz"');
    const badModel = await cli("payload", file("linear"), "--model", "nope/nope");
    expect(badModel.stderr).toContain("--model nope/nope: not a model");
    const badFlag = await cli("payload", file("linear"), "--frobnicate");
    expect(badFlag.code).toBe(2);
    for (const r of [missing, notSession, badTools, badLeaf, badModel, badFlag])
      expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("prints the usage of every command for --help, given alone or to a command", async () => {
    for (const args of [["--help"], ["diff", "--help"], ["tokens", file("linear"), "-h"]]) {
      const help = await cli(...args);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain("usage: npm run cli -- <command>");
      expect(help.stdout).toContain("tokens FILE --turns");
    }
  });

  it("loads a damaged session with its diagnostics on stderr", async () => {
    const { code, stdout, stderr } = await cli("payload", file("malformed-line"));
    expect(code).toBe(0);
    expect(JSON.parse(stdout).messages).toHaveLength(4);
    expect(stderr).toMatch(/malformed-line.jsonl:line 3: error: Line 3 is not JSON/);
  });
});

describe("cli tree and inspect", () => {
  it("outlines branch points, labels and the leaf", async () => {
    const { stdout } = await cli("tree", file("branches"));
    expect(stdout).toContain("a2 L7 assistant: It describes a demo project.  ⑂ 3 branches");
    expect(stdout).toMatch(/├─ u2 L8 user/);
    expect(stdout).toMatch(/└─ b1 L12 branch_summary/);
    expect(stdout).toContain("a5 L14 assistant: C works.  ← leaf");
  });

  it("lists statistics and every diagnostic", async () => {
    const { code, stdout } = await cli("inspect", file("two-objects-on-a-line"));
    expect(code).toBe(0);
    expect(stdout).toContain("entries: 4");
    expect(stdout).toMatch(/line 5: error: Line 5 holds 2 JSON objects/);
  });
});

describe("cli tree and inspect on a header whose fields are not text", () => {
  it("leave out what is not text (the diagnostics name it) instead of failing", async () => {
    const odd = { toString: 0 };
    writeFileSync(file("odd-header"), session(header({ cwd: odd, parentSession: odd }), user("u1", null, "hi")));
    const inspect = await cli("inspect", file("odd-header"));
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).not.toMatch(/^cwd:/m);
    expect(inspect.stdout).toMatch(/line 1: warning: .*cwd: Invalid input: expected string, received object/);
    const tree = await cli("tree", file("odd-header"));
    expect(tree.code).toBe(0);
    expect(tree.stdout).toContain("u1 L2 user: hi  ← leaf");
  });
});

describe("cli payload on a header-only session", () => {
  it("says in an error line that there is no leaf, on the header's line", async () => {
    writeFileSync(
      file("only-header"),
      `\n${JSON.stringify({ type: "session", version: 3, id: "h", timestamp: "t", cwd: "/" })}\n`,
    );
    const { code, stdout } = await cli(
      "payload",
      file("only-header"),
      "--jsonl",
      "--model",
      "session",
      "--model",
      "xai/grok-4",
    );
    expect(code).toBe(0);
    expect(
      stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([
      {
        file: "only-header.jsonl",
        leaf: null,
        line: 2,
        asked: "session",
        model: null,
        error: expect.stringMatching(/no entries/),
      },
      {
        file: "only-header.jsonl",
        leaf: null,
        line: 2,
        asked: "xai/grok-4",
        model: "xai/grok-4",
        error: expect.stringMatching(/no entries/),
      },
    ]);
    const pretty = await cli("payload", file("only-header"));
    expect(pretty.code).toBe(1);
    expect(pretty.stderr).toContain("only-header.jsonl: line 2: the session has no entries");
  });
});

describe("cli --models", () => {
  const OLLAMA = { provider: "ollama", model: "qwen3.5:latest", api: "openai-completions" };
  beforeAll(() => {
    writeFileSync(
      file("ollama"),
      session(header({ id: "ollama" }), user("u1", null, "hi"), assistant("a1", "u1", "hello", OLLAMA)),
    );
    writeFileSync(
      join(dir, "models.json"),
      `{ "providers": { "ollama": { "baseUrl": "http://localhost:11434/v1", "api": "openai-completions",
         "apiKey": "ollama", "models": [{ "id": "qwen3.5:latest", "maxTokens": 8192 }], }, }, } // pi allows this`,
    );
    writeFileSync(
      join(dir, "no-base-url.json"),
      `{"providers": {"x": {"apiKey": "k", "api": "openai-completions", "models": [{"id": "m"}]}}}`,
    );
  });

  it("reads pi's models.json for a session on a custom model", async () => {
    const without = await cli("payload", file("ollama"));
    expect(without.code).toBe(1);
    expect(without.stderr).toContain(
      "ollama/qwen3.5:latest is not in pi-ai's model registry (nor in a models.json in use)",
    );
    const { code, stdout, stderr } = await cli("payload", file("ollama"), "--models", join(dir, "models.json"));
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const body = JSON.parse(stdout);
    expect(body.model).toBe("qwen3.5:latest");
    expect(body.max_completion_tokens).toBe(8192);
    const listed = await cli("models", "--models", join(dir, "models.json"), "ollama/");
    expect(listed.stdout).toBe("ollama/qwen3.5:latest\topenai-completions\n");
  });

  it("refuses a models.json pi would refuse, saying why", async () => {
    const { code, stderr } = await cli("payload", file("ollama"), "--models", join(dir, "no-base-url.json"));
    expect(code).toBe(1);
    expect(stderr).toContain(
      'no-base-url.json was not read: Provider x: "baseUrl" is required when defining custom models.',
    );
    expect((await cli("payload", file("ollama"), "--models")).stderr).toContain("--models needs a file");
  });
});
