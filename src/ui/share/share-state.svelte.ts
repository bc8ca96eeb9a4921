/**
 * The share review: the snapshot the worker made, what the review found in it, the person's choices, and the
 * file and link that follow from them. Nothing is exported except through `exported`, which applies the choices.
 */
import { DEFAULT_CHOICES, exportWith, reviewSnapshot, snapshotJson, type Review } from "../../core/snapshot/export.ts";
import { encodeSnapshotLink, linkFit, type LinkFit } from "../../core/snapshot/link.ts";
import type { Result } from "../../core/result.ts";
import type { Snapshot } from "../../core/snapshot/schema.ts";

export type ShareStatus =
  | { readonly kind: "making" }
  | { readonly kind: "failed"; readonly error: string }
  | { readonly kind: "ready"; readonly review: Review };

export class ShareState {
  status: ShareStatus = $state.raw({ kind: "making" });
  /** Ids of the redactions the person keeps visible. */
  reveal: readonly string[] = $state.raw(DEFAULT_CHOICES.reveal);
  keepImages = $state(DEFAULT_CHOICES.keepImages);
  /** The link for the current choices, once encoded (undefined while it is being made). */
  link: { readonly url: string; readonly fit: LinkFit } | undefined = $state.raw(undefined);
  #linkRequest = 0;

  /** The snapshot as it would leave now. */
  readonly exported: Snapshot | undefined = $derived(
    this.status.kind === "ready"
      ? exportWith(this.status.review, { reveal: this.reveal, keepImages: this.keepImages })
      : undefined,
  );
  readonly json: string | undefined = $derived(this.exported ? snapshotJson(this.exported) : undefined);

  /** Takes the worker's answer; `base` is the page URL the link starts with. */
  async receive(answer: Promise<Result<Snapshot>>, base: string): Promise<void> {
    try {
      const result = await answer;
      this.status = result.ok
        ? { kind: "ready", review: reviewSnapshot(result.value) }
        : { kind: "failed", error: result.error };
    } catch (error) {
      this.status = { kind: "failed", error: error instanceof Error ? error.message : String(error) };
    }
    await this.updateLink(base);
  }

  setRevealed(id: string, revealed: boolean, base: string): Promise<void> {
    const others = this.reveal.filter((r) => r !== id);
    this.reveal = revealed ? [...others, id] : others;
    return this.updateLink(base);
  }

  setKeepImages(keep: boolean, base: string): Promise<void> {
    this.keepImages = keep;
    return this.updateLink(base);
  }

  /** Encodes the current export as a link (the latest choice wins when several are pending). */
  async updateLink(base: string): Promise<void> {
    const snapshot = this.exported;
    const request = ++this.#linkRequest;
    this.link = undefined;
    if (!snapshot) return;
    const url = `${base}${await encodeSnapshotLink(snapshot)}`;
    if (request === this.#linkRequest) this.link = { url, fit: linkFit(url.length) };
  }
}

/** How the review names a place in the snapshot: "payload item 3 (line 25)", "system prompt", … */
export function placeLabel(where: string, entries: readonly string[], lineOf: (ref: string) => number | undefined) {
  const item = /^payload\.body\.(?:messages|input|contents)\[(\d+)\]/.exec(where);
  if (item) {
    const lines = entries.map((r) => lineOf(r)).filter((l) => l !== undefined);
    return `payload item ${item[1]}${lines.length > 0 ? ` (line ${lines.join(", ")})` : ""}`;
  }
  if (where.startsWith("systemPrompt")) return "the system prompt";
  if (where.startsWith("tools")) return "the tool definitions";
  if (where.startsWith("payload.body")) return `the payload (${where.slice("payload.body.".length)})`;
  if (where.startsWith("session")) return "the session's details";
  return where;
}

/** Enough of a secret for its owner to recognise it, not enough to use: "sk-pro… (51 characters)". */
export function maskSecret(secret: string): string {
  const head = secret.length > 12 ? secret.slice(0, 6) : secret.slice(0, 2);
  return `${head}… (${secret.length.toLocaleString("en-US")} characters)`;
}
