/** The built-in sample session, loaded on demand so it costs nothing on first paint. */
import type { PickedFile } from "../files/drop.ts";

export const SAMPLE_NAME = "sample-session.jsonl";

export async function loadSample(): Promise<PickedFile> {
  const { default: text } = await import("../sample/sample-session.jsonl?raw");
  return { file: new Blob([text], { type: "application/jsonl" }), name: SAMPLE_NAME };
}
