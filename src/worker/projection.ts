/**
 * The projection of one leaf under one set of rules, as the UI draws it: the payload with provenance, every path
 * entry's fate, the validator's findings, the redactions — and, on a second request, what each rule changes.
 */
import type { ModelInfo, ThinkingLevel } from "../core/llm/types.ts";
import { findModel, parseModelRef } from "../core/models/registry.ts";
import type { PathFates } from "../core/project/path-fates.ts";
import {
  pathModelRef,
  projectInParts,
  projectLeaf,
  type EntryFate,
  type Projection,
  type ProjectionOptions,
} from "../core/project/project.ts";
import { PI_DEFAULTS, projectionOptions, RULES, type Rule, type RuleSettings } from "../core/project/rules.ts";
import { validateProjection, type Finding } from "../core/project/validate.ts";
import { err, ok, type Result } from "../core/result.ts";
import { fieldText, modelRefText } from "../core/session/describe.ts";
import { pathToLeaf, type EntryTree } from "../core/session/tree.ts";
import { packLists, type PackedLists } from "./packed-lists.ts";
import { payloadForPage, type PagePayload } from "./page-payload.ts";

export interface ProjectionView {
  readonly leaf: number;
  /** Entry indices root → leaf (typed: a path may hold 300,000 entries, moved to the page rather than copied). */
  readonly path: Int32Array;
  /** The fate of every path entry, in path order. */
  readonly fates: readonly EntryFate[];
  /** The model the path ends with ("PROVIDER/ID"), whether or not the registry knows it. */
  readonly sessionModel: string | undefined;
  readonly model: ModelInfo;
  readonly reasoning: ThinkingLevel | undefined;
  /** With stand-ins for its images (see page-payload.ts): the JSON to copy or save comes from `payloadJson`. */
  readonly payload: PagePayload;
  /** For each item of the payload's main list, the entries it came from (`listCount` = how many items). */
  readonly itemSources: PackedLists;
  readonly findings: readonly Finding[];
  readonly redactions: readonly {
    readonly entry: number;
    readonly kind: string;
    readonly label: string;
    readonly replacement: string;
  }[];
  /** customTypes of extension and custom-role messages on this path, for the per-type rules. */
  readonly customTypes: { readonly extension: readonly string[]; readonly customRole: readonly string[] };
}

export type ProjectionAnswer =
  | { readonly ok: true; readonly view: ProjectionView }
  | {
      readonly ok: false;
      readonly error: string;
      readonly sessionModel: string | undefined;
      /** The model asked for ("PROVIDER/ID", the chosen one or the session's) when no registry in use knows it. */
      readonly unknownModel: string | undefined;
    };

function resolveModel(ref: string | undefined): Result<ModelInfo | undefined> {
  if (ref === undefined) return ok(undefined);
  const parsed = parseModelRef(ref);
  const model = parsed && findModel(parsed.provider, parsed.id);
  return model ? ok(model) : err(`${ref} is not a model in pi-ai's registry (nor in a models.json in use)`);
}

function customTypes(tree: EntryTree, path: readonly number[]): ProjectionView["customTypes"] {
  const extension = new Set<string>();
  const customRole = new Set<string>();
  for (const i of path) {
    const raw = tree.entries[i]?.raw;
    if (!raw) continue;
    if (raw["type"] === "custom_message") extension.add(fieldText(raw["customType"]));
    const message = raw["message"] as Record<string, unknown> | undefined;
    if (raw["type"] === "message" && message?.["role"] === "custom") customRole.add(fieldText(message["customType"]));
  }
  return { extension: [...extension].sort(), customRole: [...customRole].sort() };
}

/** The projection options of these rules for this model (undefined = the session's). */
function optionsFor(settings: RuleSettings, model: ModelInfo | undefined): ProjectionOptions {
  const options = projectionOptions(settings);
  return model ? { ...options, model } : options;
}

/** The projection of this leaf under these rules for this model ("PROVIDER/ID"; undefined = the session's). */
export function projectFor(
  tree: EntryTree,
  leaf: number,
  settings: RuleSettings,
  modelRef: string | undefined,
): Result<Projection> {
  const model = resolveModel(modelRef);
  return model.ok ? projectLeaf(tree, leaf, optionsFor(settings, model.value)) : model;
}

/** `projectFor`, made a part at a time (see `projectInParts`): step it, letting other work in between steps. */
export function* projectForInParts(
  tree: EntryTree,
  leaf: number,
  settings: RuleSettings,
  modelRef: string | undefined,
): Generator<void, Result<Projection>, void> {
  const model = resolveModel(modelRef);
  return model.ok ? yield* projectInParts(tree, leaf, optionsFor(settings, model.value)) : model;
}

