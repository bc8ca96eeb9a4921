/** One copy-to-clipboard action and what became of it, for a button to show ("Copied", "Copy failed"). */
export type CopyStatus = "idle" | "copied" | "failed";

/** How long "Copied" / "Copy failed" stays before the button reads as before. */
const STATUS_MS = 2000;

export class CopyAction {
  status: CopyStatus = $state("idle");
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Writes `text` to the clipboard; the status says whether that worked (a page without permission fails). */
  async copy(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.#show("copied");
    } catch {
      this.#show("failed");
    }
  }

  #show(status: CopyStatus): void {
    this.status = status;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => (this.status = "idle"), STATUS_MS);
  }
}
