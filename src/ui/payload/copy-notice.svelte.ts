/** Copying parts of the payload, with one short-lived status line for all copy buttons of the view. */

/** How long a "Copied …" line stays. */
const NOTICE_MS = 2500;

export class CopyNotice {
  text = $state("");
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Writes `getText()` to the clipboard and says so ("Copied item 12"), or says why it failed. The text may come
   * from the session worker (the view holds stand-ins for images), hence a promise.
   */
  async copy(getText: () => string | Promise<string>, what: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(await getText());
      this.#show(`Copied ${what}`);
    } catch (error) {
      this.#show(`Could not copy ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Saves what `get()` gives (a text, a file) with `save`, or says why it could not. */
  async save<T>(get: () => T | Promise<T>, save: (value: T) => void, what: string): Promise<void> {
    try {
      save(await get());
    } catch (error) {
      this.#show(`Could not save ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #show(text: string): void {
    this.text = text;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => (this.text = ""), NOTICE_MS);
  }
}
