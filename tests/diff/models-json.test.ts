/**
 * Differential tests: `readModelsJson` against pi-coding-agent 0.73.1's own `ModelRegistry` reading the same
 * models.json (custom providers, built-in overrides, comments, every rule it refuses), and the payloads of the
 * custom models against the bodies pi-ai builds for pi's model objects.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AuthStorage, ModelRegistry } from "@mariozechner/pi-coding-agent";
import type { Api, Context, Model } from "@mariozechner/pi-ai";
import type { LlmMessage, ModelInfo } from "../../src/core/llm/types.ts";
import { readModelsJson } from "../../src/core/models/models-json.ts";
import { builtInModels } from "../../src/core/models/registry.ts";
import { buildPayload } from "../../src/core/providers/index.ts";
import { referencePayload } from "../reference/pi.ts";

for (const name of ["PI_CACHE_RETENTION", "CLOUDFLARE_ACCOUNT_ID", "CLOUDFLARE_GATEWAY_ID"]) delete process.env[name];

const dir = mkdtempSync(join(tmpdir(), "models-json-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** pi's registry after reading `text` as its models.json: every model, and the error it reports. */
function piRegistry(text: string, file = "models.json") {
  const path = join(dir, file);
  writeFileSync(path, text);
  const registry = ModelRegistry.create(AuthStorage.inMemory(), path);
  return { models: registry.getAll() as unknown as ModelInfo[], error: registry.getError() };
}

