/**
 * The local library: open session files (as Blobs) and the selection, in IndexedDB through idb-keyval.
 * The only module that touches storage. Saved state has a versioned zod schema; every failure is a value
 * that says what was not saved, so the UI can tell the person and keep what is on screen.
 */
import { del, get, getMany, set } from "idb-keyval";
import { checkData, z } from "../../core/zod.ts";
import { err, ok, type Result } from "../../core/result.ts";

const LIBRARY_KEY = "context-lens/library";
const sessionKey = (key: string) => `context-lens/session/${key}`;

const librarySchema = z.object({
  version: z.literal(1),
  sessions: z.array(z.object({ key: z.string(), name: z.string(), addedAt: z.number() })),
  selection: z.object({ key: z.string().optional(), leaf: z.number().int().optional() }),
  visited: z.boolean(),
});

export type Library = z.infer<typeof librarySchema>;
export type StoredSession = Library["sessions"][number] & { readonly file: Blob };

const EMPTY: Library = { version: 1, sessions: [], selection: {}, visited: false };

/** Why storage failed, for people: "the browser's storage quota is full". */
export function describeStorageError(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : "";
  if (name === "QuotaExceededError") return "the browser's storage quota is full";
  if (name === "InvalidStateError" || name === "SecurityError" || typeof indexedDB === "undefined")
    return "this browser window does not allow local storage (private mode?)";
  return error instanceof Error ? error.message : String(error);
}

/** A session file that could not be stored: the sentence for people, and the reason alone (to group failures). */
export interface StorageFailure {
  readonly message: string;
  readonly reason: string;
}

/** The saved library, or an empty one (first visit); a damaged index is reported and replaced. */
export async function loadLibrary(): Promise<Result<{ library: Library; files: Map<string, Blob> }>> {
  try {
    const raw = await get(LIBRARY_KEY);
    if (raw === undefined) return ok({ library: EMPTY, files: new Map() });
    const parsed = checkData(librarySchema, raw);
    if (!parsed.success)
      return err("The saved library is from another version or damaged; starting with an empty one.");
    // One transaction for all: read one by one, 300 sessions took 0.3-0.6 s before the first was opened again.
    const blobs: unknown[] = await getMany(parsed.data.sessions.map((s) => sessionKey(s.key)));
    const files = new Map<string, Blob>();
    parsed.data.sessions.forEach((s, i) => {
      const blob = blobs[i];
      if (blob instanceof Blob) files.set(s.key, blob);
    });
    return ok({ library: parsed.data, files });
  } catch (error) {
    return err(`Saved sessions could not be read: ${describeStorageError(error)}.`);
  }
}

export async function saveLibrary(library: Library): Promise<Result<void>> {
  try {
    await set(LIBRARY_KEY, library);
    return ok(undefined);
  } catch (error) {
    return err(`The list of open sessions was not saved: ${describeStorageError(error)}.`);
  }
}

export async function saveSessionFile(key: string, name: string, file: Blob): Promise<Result<void, StorageFailure>> {
  try {
    await set(sessionKey(key), file);
    return ok(undefined);
  } catch (error) {
    const reason = describeStorageError(error);
    return err({
      message: `${name} was not saved for the next visit: ${reason}. It stays open until you reload.`,
      reason,
    });
  }
}

/** The stored copy of one session file (to read it again after the worker stopped); undefined if there is none. */
export async function loadSessionFile(key: string): Promise<Blob | undefined> {
  try {
    const blob: unknown = await get(sessionKey(key));
    return blob instanceof Blob ? blob : undefined;
  } catch {
    return undefined; // the caller falls back to the file as it was opened
  }
}

export async function deleteSessionFile(key: string): Promise<Result<void>> {
  try {
    await del(sessionKey(key));
    return ok(undefined);
  } catch (error) {
    return err(`A removed session could not be deleted from storage: ${describeStorageError(error)}.`);
  }
}

const RULES_KEY = "context-lens/rules";

/** Saved presets (as preset-list JSON, so the same zod schema reads files and storage) and the rules in use. */
const rulesStoreSchema = z.object({
  version: z.literal(1),
  /** `presetsToJson` of the person's own presets. */
  presets: z.string(),
  /** `presetToJson` of the settings in use, named after the preset they started from. */
  current: z.string().optional(),
  model: z.string().optional(),
});

export type RulesStore = z.infer<typeof rulesStoreSchema>;

/**
 * What is stored under `key`, read by `schema`: undefined when nothing is; `damaged` when it does not read, or
 * why storage could not be read (`what` names it).
 */
async function loadStored<T>(
  key: string,
  schema: z.ZodType<T>,
  damaged: string,
  what: string,
): Promise<Result<T | undefined>> {
  try {
    const raw = await get(key);
    if (raw === undefined) return ok(undefined);
    const parsed = checkData(schema, raw);
    return parsed.success ? ok(parsed.data) : err(damaged);
  } catch (error) {
    return err(`${what} could not be read: ${describeStorageError(error)}.`);
  }
}

export function loadRulesStore(): Promise<Result<RulesStore | undefined>> {
  return loadStored(
    RULES_KEY,
    rulesStoreSchema,
    "The saved rule presets are damaged; starting with pi's defaults.",
    "Saved rule presets",
  );
}

export async function saveRulesStore(store: RulesStore): Promise<Result<void>> {
  try {
    await set(RULES_KEY, store);
    return ok(undefined);
  } catch (error) {
    return err(`Your rule presets were not saved: ${describeStorageError(error)}. They stay until you reload.`);
  }
}

const MODELS_KEY = "context-lens/models-json";

/** The person's models.json as they imported it, read again on every visit. */
const modelsJsonSchema = z.object({ version: z.literal(1), name: z.string(), text: z.string() });

export type StoredModelsJson = z.infer<typeof modelsJsonSchema>;

export function loadModelsJson(): Promise<Result<StoredModelsJson | undefined>> {
  return loadStored(
    MODELS_KEY,
    modelsJsonSchema,
    "The saved models.json is damaged; import it again.",
    "The saved models.json",
  );
}

/** Keeps the models.json for later visits; undefined forgets it. */
export async function saveModelsJson(stored: StoredModelsJson | undefined): Promise<Result<void>> {
  try {
    if (stored) await set(MODELS_KEY, stored);
    else await del(MODELS_KEY);
    return ok(undefined);
  } catch (error) {
    return err(`Your models.json was not saved: ${describeStorageError(error)}. It is in use until you reload.`);
  }
}
