/**
 * Stage 8 (Gemini half): pi-ai's `google-shared.js` — how the transformed messages become Gemini `contents` and
 * how tools become `functionDeclarations`. Shared by the `google-generative-ai` and `google-vertex` builders,
 * exactly as in pi-ai. Unlike pi-ai, every content records which input messages produced it.
 */
import type {
  AssistantMessage,
  ImageContent,
  LlmMessage,
  ModelInfo,
  ToolDefinition,
  ToolResultMessage,
  UserMessage,
} from "../llm/types.ts";
import { PerObject, singleIndex, TARGETS_KEPT } from "../project/memo.ts";
import { transformForModel, type TransformOptions } from "../project/transform.ts";
import { assertNever } from "../result.ts";
import { isImage, joinedText, sanitizeSurrogates } from "./common.ts";

export interface GeminiInlineData {
  readonly inlineData: { readonly mimeType: string; readonly data: string };
}

export interface GeminiTextPart {
  readonly text: string;
  readonly thought?: true;
  readonly thoughtSignature?: string;
}

export interface GeminiFunctionCallPart {
  readonly functionCall: { readonly name: string; readonly args: Record<string, unknown>; readonly id?: string };
  readonly thoughtSignature?: string;
}

export interface GeminiFunctionResponsePart {
  readonly functionResponse: {
    readonly name: string;
    readonly response: { readonly output: string } | { readonly error: string };
    readonly parts?: readonly GeminiInlineData[];
    readonly id?: string;
  };
}

export type GeminiPart = GeminiTextPart | GeminiInlineData | GeminiFunctionCallPart | GeminiFunctionResponsePart;

export interface GeminiContent {
  readonly role: "user" | "model";
  readonly parts: readonly GeminiPart[];
}

/** Gemini contents plus, for each, the indices of the input messages that produced it. */
export interface GeminiContents {
  readonly contents: readonly GeminiContent[];
  readonly origins: readonly (readonly number[])[];
}

export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description: string;
  readonly parametersJsonSchema: Record<string, unknown>;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const TOOL_IMAGE_INTRO = "Tool result image:";
const SEE_IMAGE = "(see attached image)";

/** Models behind Google APIs that need explicit ids on function calls and responses (Claude, gpt-oss). */
export function requiresToolCallId(modelId: string): boolean {
  return modelId.startsWith("claude-") || modelId.startsWith("gpt-oss-");
}

/** The tool-call id normaliser pi-ai hands to `transformMessages` for Google APIs. */
export function normalizeGoogleToolCallId(id: string, model: ModelInfo): string {
  return requiresToolCallId(model.id) ? id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64) : id;
}

/** Gemini < 3 cannot nest images in a function response; everything else (gemma, claude, 3.x) can. */
function supportsImagesInFunctionResponse(modelId: string): boolean {
  const major = /^gemini(?:-live)?-(\d+)/.exec(modelId.toLowerCase())?.[1];
  return major === undefined || Number.parseInt(major, 10) >= 3;
}

/** A signature is replayed only to the model that made it, and only if it is base64 (Google's TYPE_BYTES). */
function replayableSignature(sameModel: boolean, signature: string | undefined): string | undefined {
  if (!sameModel || !signature || signature.length % 4 !== 0) return undefined;
  return BASE64.test(signature) ? signature : undefined;
}

function toInlineData(image: ImageContent): GeminiInlineData {
  return { inlineData: { mimeType: image.mimeType, data: image.data } };
}

function userParts(message: UserMessage): GeminiPart[] {
  if (typeof message.content === "string") return [{ text: sanitizeSurrogates(message.content) }];
  return message.content.map((block) =>
    block.type === "text" ? { text: sanitizeSurrogates(block.text) } : toInlineData(block),
  );
}

/**
 * Assistant blocks as `model` parts: empty texts and thinking skipped, foreign thinking becomes plain text.
 * "Same model" here ignores the API, unlike `transformForModel`; after that stage the difference never shows,
 * because a turn from another API already lost its signatures and its thinking is already text.
 */
function modelParts(message: AssistantMessage, model: ModelInfo): GeminiPart[] {
  const same = message.provider === model.provider && message.model === model.id;
  return message.content.flatMap((block): GeminiPart[] => {
    switch (block.type) {
      case "text": {
        if (!block.text || block.text.trim() === "") return [];
        const thoughtSignature = replayableSignature(same, block.textSignature);
        return [{ text: sanitizeSurrogates(block.text), ...(thoughtSignature && { thoughtSignature }) }];
      }
      case "thinking": {
        if (!block.thinking || block.thinking.trim() === "") return [];
        if (!same) return [{ text: sanitizeSurrogates(block.thinking) }];
        const thoughtSignature = replayableSignature(same, block.thinkingSignature);
        return [
          { thought: true, text: sanitizeSurrogates(block.thinking), ...(thoughtSignature && { thoughtSignature }) },
        ];
      }
      case "toolCall": {
        const thoughtSignature = replayableSignature(same, block.thoughtSignature);
        const functionCall = {
          name: block.name,
          args: block.arguments ?? {},
          ...(requiresToolCallId(model.id) ? { id: block.id } : {}),
        };
        return [{ functionCall, ...(thoughtSignature && { thoughtSignature }) }];
      }
      default:
        return assertNever(block, "assistant block");
    }
  });
}

