/**
 * A deterministic generator of large, realistic pi session files (version 3) for benchmarks: long linear runs
 * of user / assistant / toolResult turns with thinking, signatures and tool calls, plus branch points (some with
 * branch summaries), compactions, bash executions, custom_message and custom entries, model and thinking-level
 * changes, labels, a session name and a few inline images. Same options → same bytes.
 *
 * CLI: npx tsx bench/generate-session.ts --entries 50000 --bytes 100000000 --seed 1 [--branches 20] > big.jsonl
 */
import { once } from "node:events";
import { pathToFileURL } from "node:url";
import { MessageFactory, SESSION_MODELS, tokensOf, type SessionModel, type ToolCall } from "./session-messages.ts";
import { Rng, TextPool } from "./random.ts";

export interface GenerateOptions {
  /** Entries after the header. */
  readonly entries: number;
  /** Approximate file size to reach (text sizes are scaled towards it). */
  readonly bytes: number;
  readonly seed: number;
  /** Branch points: the file ends with `branches + 1` leaves or more. */
  readonly branches: number;
}

const BYTES_PER_ENTRY = 2500;
/** Tokens of pi's system prompt and tool definitions, which every request starts with and the file does not hold. */
const SYSTEM_TOKENS = 5200;
const LEVELS = ["off", "minimal", "low", "medium", "high"];

/** Fills in what the caller left out: ~2.5 kB per entry, and about one branch per 1,000 entries. */
export function generateOptions(given: Partial<GenerateOptions>): GenerateOptions {
  const entries = given.entries ?? Math.max(10, Math.round((given.bytes ?? 1e6) / BYTES_PER_ENTRY));
  return {
    entries,
    bytes: given.bytes ?? entries * BYTES_PER_ENTRY,
    seed: given.seed ?? 1,
    branches: given.branches ?? Math.floor(entries / 1000),
  };
}

type Entry = Record<string, unknown>;

/** About how many tokens an entry adds to the requests after it (a compaction is reckoned where it is written). */
function contextTokens(type: string, fields: Entry): number {
  switch (type) {
    case "message":
      return tokensOf((fields["message"] as Entry)["content"] ?? "") + tokensOf((fields["message"] as Entry)["output"]);
    case "custom_message":
      return tokensOf(fields["content"]);
    case "branch_summary":
      return tokensOf(fields["summary"]);
    default:
      return 0;
  }
}

class SessionWriter {
  readonly rng: Rng;
  readonly factory: MessageFactory;
  readonly options: GenerateOptions;
  readonly #ids = new Set<string>();
  readonly #emitLine: (line: string) => void;
  /** Ids root → current leaf, and the path positions of its user messages and compactions. */
  path: string[] = [];
  /** For each path position, about how many tokens of messages a request made there would send (see `tokensOf`). */
  context: number[] = [];
  /** The last request's prompt and model: the next request of the same model finds that much in the cache. */
  lastPrompt = 0;
  lastModel: SessionModel | undefined;
  userPositions: number[] = [];
  compactionPositions: number[] = [];
  written = 0;
  bytes = 0;
  time = Date.UTC(2026, 0, 15, 9, 0, 0);
  model: SessionModel = SESSION_MODELS[0] as SessionModel;
  level = "medium";

  constructor(options: GenerateOptions, emitLine: (line: string) => void) {
    this.options = options;
    this.#emitLine = emitLine;
    this.rng = new Rng(options.seed);
    this.factory = new MessageFactory(this.rng, new TextPool(this.rng));
    // First guess until #tuneScale has data: ~600 bytes of structure and ~1,800 characters of text per entry.
    this.factory.scale = Math.max(0.02, (options.bytes / options.entries - 600) / 1800);
  }

  get done(): boolean {
    return this.written >= this.options.entries;
  }

  tick(): number {
    this.time += this.rng.int(200, 40000);
    return this.time;
  }

