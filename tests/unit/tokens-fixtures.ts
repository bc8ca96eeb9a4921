/**
 * Small sessions with recorded usage for the token tests, and a stand-in tokenizer that counts what it is asked
 * (so a test can see exactly which texts were tokenised).
 */
import { assistant, compaction, header, session, toolCall, toolResult, user } from "../support/build.ts";
import type { Tokenizer, TokenizerName } from "../../src/core/tokens/tokenizer.ts";

/** One token per 4 characters (rounded up), remembering every text it was given. */
export function recordingTokenizer(name: TokenizerName): Tokenizer & { readonly seen: string[] } {
  const seen: string[] = [];
  return { name, seen, count: (text) => (seen.push(text), Math.ceil(text.length / 4)) };
}

export const usage = (prompt: number, output: number) => ({
  input: 3,
  output,
  cacheRead: prompt - 3 - 100,
  cacheWrite: 100,
  totalTokens: prompt + output,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

/** Turn prompts of the tool loop below, as a provider might have reported them. */
export const PROMPTS = [5000, 5600, 6400, 7100] as const;

/**
 * u1 → a1 (tool call) → r1 → a2 (tool call) → r2 → a3 → u2 → a4: four recorded requests of one Claude model,
 * optionally with different usage for some turns (to show the estimates never read their own).
 */
export function toolLoopSession(prompts: readonly number[] = PROMPTS, withCompaction = false): string {
  const model = { provider: "anthropic", model: "claude-sonnet-4-5", api: "anthropic-messages" };
  const lines = [
    header(),
    user("u1", null, "Read the README and the changelog, then summarise both."),
    assistant(
      "a1",
      "u1",
      [{ type: "text", text: "Reading the README." }, toolCall("c1", "read", { path: "README.md" })],
      {
        ...model,
        usage: usage(prompts[0]!, 60),
      },
    ),
    toolResult("r1", "a1", "c1", "# Demo\n" + "The demo project shows how a session is projected. ".repeat(40)),
    assistant("a2", "r1", [toolCall("c2", "read", { path: "CHANGELOG.md" })], {
      ...model,
      usage: usage(prompts[1]!, 40),
    }),
    toolResult("r2", "a2", "c2", "## 1.0.0\n" + "- Fixed a bug in the tree view.\n".repeat(60)),
    assistant("a3", "r2", "The README explains the demo; the changelog lists sixty fixes.", {
      ...model,
      usage: usage(prompts[2]!, 30),
    }),
    ...(withCompaction ? [compaction("k1", "a3", "a3", "We read the README and the changelog.")] : []),
    user("u2", withCompaction ? "k1" : "a3", "Thanks. Which fix matters most?"),
    assistant("a4", "u2", "The tree view fix.", { ...model, usage: usage(prompts[3]!, 20) }),
  ];
  return session(...lines);
}

/**
 * `rounds` user → assistant rounds of two Claude models taking turns (so a turn's previous request of its model
 * is two turns back), each reply recording a prompt that grows unevenly: a session with more recorded turns than
 * its measured error looks at.
 */
export function longSession(rounds: number): string {
  const models = ["claude-sonnet-4-5", "claude-opus-4-5"].map((model) => ({
    provider: "anthropic",
    model,
    api: "anthropic-messages",
  }));
  const lines: Record<string, unknown>[] = [header()];
  let parent: string | null = null;
  for (let k = 0; k < rounds; k += 1) {
    lines.push(user(`u${k}`, parent, `Question ${k}: ${"what does this part do? ".repeat(1 + (k % 5))}`));
    const prompt = 2000 + 90 * k + ((k * 37) % 11) * 40;
    const reply = `Answer ${k}: ${"it reads the session and projects it. ".repeat(1 + (k % 3))}`;
    lines.push(assistant(`a${k}`, `u${k}`, reply, { ...models[k % 2], usage: usage(prompt, 30 + (k % 4) * 10) }));
    parent = `a${k}`;
  }
  return session(...lines);
}
