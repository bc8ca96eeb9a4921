/**
 * Request bodies for the payload harness: a small Anthropic body whose items the spec knows by heart (an image,
 * a long tool output, hostile text, items from two entries and from none), and a 2,000-message body of about
 * 20 MB to prove the view stays fast and renders a bounded number of rows.
 */

export interface PayloadFixture {
  readonly body: Record<string, unknown>;
  readonly listKey: "messages" | "input" | "contents";
  readonly itemSources: readonly (readonly number[])[];
  readonly itemTokens: readonly (number | undefined)[];
}

/** Strings that would run script if the view rendered payload text as HTML. */
export const HOSTILE_TEXT = [
  "<img src=x onerror=\"window.__pwned='img'\">",
  "<script>window.__pwned='script'</script>",
  "<svg onload=\"window.__pwned='svg'\"></svg>",
].join(" ");

/** A 1×1 PNG, repeated to make image data of a known size. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
/** 43 KB of base64 (decoded): 58,712 characters. */
export const IMAGE_DATA = "A".repeat(58_712);

const text = (t: string) => ({ type: "text", text: t });
const toolUse = (id: string, name: string, input: Record<string, unknown>) => ({ type: "tool_use", id, name, input });
const toolResult = (id: string, content: string) => ({
  type: "tool_result",
  tool_use_id: id,
  content,
  is_error: false,
});

/** 12 messages (more than the view unfolds by default). Item i came from entry i + 1, except where noted. */
export function smallFixture(): PayloadFixture {
  const longOutput = Array.from({ length: 40 }, (_, i) => `line ${i + 1}: ok`).join("\n") + "\nEND-OF-OUTPUT";
  const messages = [
    { role: "user", content: "Fix the failing test in src/parser.ts please" },
    { role: "assistant", content: [text("Let me read it."), toolUse("toolu_1", "read", { path: "src/parser.ts" })] },
    { role: "user", content: [toolResult("toolu_1", longOutput)] },
    {
      role: "user",
      content: [
        text("Here is a screenshot"),
        { type: "image", source: { type: "base64", media_type: "image/png", data: IMAGE_DATA } },
      ],
    },
    { role: "assistant", content: [text(HOSTILE_TEXT)] },
    { role: "user", content: [{ type: "text", text: "tricky key", [HOSTILE_TEXT]: "<b>bold?</b>" }] },
    { role: "assistant", content: "Found the off-by-one." },
    { role: "user", content: [toolResult("toolu_2", "(synthetic) No result provided")] },
    { role: "user", content: "Run the tests" },
    { role: "assistant", content: [toolUse("toolu_3", "bash", { command: "npm test" })] },
    { role: "user", content: [toolResult("toolu_3", "3 passed")] },
    {
      role: "assistant",
      content: [text("All green."), { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }],
    },
  ];
  const itemSources = messages.map((_, i) => [i + 1]);
  itemSources[6] = [7, 8]; // two entries merged into one item
  itemSources[7] = []; // a synthetic tool result: no entry
  return {
    body: {
      model: "claude-sonnet-4-5",
      messages,
      max_tokens: 8192,
      stream: true,
      system: [{ type: "text", text: "You are a careful coding agent." }],
      tools: [
        {
          name: "read",
          description: "Read a file",
          input_schema: { type: "object", properties: { path: { type: "string" } } },
        },
        {
          name: "bash",
          description: "Run a command",
          input_schema: { type: "object", properties: { command: { type: "string" } } },
        },
      ],
    },
    listKey: "messages",
    itemSources,
    itemTokens: messages.map((_, i) => (i === 3 ? undefined : 100 + i * 10)),
  };
}

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = "the parser test fails because an index is off by one so we read the file and fix the loop".split(" ");

/** `count` messages of about `bytesEach` characters: user turns, tool calls, long tool outputs, some images. */
export function largeFixture(count: number, bytesEach: number): PayloadFixture {
  const rnd = random(7);
  /** About `chars` characters of words. */
  const prose = (chars: number) => {
    const words: string[] = [];
    for (let n = 0; n < chars;) {
      const word = WORDS[Math.floor(rnd() * WORDS.length)]!;
      words.push(word);
      n += word.length + 1;
    }
    return words.join(" ");
  };
  // On average `bytesEach` per message: short user turns and assistant calls, long tool outputs.
  const messages = Array.from({ length: count }, (_, i) => {
    if (i % 100 === 99)
      return {
        role: "user",
        content: [
          text(`screenshot ${i}`),
          { type: "image", source: { type: "base64", media_type: "image/png", data: "B".repeat(bytesEach) } },
        ],
      };
    if (i % 3 === 0) return { role: "user", content: `Turn ${i}: ${prose(bytesEach / 4)}` };
    if (i % 3 === 1)
      return {
        role: "assistant",
        content: [text(prose(bytesEach / 4)), toolUse(`t${i}`, "bash", { command: `npm test -- ${i}` })],
      };
    return { role: "user", content: [toolResult(`t${i - 1}`, prose((bytesEach * 5) / 2))] };
  });
  return {
    body: { model: "claude-sonnet-4-5", messages, max_tokens: 8192, stream: true },
    listKey: "messages",
    itemSources: messages.map((_, i) => [i]),
    itemTokens: messages.map((_, i) => 50 + (i % 17) * 40),
  };
}
