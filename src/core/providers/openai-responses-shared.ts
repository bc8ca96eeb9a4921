/**
 * What the three OpenAI Responses builders (`openai-responses`, `openai-codex-responses`,
 * `azure-openai-responses`) share: pi-ai 0.73.1's `convertResponsesMessages` and `convertResponsesTools`,
 * re-written so every `input` item remembers which request message produced it.
 */
import type {
  AssistantMessage,
  ImageContent,
  LlmMessage,
  ModelInfo,
  PayloadRequest,
  TextContent,
  ToolCall,
  ToolDefinition,
  ToolResultMessage,
  UserMessage,
} from "../llm/types.ts";
import { PayloadError } from "../llm/types.ts";
import { PerObject, singleIndex, TARGETS_KEPT } from "../project/memo.ts";
import { transformForModel, type NormalizeToolCallId } from "../project/transform.ts";
import { assertNever } from "../result.ts";
import {
  argumentsText,
  dataUrlHolder,
  imageDataUrl,
  isImage,
  joinedText,
  parseSignatureJson,
  sanitizeSurrogates,
  shortHash,
} from "./common.ts";

/** A system prompt item (`developer` for reasoning models). */
export interface InstructionItem {
  readonly role: "system" | "developer";
  readonly content: string;
}

export type InputContentPart =
  | { readonly type: "input_text"; readonly text: string }
  | { readonly type: "input_image"; readonly detail: "auto"; readonly image_url: string };

export interface UserItem {
  readonly role: "user";
  readonly content: readonly InputContentPart[];
}

export type TextPhase = "commentary" | "final_answer";

/** A replayed assistant text block. `phase` is always present, possibly undefined, as pi-ai writes it. */
export interface AssistantTextItem {
  readonly type: "message";
  readonly role: "assistant";
  readonly content: readonly [
    { readonly type: "output_text"; readonly text: string; readonly annotations: readonly [] },
  ];
  readonly status: "completed";
  readonly id: string;
  readonly phase: TextPhase | undefined;
}

export interface FunctionCallItem {
  readonly type: "function_call";
  /** The `fc_…` item id; undefined when there is none or it must not be paired with a reasoning item. */
  readonly id: string | undefined;
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
}

export interface FunctionCallOutputItem {
  readonly type: "function_call_output";
  readonly call_id: string;
  readonly output: string | readonly InputContentPart[];
}

/** A reasoning item replayed verbatim from a thinking signature (pi-ai trusts the signature to be one). */
export type ReasoningItem = { readonly [key: string]: unknown };

export type ResponsesInputItem =
  InstructionItem | UserItem | AssistantTextItem | FunctionCallItem | FunctionCallOutputItem | ReasoningItem;

/** `input` plus, per item, the request message indices that produced it. */
export interface ResponsesInput {
  readonly items: readonly ResponsesInputItem[];
  readonly origins: readonly (readonly number[])[];
}

export interface ResponsesInputOptions {
  /** Providers whose `call_id|item_id` tool-call ids are kept as pairs when replayed from another model. */
  readonly pairedIdProviders: ReadonlySet<string>;
  /** Put the system prompt at the head of `input` (Codex sends it as `instructions` instead). */
  readonly includeSystemPrompt: boolean;
}

const MAX_ID_LENGTH = 64;

/** Keeps `[A-Za-z0-9_-]` (others become `_`), cuts to 64 characters, then drops trailing underscores. */
function sanitizeIdPart(part: string): string {
  return part
    .replace(/[^a-zA-Z0-9_-]/g, "_")
    .slice(0, MAX_ID_LENGTH)
    .replace(/_+$/, "");
}

/**
 * One normaliser per set of paired-id providers, the same function every time: the transform stage remembers
 * what it made of a message per normaliser (see `transformForModel`).
 */
const normalizers = new WeakMap<ReadonlySet<string>, NormalizeToolCallId>();

/**
 * pi-ai's tool-call id normaliser for the Responses APIs. Only providers in `pairedIdProviders` keep
 * `call_id|item_id` pairs; the item id then gets an `fc_` prefix, hashed when the call came from another API.
 */
export function responsesToolCallIdNormalizer(pairedIdProviders: ReadonlySet<string>): NormalizeToolCallId {
  let normalize = normalizers.get(pairedIdProviders);
  if (normalize === undefined) {
    normalize = (id, target, source) => normalizeResponsesId(id, target, source, pairedIdProviders);
    normalizers.set(pairedIdProviders, normalize);
  }
  return normalize;
}