/**
 * A tool result as a `functionResponse` part (texts joined by newlines, `error` key for failures), plus the
 * separate "Tool result image:" user turn that Gemini < 3 needs for images.
 */
function functionResponse(
  message: ToolResultMessage,
  model: ModelInfo,
): {
  readonly part: GeminiFunctionResponsePart;
  readonly imageTurn?: GeminiContent;
} {
  const text = joinedText(message.content);
  const images = model.input.includes("image") ? message.content.filter(isImage).map(toInlineData) : [];
  const nested = supportsImagesInFunctionResponse(model.id);
  const value = text.length > 0 ? sanitizeSurrogates(text) : images.length > 0 ? SEE_IMAGE : "";
  const part: GeminiFunctionResponsePart = {
    functionResponse: {
      name: message.toolName,
      response: message.isError ? { error: value } : { output: value },
      ...(images.length > 0 && nested && { parts: images }),
      ...(requiresToolCallId(model.id) ? { id: message.toolCallId } : {}),
    },
  };
  if (images.length === 0 || nested) return { part };
  return { part, imageTurn: { role: "user", parts: [{ text: TOOL_IMAGE_INTRO }, ...images] } };
}

/*
 * A run of function responses made of the same parts is the same object (appended one part at a time to the run
 * before it), so the token counter, which remembers its counts per payload item, finds it again. Shared; never
 * mutate them.
 */
const responsesStarting = new PerObject<GeminiFunctionResponsePart, GeminiContent>();
const responsesExtending = new PerObject<GeminiContent, GeminiContent>();

/**
 * Accumulates contents with their origins; function responses join a preceding function-response turn. An
 * origin is the shared `singleIndex` array until a run grows, which gets a copy.
 */
class ContentsBuilder {
  readonly contents: GeminiContent[] = [];
  readonly origins: (readonly number[])[] = [];

  push(content: GeminiContent, source: number | undefined): void {
    this.contents.push(content);
    this.origins.push(singleIndex(source));
  }

  pushFunctionResponse(part: GeminiFunctionResponsePart, source: number | undefined): void {
    const last = this.contents.at(-1);
    if (last?.role !== "user" || !last.parts.some((p) => "functionResponse" in p)) {
      this.push(
        responsesStarting.get(part, undefined, () => ({ role: "user", parts: [part] })),
        source,
      );
      return;
    }
    this.contents[this.contents.length - 1] = responsesExtending.get(last, part, () => ({
      role: "user",
      parts: [...last.parts, part],
    }));
    const origin = this.origins[this.origins.length - 1] as readonly number[];
    if (source !== undefined) this.origins[this.origins.length - 1] = [...origin, source];
  }
}

/*
 * What a message becomes, kept per message object and target model: every payload along a session meets the same
 * messages again (each leaf repeats its path; the stages before keep an unchanged message the same object), so its
 * turn is made, and its texts scanned and signatures checked, once; and an unchanged turn is the same object, whose
 * token counts the counter finds again. None for a message without parts. Shared; never mutate them.
 */
const madeUserTurns = new PerObject<UserMessage, GeminiContent | undefined>();
const madeModelTurns = new PerObject<AssistantMessage, GeminiContent | undefined>(TARGETS_KEPT);
const madeResponses = new PerObject<ToolResultMessage, ReturnType<typeof functionResponse>>(TARGETS_KEPT);

function turnOf(role: "user" | "model", parts: GeminiPart[]): GeminiContent | undefined {
  return parts.length > 0 ? { role, parts } : undefined;
}

function addMessage(builder: ContentsBuilder, message: LlmMessage, source: number | undefined, model: ModelInfo): void {
  switch (message.role) {
    case "user": {
      const turn = madeUserTurns.get(message, undefined, () => turnOf("user", userParts(message)));
      if (turn) builder.push(turn, source);
      return;
    }
    case "assistant": {
      const turn = madeModelTurns.get(message, model, () => turnOf("model", modelParts(message, model)));
      if (turn) builder.push(turn, source);
      return;
    }
    case "toolResult": {
      const { part, imageTurn } = madeResponses.get(message, model, () => functionResponse(message, model));
      builder.pushFunctionResponse(part, source);
      if (imageTurn) builder.push(imageTurn, source);
      return;
    }
    default:
      return assertNever(message, "message role");
  }
}

/** pi-ai's `convertMessages(model, context)`: transform for the model, then map to Gemini contents. */
export function toGeminiContents(
  messages: readonly LlmMessage[],
  model: ModelInfo,
  transform?: TransformOptions,
): GeminiContents {
  const transformed = transformForModel(messages, model, normalizeGoogleToolCallId, transform);
  const builder = new ContentsBuilder();
  transformed.messages.forEach((message, i) => addMessage(builder, message, transformed.from[i], model));
  return { contents: builder.contents, origins: builder.origins };
}

/** pi-ai's `convertTools`: one `functionDeclarations` group, schemas passed through as full JSON Schema. */
export function toGeminiTools(
  tools: readonly ToolDefinition[],
): readonly { readonly functionDeclarations: readonly GeminiFunctionDeclaration[] }[] {
  const functionDeclarations = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parametersJsonSchema: tool.parameters,
  }));
  return [{ functionDeclarations }];
}
