/**
 * Differential tests: the shared helpers of `common.ts` against the pi-ai 0.73.1 functions they copy, and the two
 * places where merging picked one of several differing copies (surrogates, level clamping) end to end.
 * pi-ai's package `exports` hide `utils/` and `providers/simple-options`, so those are imported by path.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Api, Model } from "@mariozechner/pi-ai";
import { clampThinkingLevel as piClampThinkingLevel, getSupportedThinkingLevels } from "@mariozechner/pi-ai";
import {
  adjustMaxTokensForThinking as piAdjustMaxTokensForThinking,
  buildBaseOptions,
} from "../../node_modules/@mariozechner/pi-ai/dist/providers/simple-options.js";
import { shortHash as piShortHash } from "../../node_modules/@mariozechner/pi-ai/dist/utils/hash.js";
import { sanitizeSurrogates as piSanitizeSurrogates } from "../../node_modules/@mariozechner/pi-ai/dist/utils/sanitize-unicode.js";
import { allReferenceModels } from "../reference/pi.ts";
import { referenceLoad, referenceSessionPayload } from "../reference/pi-session.ts";
import { header, session, thinkingChange, user } from "../support/build.ts";
import { ourPayload, ourSession } from "../support/ours.ts";
import type { ModelInfo, ThinkingLevel } from "../../src/core/llm/types.ts";
import {
  adjustMaxTokensForThinking,
  clampThinkingLevel,
  defaultMaxTokens,
  sanitizeSurrogates,
  shortHash,
  supportedThinkingLevels,
} from "../../src/core/providers/common.ts";

const LEVELS: readonly ThinkingLevel[] = ["minimal", "low", "medium", "high", "xhigh"];
/** Levels a session may name although pi-ai does not know them (entries failing validation are kept). */
const UNKNOWN_LEVELS = ["ultra", "HIGH", "off"] as unknown as readonly ThinkingLevel[];

/** Every string of up to `length` units over `alphabet`. */
function* allStrings(alphabet: readonly string[], length: number, prefix = ""): Generator<string> {
  yield prefix;
  if (length > 0) for (const unit of alphabet) yield* allStrings(alphabet, length - 1, prefix + unit);
}

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