function normalizeResponsesId(
  id: string,
  target: ModelInfo,
  source: AssistantMessage,
  pairedIdProviders: ReadonlySet<string>,
): string {
  if (!pairedIdProviders.has(target.provider) || !id.includes("|")) return sanitizeIdPart(id);
  const [callId = "", itemId = ""] = id.split("|");
  const isForeign = source.provider !== target.provider || source.api !== target.api;
  let item = isForeign ? `fc_${shortHash(itemId)}`.slice(0, MAX_ID_LENGTH) : sanitizeIdPart(itemId);
  if (!item.startsWith("fc_")) item = sanitizeIdPart(`fc_${item}`);
  return `${sanitizeIdPart(callId)}|${item}`;
}

/** Reads a text signature: v1 JSON `{v: 1, id, phase?}`, else the whole string is a legacy message id. */
function parseTextSignature(signature: string | undefined): { id: string; phase?: TextPhase } | undefined {
  if (!signature) return undefined;
  if (signature.startsWith("{")) {
    try {
      const parsed = JSON.parse(signature) as { v?: unknown; id?: unknown; phase?: unknown };
      if (parsed.v === 1 && typeof parsed.id === "string") {
        const known = parsed.phase === "commentary" || parsed.phase === "final_answer";
        return known ? { id: parsed.id, phase: parsed.phase as TextPhase } : { id: parsed.id };
      }
    } catch {
      // Not JSON after all: a legacy plain id.
    }
  }
  return { id: signature };
}

function imagePart(image: ImageContent): InputContentPart {
  return dataUrlHolder({ type: "input_image", detail: "auto", image_url: imageDataUrl(image) }, "image_url", image);
}

function userItems(message: UserMessage): UserItem[] {
  if (typeof message.content === "string") {
    return [{ role: "user", content: [{ type: "input_text", text: sanitizeSurrogates(message.content) }] }];
  }
  const content = message.content.map((part): InputContentPart =>
    part.type === "text" ? { type: "input_text", text: sanitizeSurrogates(part.text) } : imagePart(part),
  );
  return content.length === 0 ? [] : [{ role: "user", content }];
}

function parseReasoningItem(signature: string): ReasoningItem {
  try {
    return parseSignatureJson(signature) as ReasoningItem;
  } catch (error) {
    throw new PayloadError(
      `A thinking block's signature is not a JSON reasoning item (${(error as Error).message}); ` +
        "pi-ai cannot replay it. Remove the thinking block or its signature.",
    );
  }
}

function assistantTextItem(block: TextContent, messageNumber: number): AssistantTextItem {
  const signature = parseTextSignature(block.textSignature);
  let id = signature?.id;
  if (!id) id = `msg_${messageNumber}`;
  else if (id.length > MAX_ID_LENGTH) id = `msg_${shortHash(id)}`;
  return {
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text: sanitizeSurrogates(block.text), annotations: [] }],
    status: "completed",
    id,
    phase: signature?.phase,
  };
}

function functionCallItem(block: ToolCall, otherModelSameApi: boolean): FunctionCallItem {
  const [callId = "", itemId] = block.id.split("|");
  const id = otherModelSameApi && itemId?.startsWith("fc_") ? undefined : itemId;
  return { type: "function_call", id, call_id: callId, name: block.name, arguments: argumentsText(block.arguments) };
}

/*
 * The items of a block, kept per block object: a turn rewritten by a rule (its thinking dropped) keeps its other
 * blocks, so their items come out as the same objects, and their token counts are found again. A text is kept per
 * message number (it may be named by it), a call per whether it loses its item id.
 */
const textItems = new PerObject<TextContent, AssistantTextItem, number>(TARGETS_KEPT);
const callItems = new PerObject<ToolCall, FunctionCallItem, boolean>(TARGETS_KEPT);

/**
 * One item per replayable block. `messageNumber` names unsigned texts (`msg_N`). A call from another model of
 * the same provider and API loses its `fc_` item id, so OpenAI does not check it against reasoning items.
 */
