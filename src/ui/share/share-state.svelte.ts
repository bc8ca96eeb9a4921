/**
 * The share review: what the worker's review of the snapshot found, the person's choices, and the file and link
 * that follow from them. The snapshot itself, the redactor's pass over it and the writing of the file and link stay
 * in the session worker (on a large payload they take the better part of a second); choices go there and come
 * back as a new file and link. Nothing is exported except `output`, made under the choices shown.
 */
import { DEFAULT_CHOICES } from "../../core/snapshot/export.ts";
import { linkFit, type LinkFit } from "../../core/snapshot/link.ts";
import type { Result } from "../../core/result.ts";
import type { ShareFindings, ShareOutput, ShareStart } from "../../core/snapshot/share.ts";
import type { SnapshotSummary } from "../../core/snapshot/summary.ts";
import type { SessionClient } from "../../worker/client.ts";

export type ShareStatus =
  | { readonly kind: "making" }
  | { readonly kind: "failed"; readonly error: string }
  | { readonly kind: "ready"; readonly shareId: number; readonly findings: ShareFindings };

export class ShareState {
  status: ShareStatus = $state.raw({ kind: "making" });
  /** Ids of the redactions the person keeps visible. */
  reveal: readonly string[] = $state.raw(DEFAULT_CHOICES.reveal);
  keepImages = $state(DEFAULT_CHOICES.keepImages);
  /** The file and link under the current choices; undefined while they are being made (nothing to save then). */
  output: ShareOutput | undefined = $state.raw(undefined);
  /** The link for `output`, with how well it travels. */
  link: { readonly url: string; readonly fit: LinkFit } | undefined = $state.raw(undefined);
  /** The facts of the latest export (kept while a new one is made: they hold no secret). */
  summary: SnapshotSummary | undefined = $state.raw(undefined);

  readonly #client: Pick<SessionClient, "shareOutput" | "shareEnd">;
  /** The page address a link starts with. */
  readonly #base: string;
  #request = 0;
  #closed = false;

  constructor(client: Pick<SessionClient, "shareOutput" | "shareEnd">, base: string) {
    this.#client = client;
    this.#base = base;
  }

  /** Takes the worker's answer to the share request. */
  async receive(answer: Promise<Result<ShareStart>>): Promise<void> {
    try {
      const result = await answer;
      if (this.#closed) {
        if (result.ok) await this.#client.shareEnd(result.value.shareId);
        return;
      }
      if (!result.ok) {
        this.status = { kind: "failed", error: result.error };
        return;
      }
      this.status = { kind: "ready", shareId: result.value.shareId, findings: result.value.findings };
      this.#show(result.value.output);
    } catch (error) {
      this.#fail(error);
    }
  }

  setRevealed(id: string, revealed: boolean): Promise<void> {
    const others = this.reveal.filter((r) => r !== id);
    this.reveal = revealed ? [...others, id] : others;
    return this.#update();
  }

  setKeepImages(keep: boolean): Promise<void> {
    this.keepImages = keep;
    return this.#update();
  }

  /** Asks for the file and link under the current choices (the latest choice wins when several are pending). */
  async #update(): Promise<void> {
    const status = this.status;
    if (status.kind !== "ready") return;
    const request = ++this.#request;
    this.output = undefined;
    this.link = undefined;
    try {
      const answer = await this.#client.shareOutput(status.shareId, {
        reveal: this.reveal,
        keepImages: this.keepImages,
      });
      if (request !== this.#request) return;
      if (answer.ok) this.#show(answer.value);
      else this.status = { kind: "failed", error: answer.error };
    } catch (error) {
      if (request === this.#request) this.#fail(error);
    }
  }

  /** The dialog closed: the worker may let go of the snapshot. */
  async close(): Promise<void> {
    const status = this.status;
    this.#closed = true;
    this.#request += 1; // an answer still on its way is not shown
    if (status.kind === "ready") await this.#client.shareEnd(status.shareId);
  }

  #show(output: ShareOutput): void {
    this.output = output;
    this.summary = output.summary;
    const url = `${this.#base}${output.linkFragment}`;
    this.link = { url, fit: linkFit(url.length) };
  }

  #fail(error: unknown): void {
    this.status = { kind: "failed", error: error instanceof Error ? error.message : String(error) };
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
