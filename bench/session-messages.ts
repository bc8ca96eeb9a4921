/**
 * Builders for the messages of a generated pi session, shaped as each provider's responses are stored by pi
 * 0.73.1 (signatures, tool-call ids, usage). Text sizes are drawn long-tailed and multiplied by `scale`, which
 * the generator tunes so the file reaches its target size.
 */
import { Rng, TextPool } from "./random.ts";

export interface SessionModel {
  readonly provider: string;
  readonly modelId: string;
  readonly api: string;
}

export const SESSION_MODELS: readonly SessionModel[] = [
  { provider: "anthropic", modelId: "claude-sonnet-4-5", api: "anthropic-messages" },
  { provider: "openai", modelId: "gpt-5.1-codex", api: "openai-responses" },
  { provider: "google", modelId: "gemini-2.5-pro", api: "google-generative-ai" },
];

export type ToolCall = {
  readonly type: "toolCall";
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly thoughtSignature?: string;
};

type Block = Record<string, unknown>;
const FILES = [
  "src/core/session/load.ts",
  "src/core/project/context.ts",
  "README.md",
  "docs/screenshot.png",
  "package.json",
  "tests/unit/tree.test.ts",
];

export class MessageFactory {
  /** Multiplier for every drawn text size; set by the generator. */
  scale = 1;
  /** Sum of drawn sizes before scaling, and after (to estimate how `scale` maps to bytes). */
  naturalChars = 0;
  scaledChars = 0;
  readonly #rng: Rng;
  readonly #pool: TextPool;

  constructor(rng: Rng, pool: TextPool) {
    this.#rng = rng;
    this.#pool = pool;
  }

  /** Text of a drawn, scaled size. */
  text(median: number, sigma = 1): string {
    const natural = this.#rng.size(median, sigma);
    const length = Math.max(1, Math.round(natural * this.scale));
    this.naturalChars += natural;
    this.scaledChars += length;
    return this.#pool.text(length);
  }

  image(): Block {
    return {
      type: "image",
      data: this.#pool.base64(this.#rng.int(8, 120) * 1024, "iVBORw0KGgoA"),
      mimeType: "image/png",
    };
  }

  user(timestamp: number): Block {
    const rng = this.#rng;
    const text = this.text(250, 1.2);
    if (rng.chance(0.6)) return { role: "user", content: text, timestamp };
    const content: Block[] = [{ type: "text", text }];
    if (rng.chance(0.03)) content.push(this.image());
    return { role: "user", content, timestamp };
  }