/** The projection the UI shows for this leaf, rules and model; `projected` when it was already made. */
export function projectForView(
  tree: EntryTree,
  leaf: number,
  settings: RuleSettings,
  modelRef: string | undefined,
  projected: Result<Projection> = projectFor(tree, leaf, settings, modelRef),
): ProjectionAnswer {
  const result = projected;
  if (!result.ok) {
    const sessionModel = pathModelRef(tree, leaf);
    const asked = modelRef ?? sessionModel;
    const parsed = asked === undefined ? undefined : parseModelRef(asked);
    const unknownModel = parsed && !findModel(parsed.provider, parsed.id) ? asked : undefined;
    return { ok: false, error: result.error, sessionModel, unknownModel };
  }
  // The path's own model, read from the context the projection already built (no second pass over the path).
  const own = result.value.context.model;
  const sessionModel = own ? modelRefText(own.provider, own.modelId) : undefined;
  const p = result.value;
  const options = projectionOptions(settings);
  return {
    ok: true,
    view: {
      leaf,
      path: Int32Array.from(p.path),
      fates: p.path.map((_, position) => p.fates.at(position) ?? { kind: "no-message", reason: "not read by pi" }),
      sessionModel,
      model: p.model,
      reasoning: p.reasoning,
      payload: payloadForPage(p.payload),
      itemSources: packLists(p.itemSources),
      findings: validateProjection(p, options.transform ? { transform: options.transform } : {}),
      redactions: p.llm.redactions.map((r) => ({
        entry: p.llmSources[r.message] as number,
        kind: r.kind,
        label: r.label,
        replacement: r.replacement,
      })),
      customTypes: customTypes(tree, p.path),
    },
  };
}

/** The value a rule would take if the person flipped it: what the rules panel counts the effect of. */
export function alternative(
  rule: Rule,
  settings: RuleSettings,
  types: ProjectionView["customTypes"],
): RuleSettings | undefined {
  const key = rule.keys[0] as keyof RuleSettings;
  const current = settings[key];
  const isDefault = JSON.stringify(current) === JSON.stringify(PI_DEFAULTS[key]);
  switch (rule.control.kind) {
    case "toggle":
      return { ...settings, [key]: !current };
    case "choice": {
      if (!isDefault) return { ...settings, [key]: PI_DEFAULTS[key] };
      const other = rule.control.options.find(
        (o) => o.value !== current && o.value !== "session" && o.value !== "default",
      );
      return other ? { ...settings, [key]: other.value } : undefined;
    }
    case "limit":
      return { ...settings, [key]: current === null ? rule.control.suggested : null };
    case "types": {
      const present = rule.control.of === "extension" ? types.extension : types.customRole;
      if (!isDefault) return { ...settings, [key]: [] };
      return present.length > 0 ? { ...settings, [key]: present } : undefined;
    }
    case "text":
    case "tools":
      return isDefault ? undefined : { ...settings, [key]: PI_DEFAULTS[key] };
  }
}

export interface RuleEffect {
  readonly rule: string;
  /** Path entries whose fate or message differs between the current settings and the rule flipped. */
  readonly entries: number;
  /** Prompt tokens with the rule flipped, minus now (estimated), once counted. */
  readonly tokenDelta?: number;
  /** The setting the effect was measured against. */
  readonly against: RuleSettings;
}

/** Image data and signatures stand for themselves by length: comparing them whole would copy megabytes. */
function compactReplacer(key: string, value: unknown): unknown {
  return typeof value === "string" && value.length > 256 && (key === "data" || key.endsWith("Signature"))
    ? `${value.length}:${value.slice(0, 32)}${value.slice(-32)}`
    : value;
}

/** What each path entry contributes: its fate, and the messages it became (same object = unchanged). */
export interface EntryContributions {
  readonly fates: PathFates<EntryFate>;
  readonly messages: Map<number, readonly unknown[]>;
}

export function contributions(p: Projection): EntryContributions {
  const messages = new Map<number, unknown[]>();
  p.llm.messages.forEach((m, k) => {
    const entry = p.llmSources[k] as number;
    const list = messages.get(entry);
    if (list) list.push(m);
    else messages.set(entry, [m]);
  });
  return { fates: p.fates, messages };
}

/** Two fates say the same: most are the very same shared objects, the rest are compared as JSON. */
const sameFate = (a: EntryFate | undefined, b: EntryFate | undefined): boolean =>
  a === b || (a?.kind === b?.kind && JSON.stringify(a ?? null) === JSON.stringify(b ?? null));

function sameMessages(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((m, i) => m === b[i] || JSON.stringify(m, compactReplacer) === JSON.stringify(b[i], compactReplacer));
}

/** The alternatives the rules panel measures, one per rule that has one on this path. */
export function ruleAlternatives(
  tree: EntryTree,
  leaf: number,
  settings: RuleSettings,
): { readonly rule: Rule; readonly against: RuleSettings }[] {
  const path = pathToLeaf(tree, leaf);
  const types = customTypes(tree, path.ok ? path.value : []);
  return RULES.flatMap((rule) => {
    const against = alternative(rule, settings, types);
    return against ? [{ rule, against }] : [];
  });
}

/**
 * How many path entries flipping one rule changes, against the current projection's contributions. `other` is
 * the projection with the rule flipped, when the caller made it already (to count its tokens too).
 */
export function ruleEffect(
  tree: EntryTree,
  leaf: number,
  rule: Rule,
  against: RuleSettings,
  modelRef: string | undefined,
  current: EntryContributions,
  other: Result<Projection> = projectFor(tree, leaf, against, modelRef),
): RuleEffect | undefined {
  if (!other.ok) return undefined;
  const theirs = contributions(other.value);
  let entries = 0;
  // Both are projections of the same leaf: their paths are the same, position for position.
  current.fates.path.forEach((i, position) => {
    const changed =
      !sameFate(current.fates.at(position), theirs.fates.at(position)) ||
      !sameMessages(current.messages.get(i), theirs.messages.get(i));
    if (changed) entries += 1;
  });
  return { rule: rule.id, entries, against };
}
