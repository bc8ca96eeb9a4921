/**
 * The share review as the session worker answers it. The snapshot is made, reviewed, exported under the person's
 * choices and written (file and link) where the session is: on a large payload the redactor's pass, the JSON and
 * the link take the better part of a second, which the page must not spend. The page gets what it shows: the
 * secrets and images the review found, the facts of the export, its file and its link.
 */
import {
  exportWith,
  reviewSnapshot,
  snapshotFileName,
  snapshotJson,
  type ExportChoices,
  type Review,
} from "./export.ts";
import { encodeSnapshotLink } from "./link.ts";
import type { Snapshot } from "./schema.ts";
import { summarizeSnapshot, type SnapshotSummary } from "./summary.ts";

/** What the review found: each secret (with the original, for the person reviewing) and each image. */
export interface ShareFindings {
  readonly redactions: Review["redactions"];
  readonly images: Review["images"];
  /** Path entry ref → file line, to say where a secret was found. */
  readonly lines: readonly (readonly [string, number])[];
}

/** The snapshot as it would leave under the choices made. */
export interface ShareOutput {
  readonly summary: SnapshotSummary;
  readonly fileName: string;
  /**
   * The file (pretty JSON, `application/json`): a Blob, so the page gets it by reference and saves it as it is,
   * without copying or encoding megabytes of text.
   */
  readonly file: Blob;
  /** The part of the link after the page's address: `#snapshot=…`. */
  readonly linkFragment: string;
}

/** A snapshot reviewed for sharing: what the page is shown now, and what later choices are applied to. */
export interface Share {
  readonly review: Review;
  readonly findings: ShareFindings;
}

export function startShare(snapshot: Snapshot): Share {
  const review = reviewSnapshot(snapshot);
  return {
    review,
    findings: {
      redactions: review.redactions,
      images: review.images,
      lines: snapshot.path.map((entry) => [entry.ref, entry.line] as const),
    },
  };
}

/** The file and link of `share` under `choices` (nothing the person did not choose to show is in them). */
export async function shareOutput(share: Share, choices: ExportChoices): Promise<ShareOutput> {
  const exported = exportWith(share.review, choices);
  return {
    summary: summarizeSnapshot(exported),
    fileName: snapshotFileName(exported),
    file: new Blob([snapshotJson(exported)], { type: "application/json" }),
    linkFragment: await encodeSnapshotLink(exported),
  };
}

/** The worker's first answer to "share": the findings, and the export under the default choices (hide all). */
export interface ShareStart {
  /** Names the review for later choices (`shareOutput`). */
  readonly shareId: number;
  readonly findings: ShareFindings;
  readonly output: ShareOutput;
}
