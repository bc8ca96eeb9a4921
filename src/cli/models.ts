/** `models [FILTER]`: the registry the CLI and app resolve PROVIDER/ID against (with `--models FILE`'s models). */
import { allModels } from "../core/models/registry.ts";
import type { Output } from "./output.ts";

export async function modelsCommand(args: readonly string[], out: Output): Promise<number> {
  const filter = (args[0] ?? "").toLowerCase();
  for (const m of allModels()) {
    const ref = `${m.provider}/${m.id}`;
    if (!filter || ref.toLowerCase().includes(filter)) out.line(`${ref}\t${m.api}`);
  }
  return 0;
}
