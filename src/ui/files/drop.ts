/**
 * Collects the files of a drop — including whole folders (e.g. ~/.pi/agent/sessions) — as `{file, name}`.
 * Nothing is left out silently: files inside folders that are not session files, and entries that cannot be
 * read, come back by name so the app can say so.
 */

export interface PickedFile {
  readonly file: Blob;
  readonly name: string;
  /** Found inside a dropped folder (not chosen one by one): if it is not a pi session, it is named, not listed. */
  readonly inFolder?: boolean;
}

export interface DroppedFiles {
  readonly files: readonly PickedFile[];
  /** Paths of files inside folders that were not opened because they are not session files (by their name). */
  readonly skipped: readonly string[];
  /** Files and folders that could not be read at all, with why. */
  readonly unreadable: readonly { readonly name: string; readonly why: string }[];
  /** pi's own configuration found inside dropped folders (a dropped ~/.pi/agent), not read: path and what it is. */
  readonly config?: readonly { readonly name: string; readonly what: string }[];
}

/**
 * pi's configuration files beside its sessions in ~/.pi/agent, by name: inside a dropped folder they are not
 * sessions, and auth.json holds credentials, so none of them is read (models.json is read, as models: see
 * `isModelsJson`).
 */
const PI_CONFIG: ReadonlyMap<string, string> = new Map([
  ["auth.json", "pi's credentials"],
  ["settings.json", "pi's settings"],
]);

/** pi's models.json, by name: its models are used (custom providers), it is not opened as a session. */
export const isModelsJson = (name: string): boolean => /(^|\/)models\.json$/i.test(name);

/** Inside folders only these are opened: pi writes `.jsonl`; the others are what a session is often renamed to. */
export const isSessionLike = (name: string): boolean => /\.(jsonl|json|ndjson|txt|log)$/i.test(name);

const why = (error: unknown) =>
  error instanceof Error || error instanceof DOMException ? `${error.name}: ${error.message}` : String(error);

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

interface Collected {
  files: PickedFile[];
  skipped: string[];
  unreadable: { name: string; why: string }[];
  config: { name: string; what: string }[];
}

async function walk(entry: FileSystemEntry, prefix: string, out: Collected): Promise<void> {
  const path = prefix + entry.name;
  const config = prefix === "" ? undefined : PI_CONFIG.get(entry.name.toLowerCase());
  if (entry.isFile && config !== undefined) {
    out.config.push({ name: path, what: config });
    return;
  }
  if (entry.isFile) {
    try {
      const file = await fileOf(entry as FileSystemFileEntry);
      if (prefix === "") out.files.push({ file, name: path });
      else if (isSessionLike(file.name)) out.files.push({ file, name: path, inFolder: true });
      else out.skipped.push(path);
    } catch (error) {
      out.unreadable.push({ name: path, why: why(error) });
    }
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  try {
    // readEntries hands out a folder in batches (Chromium: 100 at a time) until it returns none.
    for (let batch = await readEntries(reader); batch.length > 0; batch = await readEntries(reader)) {
      for (const child of batch) await walk(child, `${path}/`, out);
    }
  } catch (error) {
    out.unreadable.push({ name: `${path}/`, why: why(error) });
  }
}

/** Files dropped directly are all taken; inside folders only files that look like sessions (.jsonl, …). */
export async function filesFromEntries(entries: readonly FileSystemEntry[]): Promise<DroppedFiles> {
  const out: Collected = { files: [], skipped: [], unreadable: [], config: [] };
  for (const entry of entries) await walk(entry, "", out);
  return out;
}

/** The files of a drop. Call it from the drop handler itself: the browser empties `data` once the handler awaits. */
export async function filesFromDrop(data: DataTransfer): Promise<DroppedFiles> {
  const entries = [...data.items].map((item) => item.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry => !!e);
  if (entries.length === 0)
    return { files: [...data.files].map((file) => ({ file, name: file.name })), skipped: [], unreadable: [] };
  return filesFromEntries(entries);
}

export function filesFromInput(input: HTMLInputElement): PickedFile[] {
  return [...(input.files ?? [])].map((file) =>
    file.webkitRelativePath ? { file, name: file.webkitRelativePath, inFolder: true } : { file, name: file.name },
  );
}

/** What a drop left out, for people; undefined when it left nothing out. */
export function describeLeftOut(dropped: DroppedFiles): { text: string; details: readonly string[] } | undefined {
  const { skipped, unreadable } = dropped;
  const config = dropped.config ?? [];
  if (skipped.length === 0 && unreadable.length === 0 && config.length === 0) return undefined;
  const parts: string[] = [];
  if (config.length > 0)
    parts.push(
      `${listed(config.map((c) => `${c.name} (${c.what})`))} ${config.length === 1 ? "was" : "were"} not read: not a session`,
    );
  if (skipped.length > 0)
    parts.push(
      `${count(skipped.length, "file")} in the dropped folders ${skipped.length === 1 ? "was" : "were"} not opened because ${skipped.length === 1 ? "its name does" : "their names do"} not end in .jsonl, .json, .ndjson, .txt or .log (pi's sessions are .jsonl): ${listed(skipped)}`,
    );
  if (unreadable.length > 0)
    parts.push(
      `${count(unreadable.length, "dropped item")} could not be read: ${listed(unreadable.map((u) => `${u.name} (${u.why})`))}`,
    );
  return {
    text: `${parts.join(". ")}.`,
    details: [
      ...config.map((c) => `${c.name}: ${c.what}, not read`),
      ...skipped.map((s) => `${s}: not a session file`),
      ...unreadable.map((u) => `${u.name}: ${u.why}`),
    ],
  };
}

/** "1 file", "3 files". */
export const count = (n: number, noun: string): string => `${n.toLocaleString("en")} ${noun}${n === 1 ? "" : "s"}`;

/** The first few names, then how many more ("a, b, c and 7 more"). */
export function listed(names: readonly string[], shown = 5): string {
  if (names.length <= shown)
    return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names.join("");
  return `${names.slice(0, shown).join(", ")} and ${names.length - shown} more`;
}