/** JSON's view of a value: fields that are undefined are not sent, so are not compared. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const FILES: Record<string, string> = {
  "a local Ollama with defaults and one model described in full": `{
    "providers": {
      "ollama": {
        "baseUrl": "http://localhost:11434/v1",
        "api": "openai-completions",
        "apiKey": "ollama",
        "models": [
          { "id": "qwen3.5:latest" },
          {
            "id": "qwen3-vl:8b", "name": "Qwen3 VL", "reasoning": true, "input": ["text", "image"],
            "contextWindow": 32768, "maxTokens": 8192,
            "cost": { "input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0 },
            "compat": { "thinkingFormat": "qwen", "supportsDeveloperRole": false, "maxTokensField": "max_tokens" }
          }
        ]
      }
    }
  }`,
  "comments and trailing commas, as pi allows": `{
    // a gateway in front of everything
    "providers": {
      "gateway": {
        "baseUrl": "https://llm.example.com/v1", // not a comment: "http://x"
        "api": "openai-responses",
        "apiKey": "GATEWAY_KEY",
        "models": [{ "id": "team/gpt-5-mini", "reasoning": true, "input": ["text", "image"], },],
      },
    },
  }`,
  "built-in providers overridden: a base URL, compat, and one model's fields": `{
    "providers": {
      "anthropic": {
        "baseUrl": "https://proxy.example.com/anthropic",
        "modelOverrides": {
          "claude-sonnet-4-5": { "maxTokens": 4096, "cost": { "input": 1 }, "name": "Sonnet via proxy" }
        }
      },
      "openrouter": {
        "compat": { "openRouterRouting": { "only": ["anthropic"] } },
        "modelOverrides": { "openai/gpt-4o": { "compat": { "openRouterRouting": { "sort": "price" } } } }
      }
    }
  }`,
  "custom models on built-in providers: one new, one replacing a built-in": `{
    "providers": {
      "openai": {
        "models": [
          { "id": "gpt-5.1-codex-internal", "reasoning": true, "maxTokens": 64000 },
          { "id": "gpt-4o", "name": "gpt-4o (own limits)", "maxTokens": 1000, "input": ["text"] }
        ]
      }
    }
  }`,
  "provider compat merged with a model's, thinking level maps": `{
    "providers": {
      "vllm": {
        "baseUrl": "http://gpu-box:8000/v1",
        "api": "openai-completions",
        "apiKey": "none",
        "compat": { "supportsStore": false, "openRouterRouting": { "order": ["a"] } },
        "models": [
          {
            "id": "deepseek-r1", "reasoning": true,
            "thinkingLevelMap": { "minimal": null, "xhigh": "high" },
            "compat": { "thinkingFormat": "deepseek", "openRouterRouting": { "only": ["b"] } }
          },
          { "id": "llama", "api": "anthropic-messages", "baseUrl": "http://gpu-box:9000" }
        ]
      }
    }
  }`,
};

describe("readModelsJson against pi's ModelRegistry", () => {
  it.each(Object.entries(FILES))("reads %s as pi does", (_, text) => {
    const pi = piRegistry(text);
    expect(pi.error).toBeUndefined();
    const ours = readModelsJson(text, builtInModels());
    if (!ours.ok) throw new Error(ours.error);
    expect(plain(ours.value.models)).toEqual(plain(pi.models));
    const builtIn = new Set(builtInModels().map((m) => `${m.provider}/${m.id}`));
    for (const model of ours.value.custom) expect(pi.models).toContainEqual(expect.objectContaining({ id: model.id }));
    if (ours.value.custom.every((m) => !builtIn.has(`${m.provider}/${m.id}`))) {
      expect(ours.value.models.length).toBe(builtInModels().length + ours.value.custom.length);
    }
  });

  it("counts the built-in models a file changes", () => {
    const ours = readModelsJson(
      FILES["built-in providers overridden: a base URL, compat, and one model's fields"]!,
      builtInModels(),
    );
    if (!ours.ok) throw new Error(ours.error);
    const changed = builtInModels().filter((m) => m.provider === "anthropic" || m.provider === "openrouter").length;
    expect(ours.value.overridden).toBe(changed);
    expect(ours.value.custom).toEqual([]);
  });

  const REFUSED: Record<string, { text: string; says: string }> = {
    "not JSON": { text: `{"providers": {`, says: "it is not JSON" },
    "no providers": { text: `{}`, says: "providers" },
    "a model without an id": {
      text: `{"providers": {"x": {"baseUrl": "http://x", "api": "openai-completions", "apiKey": "k", "models": [{}]}}}`,
      says: "providers.x.models.0.id",
    },
    "an input pi does not know": {
      text: `{"providers": {"x": {"baseUrl": "http://x", "api": "openai-completions", "apiKey": "k", "models": [{"id": "m", "input": ["audio"]}]}}}`,
      says: "providers.x.models.0.input.0",
    },
    "a provider that says nothing": {
      text: `{"providers": {"x": {}}}`,
      says: 'Provider x: must specify "baseUrl", "headers", "compat", "modelOverrides", or "models".',
    },
    "custom models without a base URL": {
      text: `{"providers": {"x": {"api": "openai-completions", "apiKey": "k", "models": [{"id": "m"}]}}}`,
      says: 'Provider x: "baseUrl" is required when defining custom models.',
    },
    "custom models without an API key": {
      text: `{"providers": {"x": {"baseUrl": "http://x", "api": "openai-completions", "models": [{"id": "m"}]}}}`,
      says: 'Provider x: "apiKey" is required when defining custom models.',
    },
    "a custom model without an api": {
      text: `{"providers": {"x": {"baseUrl": "http://x", "apiKey": "k", "models": [{"id": "m"}]}}}`,
      says: 'Provider x, model m: no "api" specified. Set at provider or model level.',
    },
    "a context window of 0": {
      text: `{"providers": {"x": {"baseUrl": "http://x", "api": "openai-completions", "apiKey": "k", "models": [{"id": "m", "contextWindow": 0}]}}}`,
      says: "Provider x, model m: invalid contextWindow",
    },
  };

  it.each(Object.entries(REFUSED))("refuses %s, as pi does, saying what is wrong", (_, { text, says }) => {
    const pi = piRegistry(text);
    expect(pi.error).toBeDefined();
    const ours = readModelsJson(text, builtInModels());
    expect(ours.ok).toBe(false);
    if (!ours.ok) expect(ours.error).toContain(says);
    if (says.startsWith("Provider ")) expect(pi.error).toContain(says);
  });
});

describe("payloads of custom and overridden models", () => {
  const text = [
    FILES["a local Ollama with defaults and one model described in full"]!,
    FILES["provider compat merged with a model's, thinking level maps"]!,
    FILES["built-in providers overridden: a base URL, compat, and one model's fields"]!,
    FILES["custom models on built-in providers: one new, one replacing a built-in"]!,
    // pi-ai tells OpenRouter and others apart by base URL: behind a proxy, their quirks go.
    `{"providers": {"openrouter": {"baseUrl": "https://llm-proxy.example.com/v1"}, "xai": {"baseUrl": "https://x.example.com/v1"}}}`,
  ];
  const builtIn = new Set(builtInModels());
  /** The custom models, and a few of each provider's overridden built-in ones (the named ones first). */
  const changedModels = (models: readonly ModelInfo[]) => {
    const perProvider = new Map<string, number>();
    return models.filter((m) => {
      if (builtIn.has(m)) return false;
      const seen = perProvider.get(m.provider) ?? 0;
      perProvider.set(m.provider, seen + 1);
      return seen < 3 || m.id === "openai/gpt-4o" || m.id === "claude-sonnet-4-5";
    });
  };
  const messages: LlmMessage[] = [
    { role: "user", content: "What is in the screenshot? Then list the files.", timestamp: 1 },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Look first.", thinkingSignature: "reasoning_content" },
        { type: "toolCall", id: "call_1", name: "ls", arguments: { path: "." } },
      ],
      api: "openai-completions",
      provider: "ollama",
      model: "qwen3-vl:8b",
      stopReason: "toolUse",
      timestamp: 2,
    } as LlmMessage,
    {
      role: "toolResult",
      toolCallId: "call_1",
      toolName: "ls",
      content: [
        { type: "text", text: "a.ts\nb.ts" },
        { type: "image", data: "aW1n", mimeType: "image/png" },
      ],
      isError: false,
      timestamp: 3,
    },
    {
      role: "user",
      content: [
        { type: "text", text: "and this" },
        { type: "image", data: "aW1n", mimeType: "image/png" },
      ],
      timestamp: 4,
    },
  ];

  for (const file of text) {
    const pi = piRegistry(file, "payload-models.json");
    const ours = readModelsJson(file, builtInModels());
    if (!ours.ok) throw new Error(ours.error);
    for (const model of changedModels(ours.value.models)) {
      for (const reasoning of [undefined, "high"] as const) {
        it(`builds ${model.provider}/${model.id} (${reasoning ?? "no thinking"}) as pi-ai does`, async () => {
          const theirs = pi.models.find((m) => m.provider === model.provider && m.id === model.id)!;
          const expected = await referencePayload(theirs as unknown as Model<Api>, { messages } as unknown as Context, {
            reasoning,
            sessionId: "sess-custom",
          });
          const built = buildPayload(model, { messages, reasoning, sessionId: "sess-custom" });
          if ("error" in expected) {
            expect(built.ok).toBe(false);
            return;
          }
          if (!built.ok) throw new Error(built.error);
          expect(plain(built.value.body)).toEqual(plain(expected.payload));
        });
      }
    }
  }
});