  header(): void {
    const id = `${this.rng.hex(8)}-${this.rng.hex(4)}-7${this.rng.hex(3)}-8${this.rng.hex(3)}-${this.rng.hex(12)}`;
    this.#write({
      type: "session",
      version: 3,
      id,
      timestamp: new Date(this.time).toISOString(),
      cwd: "/home/dev/context-lens",
    });
  }

  /** Appends an entry below the current leaf and makes it the leaf. */
  append(type: string, fields: Entry): string {
    let id = this.rng.hex(8);
    while (this.#ids.has(id)) id = this.rng.hex(8);
    this.#ids.add(id);
    const parentId = this.path.at(-1) ?? null;
    this.#write({ type, id, parentId, timestamp: new Date(this.tick()).toISOString(), ...fields });
    this.path.push(id);
    this.context.push((this.context.at(-1) ?? 0) + contextTokens(type, fields));
    this.written += 1;
    this.#tuneScale();
    return id;
  }

  message(message: Entry): string {
    if (message["role"] === "user") this.userPositions.push(this.path.length);
    return this.append("message", { message });
  }

  /** An assistant turn answering the request made at the current leaf, with that request's usage. */
  assistant(calls: readonly ToolCall[]): Entry {
    const prompt = SYSTEM_TOKENS + (this.context.at(-1) ?? 0);
    const cached = this.lastModel === this.model && this.lastPrompt <= prompt ? this.lastPrompt : 0;
    this.lastPrompt = prompt;
    this.lastModel = this.model;
    return this.factory.assistant(this.model, this.level, calls, this.tick(), prompt, cached);
  }

  /** Moves the leaf back to path position `position` (pi's /tree navigation); later entries stay in the file. */
  rewind(position: number): void {
    this.path.length = position + 1;
    this.context.length = position + 1;
    while ((this.userPositions.at(-1) ?? -1) > position) this.userPositions.pop();
    while ((this.compactionPositions.at(-1) ?? -1) > position) this.compactionPositions.pop();
  }

  #write(entry: Entry): void {
    const line = JSON.stringify(entry);
    this.bytes += Buffer.byteLength(line) + 1;
    this.#emitLine(line);
  }

  /** Sets the text scale so the remaining entries land on the remaining bytes. */
  #tuneScale(): void {
    const { factory, written, options } = this;
    if (written < 50 || factory.naturalChars === 0) return;
    const overhead = (this.bytes - factory.scaledChars) / written;
    const naturalPerEntry = factory.naturalChars / written;
    const wanted = (options.bytes - this.bytes) / Math.max(1, options.entries - written);
    factory.scale = Math.min(1000, Math.max(0.02, (wanted - overhead) / naturalPerEntry));
  }
}

/** One user prompt and the agent's work on it: assistant steps with tool calls and their results. */
function writeTurn(w: SessionWriter): void {
  w.message(w.factory.user(w.tick()));
  for (let step = 0; !w.done; step += 1) {
    const finalStep = step >= 12 || w.rng.chance(0.3);
    const calls = finalStep ? [] : w.factory.toolCalls(w.model, w.rng.chance(0.7) ? 1 : w.rng.int(2, 3), w.time);
    const assistant = w.assistant(calls);
    w.message(assistant);
    if (assistant["stopReason"] !== "toolUse") return;
    for (const call of calls) if (!w.done) w.message(w.factory.toolResult(call, w.tick()));
  }
}

/** Occasional entries between turns: settings, labels, extension entries, bash runs. */
function writeInterlude(w: SessionWriter): void {
  const { rng } = w;
  if (rng.chance(0.03)) w.append("model_change", pickModel(w));
  if (rng.chance(0.03)) w.append("thinking_level_change", { thinkingLevel: (w.level = rng.pick(LEVELS)) });
  if (rng.chance(0.03)) w.message(w.factory.bashExecution(w.tick()));
  if (rng.chance(0.02)) w.append("custom_message", w.factory.customMessage());
  if (rng.chance(0.02))
    w.append("custom", {
      customType: "model-snapshot",
      data: { provider: w.model.provider, modelId: w.model.modelId, timestamp: w.time },
    });
  if (rng.chance(0.01))
    w.append("label", {
      targetId: rng.pick(w.path),
      label: rng.chance(0.9) ? rng.pick(["checkpoint", "bug found", "good state"]) : undefined,
    });
  if (rng.chance(0.002)) w.append("session_info", { name: `Benchmark session ${w.options.seed}` });
}

function pickModel(w: SessionWriter): Entry {
  w.model = w.rng.pick(SESSION_MODELS);
  return { provider: w.model.provider, modelId: w.model.modelId };
}

