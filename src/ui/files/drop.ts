/** Collects the files of a drop — including whole folders (e.g. ~/.pi/agent/sessions) — as `{file, name}`. */

export interface PickedFile {
  readonly file: Blob;
  readonly name: string;
}

const isSessionLike = (name: string) => /\.(jsonl|json|ndjson|txt|log)$/i.test(name);

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

async function walk(entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    if (prefix === "" || isSessionLike(file.name)) out.push({ file, name: prefix + file.name });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader)) {
    for (const child of batch) await walk(child, `${prefix}${entry.name}/`, out);
  }
}

/** Files dropped directly are all taken; inside folders only files that look like sessions (.jsonl, …). */
export async function filesFromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const entries = [...data.items].map((item) => item.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry => !!e);
  if (entries.length === 0) return [...data.files].map((file) => ({ file, name: file.name }));
  const out: PickedFile[] = [];
  for (const entry of entries) await walk(entry, "", out);
  return out;
}

export function filesFromInput(input: HTMLInputElement): PickedFile[] {
  return [...(input.files ?? [])].map((file) => ({ file, name: file.webkitRelativePath || file.name }));
}
