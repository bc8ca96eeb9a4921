/** Our pipeline end to end for tests: text → payload body or error, addressed like the reference. */
import { loadSessionText } from "../../src/core/session/load.ts";
import { indexTree } from "../../src/core/session/tree.ts";
import { projectLeaf } from "../../src/core/project/project.ts";
import { findModel, parseModelRef } from "../../src/core/models/registry.ts";
import { PI_DEFAULTS, projectionOptions } from "../../src/core/project/rules.ts";

export function ourSession(text: string, name = "test.jsonl") {
  return indexTree(loadSessionText(name, text));
}

export function ourPayload(
  tree: ReturnType<typeof ourSession>,
  leaf: number,
  model: string,
  systemPrompt?: string,
): { payload: unknown } | { error: string } {
  let target;
  if (model !== "session") {
    const ref = parseModelRef(model);
    target = ref && findModel(ref.provider, ref.id);
    if (!target) return { error: "unknown model" };
  }
  // Through the default preset's options, so every differential test also proves the preset is pi.
  const result = projectLeaf(tree, leaf, {
    ...projectionOptions(PI_DEFAULTS),
    ...(target ? { model: target } : {}),
    ...(systemPrompt ? { systemPrompt } : {}),
  });
  return result.ok ? { payload: result.value.payload.body } : { error: result.error };
}
