/**
 * Stage 2: zod schemas for the pi 0.73.1 session format (header, every entry type, every message role).
 * Schemas are loose: unknown fields are kept (and reported by `validateEntry`), never stripped.
 */
import { checkData, z } from "../zod.ts";

const text = z.looseObject({ type: z.literal("text"), text: z.string(), textSignature: z.string().optional() });
const image = z.looseObject({ type: z.literal("image"), data: z.string(), mimeType: z.string() });
const thinking = z.looseObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  thinkingSignature: z.string().optional(),
  redacted: z.boolean().optional(),
});
const toolCall = z.looseObject({
  type: z.literal("toolCall"),
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  thoughtSignature: z.string().optional(),
});
const userContent = z.union([z.string(), z.array(z.discriminatedUnion("type", [text, image]))]);
const usage = z.looseObject({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number().optional(),
  cacheWrite: z.number().optional(),
  totalTokens: z.number().optional(),
});

const messageSchemas = {
  user: z.looseObject({ role: z.literal("user"), content: userContent, timestamp: z.number().optional() }),
  assistant: z.looseObject({
    role: z.literal("assistant"),
    content: z.array(z.discriminatedUnion("type", [text, thinking, toolCall])),
    api: z.string(),
    provider: z.string(),
    model: z.string(),
    usage: usage.optional(),
    stopReason: z.enum(["stop", "length", "toolUse", "error", "aborted"]),
    errorMessage: z.string().optional(),
    timestamp: z.number().optional(),
  }),
  toolResult: z.looseObject({
    role: z.literal("toolResult"),
    toolCallId: z.string(),
    toolName: z.string(),
    content: z.array(z.discriminatedUnion("type", [text, image])),
    isError: z.boolean(),
    timestamp: z.number().optional(),
  }),
  bashExecution: z.looseObject({
    role: z.literal("bashExecution"),
    command: z.string(),
    output: z.string(),
    exitCode: z.number().nullish(),
    cancelled: z.boolean(),
    truncated: z.boolean(),
    fullOutputPath: z.string().optional(),
    excludeFromContext: z.boolean().optional(),
    timestamp: z.number().optional(),
  }),
  custom: z.looseObject({
    role: z.literal("custom"),
    customType: z.string(),
    content: userContent,
    display: z.boolean(),
    timestamp: z.number().optional(),
  }),
  branchSummary: z.looseObject({ role: z.literal("branchSummary"), summary: z.string(), fromId: z.string() }),
  compactionSummary: z.looseObject({ role: z.literal("compactionSummary"), summary: z.string() }),
} as const;

export type KnownRole = keyof typeof messageSchemas;
export const KNOWN_ROLES = Object.keys(messageSchemas) as readonly KnownRole[];

export const headerSchema = z.looseObject({
  type: z.literal("session"),
  version: z.number().optional(),
  id: z.string(),
  timestamp: z.string(),
  cwd: z.string(),
  parentSession: z.string().optional(),
});

/** A missing id is reported on its own ("missing-id"), so the schema does not repeat it. */
const base = { id: z.string().optional(), parentId: z.string().nullable(), timestamp: z.string() };

const entrySchemas = {
  message: z.looseObject({ ...base, type: z.literal("message"), message: z.looseObject({ role: z.string() }) }),
  thinking_level_change: z.looseObject({
    ...base,
    type: z.literal("thinking_level_change"),
    thinkingLevel: z.string(),
  }),
  model_change: z.looseObject({ ...base, type: z.literal("model_change"), provider: z.string(), modelId: z.string() }),
  compaction: z.looseObject({
    ...base,
    type: z.literal("compaction"),
    summary: z.string(),
    firstKeptEntryId: z.string(),
    tokensBefore: z.number(),
    fromHook: z.boolean().optional(),
  }),
  branch_summary: z.looseObject({
    ...base,
    type: z.literal("branch_summary"),
    fromId: z.string(),
    summary: z.string(),
    fromHook: z.boolean().optional(),
  }),
  custom: z.looseObject({ ...base, type: z.literal("custom"), customType: z.string() }),
  custom_message: z.looseObject({
    ...base,
    type: z.literal("custom_message"),
    customType: z.string(),
    content: userContent,
    display: z.boolean(),
  }),
  label: z.looseObject({ ...base, type: z.literal("label"), targetId: z.string(), label: z.string().optional() }),
  session_info: z.looseObject({ ...base, type: z.literal("session_info"), name: z.string().optional() }),
} as const;

export type KnownEntryType = keyof typeof entrySchemas;
export const KNOWN_ENTRY_TYPES = Object.keys(entrySchemas) as readonly KnownEntryType[];

/** Fields each entry type and role may carry; anything else is reported once per type as unknown. */
const KNOWN_FIELDS: Record<string, ReadonlySet<string>> = {
  ...Object.fromEntries(
    Object.entries(entrySchemas).map(([type, schema]) => [
      `entry:${type}`,
      new Set([...Object.keys(schema.shape), "details", "data"]),
    ]),
  ),
  ...Object.fromEntries(
    Object.entries(messageSchemas).map(([role, schema]) => [
      `role:${role}`,
      new Set([
        ...Object.keys(schema.shape),
        "details",
        "timestamp",
        "responseId",
        "responseModel",
        "diagnostics",
        "tokensBefore",
      ]),
    ]),
  ),
};