function assistantItems(message: AssistantMessage, model: ModelInfo, messageNumber: number): ResponsesInputItem[] {
  const otherModelSameApi =
    message.model !== model.id && message.provider === model.provider && message.api === model.api;
  return message.content.flatMap((block): ResponsesInputItem[] => {
    switch (block.type) {
      case "thinking":
        return block.thinkingSignature ? [parseReasoningItem(block.thinkingSignature)] : [];
      case "text":
        return [textItems.get(block, messageNumber, () => assistantTextItem(block, messageNumber))];
      case "toolCall":
        return [callItems.get(block, otherModelSameApi, () => functionCallItem(block, otherModelSameApi))];
      default:
        return skipUnknownBlock(block);
    }
  });
}

/** pi-ai skips block types it does not know; the `never` keeps this switch exhaustive at compile time. */
function skipUnknownBlock(_block: never): [] {
  return [];
}

/** Text parts joined by newlines; images become parts only when the model takes images. */
function toolResultItem(message: ToolResultMessage, model: ModelInfo): FunctionCallOutputItem {
  const text = joinedText(message.content);
  const images = message.content.filter(isImage);
  const callId = message.toolCallId.split("|")[0] ?? "";
  if (images.length > 0 && model.input.includes("image")) {
    const textPart: InputContentPart[] =
      text.length > 0 ? [{ type: "input_text", text: sanitizeSurrogates(text) }] : [];
    return { type: "function_call_output", call_id: callId, output: [...textPart, ...images.map(imagePart)] };
  }
  const output = sanitizeSurrogates(text.length > 0 ? text : "(see attached image)");
  return { type: "function_call_output", call_id: callId, output };
}

/** The items of one message for one model, and the message number they name it by, if any of them does. */
interface Made {
  readonly items: ResponsesInputItem[];
  readonly number: number | undefined;
}

/**
 * The items of one message, per model: the stages before keep an unchanged message the same object, so its items
 * are the same objects too (and their token counts are found without walking them again). Most items do not name
 * their message by number; a message whose items do (unsigned assistant texts, `msg_N`) met at another place
 * (compaction on and off) is made again, from its blocks' items kept per number. Items are shared between
 * payloads; never mutate them.
 */
const madeItems = new PerObject<LlmMessage, Made, ModelInfo>(TARGETS_KEPT);

function messageItems(message: LlmMessage, model: ModelInfo, messageNumber: number): ResponsesInputItem[] {
  const made = madeItems.get(message, model, () => {
    const items = makeItems(message, model, messageNumber);
    const name = `msg_${messageNumber}`;
    const named = message.role === "assistant" && items.some((item) => (item as { readonly id?: unknown }).id === name);
    return { items, number: named ? messageNumber : undefined };
  });
  return made.number === undefined || made.number === messageNumber
    ? made.items
    : makeItems(message, model, messageNumber);
}

function makeItems(message: LlmMessage, model: ModelInfo, messageNumber: number): ResponsesInputItem[] {
  switch (message.role) {
    case "user":
      return userItems(message);
    case "assistant":
      return assistantItems(message, model, messageNumber);
    case "toolResult":
      return [toolResultItem(message, model)];
    default:
      return assertNever(message, "message role");
  }
}

/**
 * pi-ai's `convertResponsesMessages`: runs `transformForModel` with the Responses id normaliser, then maps each
 * message to `input` items. Unsigned assistant texts are named `msg_N`, N counting the transformed messages
 * before it that produced any item. Throws PayloadError for a thinking signature that is not JSON.
 */
export function toResponsesInput(
  model: ModelInfo,
  request: PayloadRequest,
  options: ResponsesInputOptions,
): ResponsesInput {
  const normalize = responsesToolCallIdNormalizer(options.pairedIdProviders);
  const transformed = transformForModel(request.messages, model, normalize, request.transform);
  const items: ResponsesInputItem[] = [];
  const origins: (readonly number[])[] = [];
  if (options.includeSystemPrompt && request.systemPrompt) {
    items.push({ role: model.reasoning ? "developer" : "system", content: sanitizeSurrogates(request.systemPrompt) });
    origins.push([]);
  }
  let messageNumber = 0;
  transformed.messages.forEach((message, index) => {
    const produced = messageItems(message, model, messageNumber);
    if (produced.length === 0) return;
    const origin = singleIndex(transformed.from[index]);
    for (const item of produced) {
      items.push(item);
      origins.push(origin);
    }
    messageNumber++;
  });
  return { items, origins };
}

/** pi-ai's `convertResponsesTools`: function tools with the given `strict` flag (false; Codex sends null). */
export function toResponsesTools(
  tools: readonly ToolDefinition[],
  strict: boolean | null = false,
): readonly Record<string, unknown>[] {
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict,
  }));
}
