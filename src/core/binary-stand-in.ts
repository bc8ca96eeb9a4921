/**
 * What the page gets in place of image data in a payload: its type and size. The session worker posts payloads to
 * the page, which copies every string in them; images are most of a large session, and the page only ever shows
 * them as `<image/png, 43 KB>`. Whole JSON (to copy or download) is written by the worker, from the real payload.
 */
export interface BinaryStandIn {
  readonly $standIn: "binary";
  readonly mimeType: string;
  /** Decoded size. */
  readonly bytes: number;
}

export const binaryStandIn = (mimeType: string, bytes: number): BinaryStandIn => ({
  $standIn: "binary",
  mimeType,
  bytes,
});

export function isBinaryStandIn(value: unknown): value is BinaryStandIn {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return v["$standIn"] === "binary" && typeof v["mimeType"] === "string" && typeof v["bytes"] === "number";
}