export function isKnownEntryType(type: unknown): type is KnownEntryType {
  return typeof type === "string" && Object.hasOwn(entrySchemas, type);
}

export function isKnownRole(role: unknown): role is KnownRole {
  return typeof role === "string" && Object.hasOwn(messageSchemas, role);
}

export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
}

function issuesOf(error: z.ZodError, prefix: string): SchemaIssue[] {
  return error.issues.slice(0, 3).map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join("."),
    message: issue.message,
  }));
}

/**
 * A fast yes for values a zod schema accepts as they are. It is built from the schema itself, so the schema
 * stays the one definition; `false` only means "ask zod" (which then also names the issues), so any schema
 * feature not handled here (checks, coercion, strict objects, …) just falls back to zod. zod's `safeParse`
 * copies every object it checks; this check is about twice as fast on a large session and copies nothing.
 */
type Conforms = (value: unknown) => boolean;

interface SchemaDef {
  readonly type: string;
  readonly checks?: readonly unknown[];
  readonly coerce?: boolean;
  readonly innerType?: z.core.$ZodType;
  readonly element?: z.core.$ZodType;
  readonly options?: readonly z.core.$ZodType[];
  readonly shape?: Readonly<Record<string, z.core.$ZodType>>;
  readonly catchall?: z.core.$ZodType;
  readonly valueType?: z.core.$ZodType;
  readonly keyType?: z.core.$ZodType;
  readonly values?: readonly unknown[];
  readonly entries?: Readonly<Record<string, unknown>>;
}

const ASK_ZOD: Conforms = () => false;

function defOf(schema: z.core.$ZodType): SchemaDef {
  return schema._zod.def as unknown as SchemaDef;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectConformance(def: SchemaDef): Conforms {
  if (def.catchall !== undefined && defOf(def.catchall).type !== "unknown") return ASK_ZOD;
  const fields = Object.entries(def.shape ?? {}).map(([key, schema]) => [key, conformance(schema)] as const);
  return (value) => isObject(value) && fields.every(([key, conforms]) => conforms(value[key]));
}

function recordConformance(def: SchemaDef): Conforms {
  const key = def.keyType && defOf(def.keyType);
  if (!def.valueType || key?.type !== "string" || (key.checks?.length ?? 0) > 0) return ASK_ZOD;
  const conforms = conformance(def.valueType);
  const anyValue = defOf(def.valueType).type === "unknown";
  const isPlain = (value: unknown): value is Record<string, unknown> => {
    if (!isObject(value)) return false;
    const prototype: unknown = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  };
  return (value) => isPlain(value) && (anyValue || Object.values(value).every(conforms));
}

function conformance(schema: z.core.$ZodType): Conforms {
  const def = defOf(schema);
  if ((def.checks?.length ?? 0) > 0 || def.coerce) return ASK_ZOD;
  switch (def.type) {
    case "string":
      return (value) => typeof value === "string";
    case "number":
      return (value) => typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return (value) => typeof value === "boolean";
    case "unknown":
      return () => true;
    case "literal":
      return (value) => (def.values ?? []).includes(value);
    case "enum": {
      const values = Object.values(def.entries ?? {});
      return (value) => values.includes(value);
    }
    case "optional":
    case "nullable": {
      if (!def.innerType) return ASK_ZOD;
      const inner = conformance(def.innerType);
      const absent = def.type === "optional" ? undefined : null;
      return (value) => value === absent || inner(value);
    }
    case "array": {
      if (!def.element) return ASK_ZOD;
      const element = conformance(def.element);
      return (value) => Array.isArray(value) && value.every(element);
    }
    case "union": {
      const options = (def.options ?? []).map(conformance);
      return (value) => options.some((conforms) => conforms(value));
    }
    case "object":
      return objectConformance(def);
    case "record":
      return recordConformance(def);
    default:
      return ASK_ZOD;
  }
}

function conformanceOf<K extends string>(schemas: Readonly<Record<K, z.core.$ZodType>>): Readonly<Record<K, Conforms>> {
  return Object.fromEntries(
    Object.entries<z.core.$ZodType>(schemas).map(([key, schema]) => [key, conformance(schema)]),
  ) as Record<K, Conforms>;
}

const entryConforms = conformanceOf(entrySchemas);
const messageConforms = conformanceOf(messageSchemas);

/** Checks an entry of a known type (and its message) against the schema; returns what does not fit. */
export function checkEntry(type: KnownEntryType, raw: Record<string, unknown>): SchemaIssue[] {
  if (!entryConforms[type](raw)) {
    const result = checkData(entrySchemas[type], raw);
    if (!result.success) return issuesOf(result.error, "");
  }
  if (type !== "message") return [];
  const message = raw["message"] as Record<string, unknown>;
  const role = message["role"];
  if (!isKnownRole(role) || messageConforms[role](message)) return [];
  const checked = checkData(messageSchemas[role], message);
  return checked.success ? [] : issuesOf(checked.error, "message");
}

export function checkHeader(raw: Record<string, unknown>): SchemaIssue[] {
  const result = checkData(headerSchema, raw);
  return result.success ? [] : issuesOf(result.error, "");
}

/** Field names of `raw` that the schema for `kind` ("entry:message", "role:user", …) does not know. */
export function unknownFields(kind: string, raw: Record<string, unknown>): string[] {
  const known = KNOWN_FIELDS[kind];
  if (!known) return [];
  return Object.keys(raw).filter((key) => !known.has(key));
}