  /**
   * An assistant turn: thinking (unless the level is off), text, and `calls` tool calls. `prompt` is the size of
   * the request that produced it, in tokens, and `cached` how much of it the previous request of the same model
   * leaves in the provider's cache: its usage records both, as a provider reports them.
   */
  assistant(
    model: SessionModel,
    level: string,
    calls: readonly ToolCall[],
    timestamp: number,
    prompt: number,
    cached: number,
  ): Block {
    const rng = this.#rng;
    const content: Block[] = [];
    if (level !== "off" && rng.chance(0.9)) content.push(this.#thinking(model));
    if (calls.length === 0 || rng.chance(0.5)) content.push(this.#textBlock(model, calls.length === 0 ? 400 : 120));
    content.push(...calls);
    const message: Block = {
      role: "assistant",
      content,
      api: model.api,
      provider: model.provider,
      model: model.modelId,
    };
    message["usage"] = this.#usage(prompt, cached, tokensOf(content));
    message["stopReason"] = calls.length > 0 ? "toolUse" : "stop";
    message["timestamp"] = timestamp;
    return this.#maybeFailed(message);
  }

  toolCalls(model: SessionModel, count: number, timestamp: number): ToolCall[] {
    return Array.from({ length: count }, (_, n) => {
      const name = this.#rng.pick(["read", "read", "bash", "bash", "edit", "write", "grep"]);
      const call: ToolCall = {
        type: "toolCall",
        id: this.#callId(model, name, timestamp, n),
        name,
        arguments: this.#arguments(name),
      };
      return model.api === "google-generative-ai" && n === 0
        ? { ...call, thoughtSignature: this.#pool.base64(160) }
        : call;
    });
  }

  toolResult(call: ToolCall, timestamp: number): Block {
    const rng = this.#rng;
    const isPng = call.name === "read" && call.arguments["path"] === "docs/screenshot.png" && rng.chance(0.1);
    const content = isPng
      ? [{ type: "text", text: "Read image file [image/png]" }, this.image()]
      : [{ type: "text", text: this.text(1000, 1.3) }];
    const message: Block = { role: "toolResult", toolCallId: call.id, toolName: call.name, content };
    if (call.name === "edit") message["details"] = { diff: this.text(200), firstChangedLine: rng.int(1, 400) };
    message["isError"] = rng.chance(0.05);
    message["timestamp"] = timestamp;
    return message;
  }

  bashExecution(timestamp: number): Block {
    const rng = this.#rng;
    const truncated = rng.chance(0.1);
    return {
      role: "bashExecution",
      command: rng.pick(["npm test", "git status --short", "ls -la src/core", "npx vitest run tests/unit"]),
      output: this.text(1500, 1.2),
      exitCode: rng.chance(0.8) ? 0 : 1,
      cancelled: false,
      truncated,
      ...(truncated ? { fullOutputPath: `/tmp/pi-bash-${this.#rng.hex(8)}.log` } : {}),
      timestamp,
      ...(rng.chance(0.2) ? { excludeFromContext: true } : {}),
    };
  }

  /** Fields of a custom_message entry (an extension's message that reaches the model). */
  customMessage(): Block {
    const rng = this.#rng;
    const text = this.text(300);
    return {
      customType: rng.pick(["background-job", "todo-reminder", "ui_status"]),
      content: rng.chance(0.5) ? text : [{ type: "text", text }],
      display: rng.chance(0.7),
      details: { source: "extension", runId: rng.hex(8) },
    };
  }

  #thinking(model: SessionModel): Block {
    const thinking = this.text(800, 1.1);
    const rng = this.#rng;
    if (model.api === "anthropic-messages") {
      if (rng.chance(0.01))
        return { type: "thinking", thinking: "", thinkingSignature: this.#pool.base64(1200), redacted: true };
      return { type: "thinking", thinking, thinkingSignature: this.#pool.base64(rng.int(100, 500) * 4) };
    }
    if (model.api === "openai-responses") {
      const item = {
        type: "reasoning",
        id: `rs_${rng.hex(48)}`,
        summary: [{ type: "summary_text", text: thinking }],
        encrypted_content: this.#pool.base64(rng.int(200, 800) * 4),
      };
      return { type: "thinking", thinking, thinkingSignature: JSON.stringify(item) };
    }
    return { type: "thinking", thinking, thinkingSignature: this.#pool.base64(rng.int(40, 200) * 4) };
  }

  #textBlock(model: SessionModel, median: number): Block {
    const text = this.text(median, 1.1);
    if (model.api === "openai-responses")
      return { type: "text", text, textSignature: JSON.stringify({ v: 1, id: `msg_${this.#rng.hex(48)}` }) };
    return { type: "text", text };
  }

  #callId(model: SessionModel, name: string, timestamp: number, n: number): string {
    if (model.api === "anthropic-messages") return `toolu_01${this.#rng.hex(22)}`;
    if (model.api === "openai-responses") return `call_${this.#rng.hex(24)}|fc_${this.#rng.hex(48)}`;
    return `${name}_${timestamp}_${n}`;
  }

  #arguments(name: string): Record<string, unknown> {
    const path = this.#rng.pick(FILES);
    switch (name) {
      case "read":
        return this.#rng.chance(0.3) ? { path, offset: this.#rng.int(1, 300), limit: 200 } : { path };
      case "bash":
        return {
          command: `cd /home/dev/context-lens && ${this.#rng.pick(["npm test", "rg -n 'parseJsonLine' src", "git diff --stat"])}`,
          timeout: 120,
        };
      case "edit":
        return { path, oldText: this.text(150), newText: this.text(180) };
      case "write":
        return { path, content: this.text(1500, 1.2) };
      default:
        return { pattern: "SessionLoader", path: "src" };
    }
  }

  /** Usage as pi-ai records it: the prompt split into cache reads, cache writes and a few uncached tokens. */
  #usage(prompt: number, cached: number, output: number): Block {
    const cacheRead = Math.min(cached, prompt);
    const input = Math.min(prompt - cacheRead, this.#rng.int(3, 40));
    const cacheWrite = prompt - cacheRead - input;
    const cost = {
      input: input * 3e-6,
      output: output * 15e-6,
      cacheRead: cacheRead * 3e-7,
      cacheWrite: cacheWrite * 3.75e-6,
      total: 0,
    };
    cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
    return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
  }

  /** A few turns end in an error or an abort, as real sessions do (pi-ai drops them from later requests). */
  #maybeFailed(message: Block): Block {
    const roll = this.#rng.next();
    if (roll < 0.01) return { ...message, stopReason: "aborted", errorMessage: "Request was aborted" };
    if (roll < 0.02)
      return { ...message, content: [], stopReason: "error", errorMessage: "529 overloaded_error: Overloaded" };
    return message;
  }
}

/** Characters per token of the generated text, roughly as Claude's and OpenAI's tokenizers read English prose. */
const CHARS_PER_TOKEN = 4;
/** What a provider charges for an image (pi-ai's flat Anthropic estimate). */
const IMAGE_TOKENS = 1200;
/** Fields that carry no prompt text: signatures, ids, and an image's data (priced per image instead). */
const NOT_PROMPT_TEXT = new Set(["thinkingSignature", "textSignature", "thoughtSignature", "id", "data", "mimeType"]);

/**
 * About how many tokens a model reads of some message content: its texts at `CHARS_PER_TOKEN`, a fixed price per
 * image, a few tokens of framing per block. Enough to make recorded usage grow with the context as a real
 * session's does; the app's own estimate is what is measured against it.
 */
export function tokensOf(value: unknown): number {
  if (typeof value === "string") return Math.ceil(value.length / CHARS_PER_TOKEN);
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + tokensOf(v), 0);
  if (typeof value !== "object" || value === null) return 0;
  const block = value as Record<string, unknown>;
  if (block["type"] === "image") return IMAGE_TOKENS;
  let sum = 3;
  for (const [key, v] of Object.entries(block)) if (!NOT_PROMPT_TEXT.has(key)) sum += tokensOf(v);
  return sum;
}