/** Compacts the current path, keeping the last few turns (the first kept entry is a user message). */
function writeCompaction(w: SessionWriter): boolean {
  const since = w.compactionPositions.at(-1) ?? -1;
  const candidates = w.userPositions.filter((p) => p > since);
  if (candidates.length < 2) return false;
  const kept = candidates[Math.max(1, candidates.length - w.rng.int(1, 3))] as number;
  const details = {
    readFiles: ["src/core/session/load.ts", "README.md"],
    modifiedFiles: ["src/core/session/lines.ts"],
  };
  w.compactionPositions.push(w.path.length);
  const before = w.context.at(-1) ?? 0;
  const summary = w.factory.text(3000, 0.5);
  w.append("compaction", { summary, firstKeptEntryId: w.path[kept], tokensBefore: SYSTEM_TOKENS + before, details });
  // From here on a request sends the summary and the kept entries, not what came before them.
  w.context[w.context.length - 1] = tokensOf(summary) + before - (w.context[kept - 1] ?? 0);
  return true;
}

/** Goes back to just before one of the last few user messages (to redo a prompt) and, half the time, summarises the branch left. */
function writeBranchPoint(w: SessionWriter): void {
  const recent = w.userPositions.slice(-6).filter((p) => p > 0);
  if (recent.length === 0) return;
  const target = (w.rng.pick(recent) as number) - 1;
  w.rewind(target);
  if (w.rng.chance(0.5)) {
    const fromId = w.path[target] as string;
    w.append("branch_summary", {
      fromId,
      summary: w.factory.text(1000, 0.5),
      details: { readFiles: [], modifiedFiles: [] },
    });
  }
}

/** Writes the session line by line through `emitLine` (each line without its "\n"). */
export function writeSession(options: GenerateOptions, emitLine: (line: string) => void): void {
  const w = new SessionWriter(options, emitLine);
  const compactions = options.entries >= 400 ? Math.max(1, Math.round(options.entries / 3000)) : 0;
  let branchesDone = 0;
  let compactionsDone = 0;
  w.header();
  w.append("model_change", { provider: w.model.provider, modelId: w.model.modelId });
  w.append("thinking_level_change", { thinkingLevel: w.level });
  while (!w.done) {
    if (
      branchesDone < options.branches &&
      w.written >= ((branchesDone + 1) * options.entries) / (options.branches + 1)
    ) {
      writeBranchPoint(w);
      branchesDone += 1;
    } else if (
      compactionsDone < compactions &&
      w.written >= ((compactionsDone + 0.7) * options.entries) / compactions
    ) {
      if (writeCompaction(w)) compactionsDone += 1;
    }
    if (!w.done) writeInterlude(w);
    if (!w.done) writeTurn(w);
  }
}

/** The whole session as text (lines joined by "\n", ending in one). */
export function generateSession(options: GenerateOptions): string {
  const lines: string[] = [];
  writeSession(options, (line) => lines.push(line));
  return `${lines.join("\n")}\n`;
}

export function generateSessionBytes(options: GenerateOptions): Uint8Array {
  return new TextEncoder().encode(generateSession(options));
}

function parseArgs(argv: readonly string[]): Partial<GenerateOptions> {
  const out: Record<string, number> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i]?.replace(/^--/, "") ?? "";
    const value = Number(argv[i + 1]);
    if (!["entries", "bytes", "seed", "branches"].includes(name) || !Number.isFinite(value)) {
      throw new Error(
        `unknown option or value: ${argv[i]} ${argv[i + 1] ?? ""} (use --entries N --bytes N --seed N --branches N)`,
      );
    }
    out[name] = value;
  }
  return out;
}

async function main(): Promise<void> {
  const options = generateOptions(parseArgs(process.argv.slice(2)));
  const chunks: string[] = [];
  let batch: string[] = [];
  let size = 0;
  writeSession(options, (line) => {
    batch.push(line);
    size += line.length + 1;
    if (size < 1 << 20) return;
    chunks.push(`${batch.join("\n")}\n`);
    batch = [];
    size = 0;
  });
  if (batch.length > 0) chunks.push(`${batch.join("\n")}\n`);
  for (const chunk of chunks) if (!process.stdout.write(chunk)) await once(process.stdout, "drain");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`generate-session: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