describe("sanitizeSurrogates", () => {
  it("matches pi-ai on every string of up to 6 units over letters, high and low surrogates", () => {
    const alphabet = ["a", "\uD800", "\uDBFF", "\uD83D", "\uDC00", "\uDFFF", "\uDE48"];
    let checked = 0;
    for (const text of allStrings(alphabet, 6)) {
      if (sanitizeSurrogates(text) !== piSanitizeSurrogates(text)) expect.fail(`differs for ${JSON.stringify(text)}`);
      checked++;
    }
    expect(checked).toBe(137_257);
  });

  it("matches pi-ai on random UTF-16 code unit strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: anyCodeUnit, maxLength: 64 }), (text) => {
        expect(sanitizeSurrogates(text)).toBe(piSanitizeSurrogates(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("throws a TypeError for a value that is not a string, as pi-ai does", () => {
    for (const value of [undefined, null, 5, {}, ["\uD800"]]) {
      expect(() => piSanitizeSurrogates(value as string)).toThrow(TypeError);
      expect(() => sanitizeSurrogates(value as string)).toThrow(TypeError);
    }
  });
});

describe("shortHash", () => {
  it("matches pi-ai", () => {
    fc.assert(
      fc.property(fc.string({ unit: anyCodeUnit }), (text) => {
        expect(shortHash(text)).toBe(piShortHash(text));
      }),
    );
  });
});

describe("thinking levels", () => {
  const mapValue = fc.constantFrom(undefined, null, "low", "max");
  const syntheticModel = fc.record({
    reasoning: fc.boolean(),
    thinkingLevelMap: fc.option(
      fc.record({ off: mapValue, minimal: mapValue, low: mapValue, medium: mapValue, high: mapValue, xhigh: mapValue }),
      { nil: undefined },
    ),
  });

  it("supported levels and clamping match pi-ai for every registry model and level", () => {
    for (const model of allReferenceModels()) {
      const ours = model as unknown as ModelInfo;
      expect(supportedThinkingLevels(ours)).toEqual(getSupportedThinkingLevels(model));
      for (const level of [...LEVELS, ...UNKNOWN_LEVELS]) {
        expect(clampThinkingLevel(ours, level), `${model.provider}/${model.id} ${level}`).toBe(
          piClampThinkingLevel(model, level),
        );
      }
    }
  });

  it("supported levels and clamping match pi-ai for any thinkingLevelMap", () => {
    fc.assert(
      fc.property(syntheticModel, fc.constantFrom(...LEVELS, ...UNKNOWN_LEVELS), (model, level) => {
        const pi = model as unknown as Model<Api>;
        expect(supportedThinkingLevels(model as unknown as ModelInfo)).toEqual(getSupportedThinkingLevels(pi));
        expect(clampThinkingLevel(model as unknown as ModelInfo, level)).toBe(piClampThinkingLevel(pi, level));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("output budgets", () => {
  const maxTokens = fc.oneof(fc.integer({ min: -5, max: 300_000 }), fc.constantFrom(0, 1024, 32_000, 32_001));

  it("defaultMaxTokens is buildBaseOptions' maxTokens", () => {
    fc.assert(
      fc.property(maxTokens, (max) => {
        const model = { maxTokens: max } as ModelInfo;
        expect(defaultMaxTokens(model)).toBe(buildBaseOptions(model as unknown as Model<Api>).maxTokens);
      }),
    );
  });

  it("adjustMaxTokensForThinking matches pi-ai's with its default budgets", () => {
    fc.assert(
      fc.property(maxTokens, maxTokens, fc.constantFrom(...LEVELS), (base, modelMax, level) => {
        expect(adjustMaxTokensForThinking(base, modelMax, level)).toEqual(
          piAdjustMaxTokensForThinking(base, modelMax, level),
        );
      }),
    );
  });
});

/** APIs whose builders used a `sanitizeSurrogates` copy that returned non-strings instead of throwing. */
const LOOP_SANITIZER_APIS = [
  "openai-responses",
  "openai-codex-responses",
  "azure-openai-responses",
  "bedrock-converse-stream",
  "mistral-conversations",
];
/** APIs whose builders used a `clampThinkingLevel` copy without pi-ai's unknown-level rule. */
const LOOSE_CLAMP_APIS = [
  "openai-responses",
  "openai-codex-responses",
  "azure-openai-responses",
  "mistral-conversations",
  "google-generative-ai",
  "google-vertex",
];

/** Our payload or error matches pi's, at the last entry, for every registry model of the given APIs. */
async function expectSameAsPi(text: string, apis: readonly string[]): Promise<void> {
  const tree = ourSession(text);
  const reference = referenceLoad(text);
  const leaf = tree.entries.at(-1)?.index ?? 0;
  const models = allReferenceModels().filter((model) => apis.includes(model.api));
  expect(models.length).toBeGreaterThan(100);
  for (const model of models) {
    const name = `${model.provider}/${model.id}`;
    const ours = ourPayload(tree, leaf, name);
    const theirs = await referenceSessionPayload(reference, { model: name });
    if ("error" in theirs) expect(ours, name).toHaveProperty("error");
    else expect(ours, name).toEqual({ payload: theirs.payload });
  }
}

describe("end to end, where the merged copies differed", () => {
  it("a text block whose text is not a string fails as in pi-ai", async () => {
    for (const bad of [5, null, { text: "x" }]) {
      await expectSameAsPi(session(header(), user("u", null, [{ type: "text", text: bad }])), LOOP_SANITIZER_APIS);
    }
  });

  it("a thinking level pi-ai does not know is clamped as in pi-ai", async () => {
    await expectSameAsPi(session(header(), thinkingChange("t", null, "ultra"), user("u", "t")), LOOSE_CLAMP_APIS);
  });
});
