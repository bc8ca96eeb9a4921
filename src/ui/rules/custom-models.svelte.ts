/**
 * The models.json in use, for every model picker: its custom models are offered beside pi-ai's (the session
 * worker resolves them), and the rules panel says which file they come from.
 */
import type { ModelInfo } from "../../core/llm/types.ts";

class ModelsJsonInUse {
  /** The file's name; undefined while none is in use. */
  name: string | undefined = $state(undefined);
  custom: readonly ModelInfo[] = $state.raw([]);
  /** Built-in models the file overrides (base URL, compat, limits). */
  overridden = $state(0);
}

export const modelsJson = new ModelsJsonInUse();
