/**
 * The review before anything leaves: what a snapshot would give away, and the snapshot as it is exported.
 * By default every image is replaced by a note (type and size) and every secret the redactor finds — in the
 * payload, the system prompt, the tools, and every other text of the document — by its marker. The person may
 * keep single secrets visible, or the images; each redaction is listed (kind, label, marker, where) and the
 * exported document never holds an original.
 */
import { NON_TEXT_KEYS, redactValue, restoreValue, type PathRedaction } from "../project/redact.ts";
import { replaceAt, stubImages, type FoundImage } from "./images.ts";
import type { Snapshot, SnapshotImage } from "./schema.ts";

/** What the person chose in the review. */
export interface ExportChoices {
  /** Ids of redactions to leave undone: these secrets stay visible in the export. */
  readonly reveal: readonly string[];
  /** Keep images instead of their notes. */
  readonly keepImages: boolean;
}

/** Images stubbed, every secret redacted. */
export const DEFAULT_CHOICES: ExportChoices = Object.freeze({ reveal: [], keepImages: false });

/** One secret found in review. */
export interface ReviewRedaction {
  /** Stable for one snapshot: "r1", "r2", … in document order. */
  readonly id: string;
  readonly kind: string;
  readonly label: string;
  readonly replacement: string;
  /** Where in the snapshot document. */
  readonly where: string;
  /** The path entries behind the payload item it is in (none outside the payload's messages). */
  readonly entries: readonly string[];
  /** The secret itself, for the person reviewing; never part of an export unless revealed. */
  readonly original: string;
}

/** Everything the review found, computed once per snapshot; `exportWith` applies choices to it cheaply. */
export interface Review {
  readonly snapshot: Snapshot;
  readonly redactions: readonly ReviewRedaction[];
  readonly images: readonly SnapshotImage[];
  /** The scanned parts with images stubbed and every secret redacted. */
  readonly redacted: Scanned;
  readonly pathRedactions: readonly PathRedaction[];
  readonly found: readonly FoundImage[];
}

/** The top-level fields of a snapshot that hold text from the session, the person or the model. */
const SCANNED = ["session", "leaf", "path", "rules", "model", "systemPrompt", "tools", "payload", "findings"] as const;
type Scanned = Pick<Snapshot, (typeof SCANNED)[number]>;

/** Opaque provider data (signatures, encrypted reasoning): no text a person wrote. Image `data` is stubbed first. */
const OPAQUE_KEYS = NON_TEXT_KEYS.filter((k) => k !== "data");

const pick = (snapshot: Snapshot): Scanned =>
  Object.fromEntries(SCANNED.filter((k) => k in snapshot).map((k) => [k, snapshot[k]])) as Scanned;

/** The payload item a document path is inside, if any. */
function itemOf(where: string, snapshot: Snapshot): number | undefined {
  const prefix = `payload.body.${snapshot.payload.listKey}[`;
  if (!where.startsWith(prefix)) return undefined;
  const index = Number.parseInt(where.slice(prefix.length), 10);
  return Number.isNaN(index) ? undefined : index;
}

/** Finds what the snapshot would give away: its images and its secrets. */
export function reviewSnapshot(snapshot: Snapshot): Review {
  const stubbed = stubImages(pick(snapshot));
  const { value: redacted, redactions } = redactValue(stubbed.value, { skipKeys: OPAQUE_KEYS });
  return {
    snapshot,
    redacted,
    pathRedactions: redactions,
    found: stubbed.images,
    images: stubbed.images.map(({ where, mimeType, bytes }) => ({ where, mimeType, bytes })),
    redactions: redactions.map((r, i) => {
      const item = itemOf(r.path, snapshot);
      return {
        id: `r${i + 1}`,
        kind: r.kind,
        label: r.label,
        replacement: r.replacement,
        where: r.path,
        entries: item === undefined ? [] : [...(snapshot.payload.itemSources[item] ?? [])],
        original: r.original,
      };
    }),
  };
}

/** The snapshot to export under these choices: nothing the person did not choose to show is in it. */
export function exportWith(review: Review, choices: ExportChoices): Snapshot {
  const reveal = new Set(choices.reveal);
  const ids = new Map(review.pathRedactions.map((r, i) => [r, `r${i + 1}`]));
  let scanned: Scanned =
    reveal.size === 0
      ? review.redacted
      : restoreValue(review.redacted, review.pathRedactions, (r) => reveal.has(ids.get(r)!));
  if (choices.keepImages) {
    let restored: unknown = scanned;
    for (const image of review.found) restored = putBack(restored, image);
    scanned = restored as Scanned;
  }
  const kept = review.redactions.filter((r) => !reveal.has(r.id));
  return {
    ...review.snapshot,
    ...scanned,
    redactions: [
      ...review.snapshot.redactions,
      ...kept.map((r) => ({
        kind: r.kind,
        label: r.label,
        replacement: r.replacement,
        where: r.where,
        by: "export" as const,
        ...(r.entries.length > 0 ? { entries: [...r.entries] } : {}),
      })),
    ],
    images: choices.keepImages ? review.snapshot.images : [...review.snapshot.images, ...review.images],
  };
}

/** Puts an image's data back where its note stands. */
function putBack(root: unknown, image: FoundImage): unknown {
  let node: unknown = root;
  for (const key of image.keys) node = (node as Record<string | number, unknown>)[key];
  if (node !== image.stub)
    throw new Error(`Cannot put the image at ${image.where} back: its note is not there any more.`);
  return replaceAt(root, image.keys, image.original);
}

/** A snapshot as it may leave: reviewed and with the person's choices applied (the default: hide everything). */
export function prepareExport(snapshot: Snapshot, choices: ExportChoices = DEFAULT_CHOICES): Snapshot {
  return exportWith(reviewSnapshot(snapshot), choices);
}

/** The file's text: pretty JSON. */
export const snapshotJson = (snapshot: Snapshot): string => `${JSON.stringify(snapshot, null, 2)}\n`;

/** `<session>-<leaf>.snapshot.json`, safe as a file name. */
export function snapshotFileName(snapshot: Snapshot): string {
  const base = snapshot.session.fileName.replace(/\.[^.]*$/, "").replace(/^.*[\\/]/, "");
  const safe = `${base}-${snapshot.leaf.ref}`.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "");
  return `${safe.slice(0, 120) || "context"}.snapshot.json`;
}
