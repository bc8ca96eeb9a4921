/** The payload as a file and on the clipboard: pretty JSON, exactly what `JSON.stringify(body, null, 2)` writes. */

/** Pretty JSON (two-space indent) of the whole body or of one item, nothing shortened or elided. */
export const payloadJson = (value: unknown): string => JSON.stringify(value, null, 2);

/** `<model>-payload.json`, the model label made safe as a file name (`anthropic/claude-x` → `anthropic-claude-x`). */
export function payloadFileName(modelLabel: string): string {
  const safe = modelLabel
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[-.]+|-+$/g, "")
    .slice(0, 120);
  return `${safe === "" ? "model" : safe}-payload.json`;
}

/** Saves `text` as a download named `fileName`, through a Blob URL (nothing goes over the network). */
export function downloadText(text: string, fileName: string): void {
  downloadBlob(new Blob([text], { type: "application/json" }), fileName);
}

/** Saves `file` as a download named `fileName`, through a Blob URL (nothing goes over the network). */
export function downloadBlob(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; the URL is kept a while for browsers that read it lazily.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
