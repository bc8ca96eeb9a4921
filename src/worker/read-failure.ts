/** A load that failed because the file itself can no longer be read (moved, deleted or changed on disk). */

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The error to show for a failed load of `file`: when the file cannot be read any more, that is the reason, said
 * plainly with how far it was read (`bytesRead`); otherwise the loader's own error stands.
 */
export async function explainLoadFailure(error: unknown, file: Blob, name: string, bytesRead: number): Promise<Error> {
  const original = error instanceof Error ? error : new Error(String(error));
  const probe = await file
    .slice(0, 1)
    .arrayBuffer()
    .then(
      () => undefined,
      (failure: unknown) => failure,
    );
  if (probe === undefined) return original;
  const what = (probe as { name?: unknown }).name;
  const where = bytesRead > 0 ? ` past ${size(bytesRead)} of ${size(file.size)}` : "";
  return new Error(
    `${name} could not be read${where} (${typeof what === "string" ? what : String(probe)}): it was moved, deleted or changed on disk while it was being read. It was not opened; open it again to read it as it is now.`,
  );
}
