/**
 * One side of a comparison — a leaf, rule settings and a model — projected on a loaded session, and which of
 * the three two sides differ in.
 */
import type { ModelInfo } from "../llm/types.ts";
import { findModel, parseModelRef } from "../models/registry.ts";
import { projectLeaf, type Projection } from "../project/project.ts";
import { projectionOptions, type RuleSettings } from "../project/rules.ts";
import { err, ok, type Result } from "../result.ts";
import type { EntryTree } from "../session/tree.ts";

export interface CompareSide {
  /** Entry index of the leaf. */
  readonly leaf: number;
  readonly settings: RuleSettings;
  /** "PROVIDER/ID"; undefined = the model the path ends with. */
  readonly model: string | undefined;
}

/** The registry's model for "PROVIDER/ID" (undefined for the session's own). */
export function resolveModelRef(ref: string | undefined): Result<ModelInfo | undefined> {
  if (ref === undefined) return ok(undefined);
  const parsed = parseModelRef(ref);
  const model = parsed && findModel(parsed.provider, parsed.id);
  return model ? ok(model) : err(`${ref} is not a model in pi-ai's registry (nor in a models.json in use)`);
}

/** The projection of one side. */
export function projectSide(tree: EntryTree, side: CompareSide): Result<Projection> {
  const model = resolveModelRef(side.model);
  if (!model.ok) return model;
  const options = projectionOptions(side.settings);
  return projectLeaf(tree, side.leaf, model.value ? { ...options, model: model.value } : options);
}
