/**
 * Model families and their fixed coefficients: how a family's real token count relates to the two vocabularies
 * we can run, what one message costs in framing, how images are priced, and which earlier thinking it keeps.
 * The numbers are fitted on real sessions by `npm run tokens:accuracy -- --fit` (see TOKENS.md).
 */
import type { ImagePricing } from "./image.ts";
import type { TokenizerName } from "./tokenizer.ts";

export type FamilyId =
  "claude" | "openai" | "kimi" | "deepseek" | "qwen" | "glm" | "minimax" | "gemini" | "mistral" | "other";

export interface FamilyCoefficients {
  /** Tokens per o200k token. */
  readonly o200k: number;
  /** Tokens per legacy-Claude token. */
  readonly claude: number;
  /** Tokens of framing per payload item (role markers, block separators). */
  readonly framing: number;
  /** Multiplier on tool-call arguments (rendered unescaped) relative to other text. */
  readonly toolArgs: number;
  /** Multiplier on visible thinking text the model reads back. */
  readonly thinking: number;
  /** Hidden reasoning tokens per character of encrypted reasoning (signatures, encrypted_content). */
  readonly opaque: number;
}

export interface Family {
  readonly id: FamilyId;
  readonly coefficients: FamilyCoefficients;
  readonly images: ImagePricing;
  /** Whether this model reads the thinking of turns before the last user message (else only the current tool loop). */
  readonly keepsEarlierThinking: boolean;
}

/**
 * Fitted on ../shared/corpus (1,585 turns of 33 sessions) by `npm run tokens:accuracy -- --fit`, which also
 * reports how well coefficients fitted without a repository do on it. Families without sessions of their own
 * (glm, gemini, mistral, other) take the fit of all o200k families pooled.
 */
export const FAMILY_COEFFICIENTS: Readonly<Record<FamilyId, FamilyCoefficients>> = {
  claude: { o200k: 0, claude: 1.07, framing: 31.203, toolArgs: 1.025, thinking: 0, opaque: 0.21 },
  openai: { o200k: 0.956, claude: 0, framing: 12.986, toolArgs: 1.105, thinking: 0, opaque: 0.161 },
  kimi: { o200k: 0.994, claude: 0, framing: 9.504, toolArgs: 1.266, thinking: 0.814, opaque: 0.002 },
  deepseek: { o200k: 1.089, claude: 0, framing: 0, toolArgs: 1.589, thinking: 0.786, opaque: 0 },
  qwen: { o200k: 1.009, claude: 0, framing: 5.637, toolArgs: 1.251, thinking: 1.121, opaque: 0 },
  glm: { o200k: 1.009, claude: 0, framing: 5.637, toolArgs: 1.251, thinking: 1.121, opaque: 0 },
  minimax: { o200k: 0.934, claude: 0, framing: 5.243, toolArgs: 2.348, thinking: 0.977, opaque: 0 },
  gemini: { o200k: 1.009, claude: 0, framing: 5.637, toolArgs: 1.251, thinking: 1.121, opaque: 0 },
  mistral: { o200k: 1.009, claude: 0, framing: 5.637, toolArgs: 1.251, thinking: 1.121, opaque: 0 },
  other: { o200k: 1.009, claude: 0, framing: 5.637, toolArgs: 1.251, thinking: 1.121, opaque: 0 },
};

const PATTERNS: readonly (readonly [FamilyId, RegExp])[] = [
  ["claude", /claude|anthropic/i],
  ["openai", /(^|[/.:-])(gpt|o[1-9]|codex|chatgpt)/i],
  ["kimi", /kimi|moonshot|(^|[/-])k2/i],
  ["deepseek", /deepseek/i],
  ["qwen", /qwen|qwq/i],
  ["glm", /glm|zhipu|z-ai/i],
  ["minimax", /minimax/i],
  ["gemini", /gemini|gemma/i],
  ["mistral", /mistral|devstral|codestral|magistral|ministral/i],
];

/** Claude keeps earlier turns' thinking from Opus 4.5 and the 4.6 generation on; Sonnet/Haiku 4.5 and older do not. */
function claudeKeepsThinking(modelId: string): boolean {
  // "claude-opus-4-5-20251101", "us.anthropic.claude-opus-4-6-v1"; "claude-3-7-sonnet" (older naming) never matches.
  const m = /(opus|sonnet|haiku)-(\d+)(?:-(\d)(?!\d))?/i.exec(modelId);
  if (!m) return false;
  const version = Number(m[2]) + Number(m[3] ?? 0) / 10;
  return version >= 4.6 || (m[1]?.toLowerCase() === "opus" && version >= 4.5);
}

/** The family of a model, from its id (and provider, for ids that say little). */
export function familyOf(modelId: string, provider = ""): Family {
  const id = (PATTERNS.find(([, pattern]) => pattern.test(modelId))?.[0] ??
    PATTERNS.find(([, pattern]) => pattern.test(provider))?.[0] ??
    "other") as FamilyId;
  const images: ImagePricing = id === "openai" ? "openai" : id === "gemini" ? "google" : "anthropic";
  const keepsEarlierThinking = id === "claude" ? claudeKeepsThinking(modelId) : id === "deepseek";
  return { id, coefficients: FAMILY_COEFFICIENTS[id], images, keepsEarlierThinking };
}

/** The vocabularies a family's estimate needs (the UI loads only these). */
export function tokenizersFor(family: Family): TokenizerName[] {
  const names: TokenizerName[] = [];
  if (family.coefficients.o200k !== 0) names.push("o200k");
  if (family.coefficients.claude !== 0) names.push("claude");
  return names;
}

/** The vocabulary a family is fitted on: the legacy Claude one for Claude, o200k for everyone else. */
export const familyVocabulary = (family: FamilyId): "o200k" | "claude" => (family === "claude" ? "claude" : "o200k");
