/** The prompt size of a recorded request, as TOKENS.md defines it across pi versions. */
import { describe, expect, it } from "vitest";
import { promptTokens, recordedRequest } from "../../src/core/tokens/usage.ts";

const at = (iso: string) => Date.parse(iso);

describe("promptTokens", () => {
  it("is totalTokens − output whenever totalTokens is recorded", () => {
    expect(
      promptTokens(
        { input: 3, output: 200, cacheRead: 9000, cacheWrite: 500, totalTokens: 9703 },
        "anthropic-messages",
        undefined,
      ),
    ).toBe(9503);
    // Google reports totalTokenCount itself; input was uncached or not, the difference is the prompt.
    expect(
      promptTokens(
        { input: 1000, output: 50, cacheRead: 4000, totalTokens: 5050 },
        "google-generative-ai",
        at("2026-01-01"),
      ),
    ).toBe(5000);
  });

  it("adds input, cacheRead and cacheWrite when totalTokens is missing (older pi)", () => {
    expect(
      promptTokens(
        { input: 5, output: 316, cacheRead: 16728, cacheWrite: 2887 },
        "anthropic-messages",
        at("2025-11-20"),
      ),
    ).toBe(19620);
    expect(
      promptTokens(
        { input: 5, output: 316, cacheRead: 16728, cacheWrite: 2887, totalTokens: 0 },
        "anthropic-messages",
        undefined,
      ),
    ).toBe(19620);
  });

  it("takes input alone for OpenAI files written before pi-ai 0.12.7, whose input already held cached tokens", () => {
    const old = { input: 12000, output: 80, cacheRead: 11000, cacheWrite: 0 };
    expect(promptTokens(old, "openai-responses", at("2025-11-20T10:00:00Z"))).toBe(12000);
    expect(promptTokens(old, "openai-completions", at("2025-12-02T23:59:59Z"))).toBe(12000);
    expect(promptTokens(old, "openai-responses", at("2025-12-04T00:00:00Z"))).toBe(23000);
  });

  it("takes input alone for Google files written before pi-ai 0.63.0", () => {
    const old = { input: 8000, output: 80, cacheRead: 6000, cacheWrite: 0 };
    expect(promptTokens(old, "google-generative-ai", at("2026-02-01"))).toBe(8000);
    expect(promptTokens(old, "google-vertex", at("2026-02-01"))).toBe(8000);
    expect(promptTokens(old, "google-generative-ai", at("2026-05-01"))).toBe(14000);
  });

  it("ignores fields that are not numbers", () => {
    expect(
      promptTokens(
        { input: "12", output: null, cacheRead: 7, totalTokens: undefined },
        "anthropic-messages",
        undefined,
      ),
    ).toBe(7);
  });
});

describe("recordedRequest", () => {
  const good = {
    role: "assistant",
    api: "anthropic-messages",
    provider: "anthropic",
    stopReason: "toolUse",
    timestamp: at("2026-01-01"),
  };
  const usage = { input: 10, output: 5, cacheRead: 100, cacheWrite: 0, totalTokens: 115 };

  it("measures a finished turn", () => {
    expect(recordedRequest({ ...good, usage })).toEqual({ ok: true, prompt: 110, output: 5 });
    expect(recordedRequest({ ...good, stopReason: "length", usage })).toEqual({ ok: true, prompt: 110, output: 5 });
  });

  it("skips errored and aborted turns, zero usage, missing usage and truncating local servers", () => {
    expect(recordedRequest({ ...good, stopReason: "error", usage }).ok).toBe(false);
    expect(recordedRequest({ ...good, stopReason: "aborted", usage }).ok).toBe(false);
    expect(
      recordedRequest({ ...good, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 } }).ok,
    ).toBe(false);
    expect(recordedRequest({ ...good }).ok).toBe(false);
    expect(recordedRequest({ ...good, provider: "ollama", usage })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("ollama"),
    });
    expect(recordedRequest({ role: "user", usage }).ok).toBe(false);
  });

  it("uses the entry's time when the message has none (string timestamps too)", () => {
    const old = { input: 12000, output: 80, cacheRead: 11000, cacheWrite: 0 };
    const message = { role: "assistant", api: "openai-responses", provider: "openai", stopReason: "stop", usage: old };
    expect(recordedRequest(message, "2025-11-01T00:00:00Z")).toEqual({ ok: true, prompt: 12000, output: 80 });
    expect(recordedRequest(message, "2026-01-01T00:00:00Z")).toEqual({ ok: true, prompt: 23000, output: 80 });
  });
});
