/**
 * The projection of one leaf under one set of rules, as the UI draws it: the payload with provenance, every path
 * entry's fate, the validator's findings, the redactions — and, on a second request, what each rule changes.
 */
import type { ModelInfo, PayloadResult, ThinkingLevel } from "../core/llm/types.ts";
import { findModel, parseModelRef } from "../core/models/registry.ts";
import { pathModelRef, projectLeaf, type EntryFate, type Projection } from "../core/project/project.ts";
import { PI_DEFAULTS, projectionOptions, RULES, type Rule, type RuleSettings } from "../core/project/rules.ts";
import { validateProjection, type Finding } from "../core/project/validate.ts";
import { err, ok, type Result } from "../core/result.ts";
import { pathToLeaf, type EntryTree } from "../core/session/tree.ts";

export interface ProjectionView {
  readonly leaf: number;
  /** Entry indices root → leaf. */
  readonly path: readonly number[];
  /** The fate of every path entry, in path order. */
  readonly fates: readonly EntryFate[];
  /** The model the path ends with ("PROVIDER/ID"), whether or not the registry knows it. */
  readonly sessionModel: string | undefined;
  readonly model: ModelInfo;
  readonly reasoning: ThinkingLevel | undefined;
  readonly payload: PayloadResult;
  readonly itemSources: readonly (readonly number[])[];
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
  | { readonly ok: false; readonly error: string; readonly sessionModel: string | undefined };

function resolveModel(ref: string | undefined): Result<ModelInfo | undefined> {
  if (ref === undefined) return ok(undefined);
  const parsed = parseModelRef(ref);
  const model = parsed && findModel(parsed.provider, parsed.id);
  return model ? ok(model) : err(`${ref} is not a model in pi-ai's registry`);
}

function customTypes(tree: EntryTree, path: readonly number[]): ProjectionView["customTypes"] {
  const extension = new Set<string>();
  const customRole = new Set<string>();
  for (const i of path) {
    const raw = tree.entries[i]?.raw;
    if (!raw) continue;
    if (raw["type"] === "custom_message") extension.add(String(raw["customType"]));
    const message = raw["message"] as Record<string, unknown> | undefined;
    if (raw["type"] === "message" && message?.["role"] === "custom") customRole.add(String(message["customType"]));
  }
  return { extension: [...extension].sort(), customRole: [...customRole].sort() };
}

function run(tree: EntryTree, leaf: number, settings: RuleSettings, model: ModelInfo | undefined): Result<Projection> {
  const options = projectionOptions(settings);
  return projectLeaf(tree, leaf, model ? { ...options, model } : options);
}

/** The projection of this leaf under these rules for this model ("PROVIDER/ID"; undefined = the session's). */
export function projectFor(
  tree: EntryTree,
  leaf: number,
  settings: RuleSettings,
  modelRef: string | undefined,
): Result<Projection> {
  const model = resolveModel(modelRef);
  return model.ok ? run(tree, leaf, settings, model.value) : model;
}

/** The projection the UI shows for this leaf, rules and model; `projected` when it was already made. */
export function projectForView(
  tree: EntryTree,
  leaf: number,
  settings: RuleSettings,
  modelRef: string | undefined,
  projected: Result<Projection> = projectFor(tree, leaf, settings, modelRef),
): ProjectionAnswer {
  const sessionModel = pathModelRef(tree, leaf);
  const result = projected;
  if (!result.ok) return { ok: false, error: result.error, sessionModel };
  const p = result.value;
  const options = projectionOptions(settings);
  return {
    ok: true,
    view: {
      leaf,
      path: p.path,
      fates: p.path.map((i) => p.fates.get(i) ?? { kind: "no-message", reason: "not read by pi" }),
      sessionModel,
      model: p.model,
      reasoning: p.reasoning,
      payload: p.payload,
      itemSources: p.itemSources,
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
  /** Payload size in characters with the rule flipped, minus now. */
  readonly characterDelta: number;
  /** Prompt tokens with the rule flipped, minus now (estimated), once counted. */
  readonly tokenDelta?: number;
  /** The setting the effect was measured against. */
  readonly against: RuleSettings;
}

function perEntry(p: Projection): Map<number, string> {
  const out = new Map<number, string>();
  for (const i of p.path) out.set(i, JSON.stringify(p.fates.get(i) ?? null));
  p.llm.messages.forEach((m, k) => {
    const entry = p.llmSources[k] as number;
    out.set(entry, `${out.get(entry) ?? ""}${JSON.stringify(m)}`);
  });
  return out;
}

/** For every rule: how many entries on the path it changes, compared with its alternative value. */
export function ruleEffects(
  tree: EntryTree,
  leaf: number,
  settings: RuleSettings,
  modelRef: string | undefined,
  projected?: Result<Projection>,
): RuleEffect[] {
  const model = resolveModel(modelRef);
  if (!model.ok) return [];
  const current = projected ?? run(tree, leaf, settings, model.value);
  if (!current.ok) return [];
  const mine = perEntry(current.value);
  const size = JSON.stringify(current.value.payload.body).length;
  const path = pathToLeaf(tree, leaf);
  const types = customTypes(tree, path.ok ? path.value : []);
  const effects: RuleEffect[] = [];
  for (const rule of RULES) {
    const against = alternative(rule, settings, types);
    if (!against) continue;
    const other = run(tree, leaf, against, model.value);
    if (!other.ok) continue;
    const theirs = perEntry(other.value);
    let entries = 0;
    for (const [i, text] of mine) if (theirs.get(i) !== text) entries += 1;
    effects.push({
      rule: rule.id,
      entries,
      characterDelta: JSON.stringify(other.value.payload.body).length - size,
      against,
    });
  }
  return effects;
}
