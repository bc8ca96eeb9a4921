/**
 * Text longer than a page can lay out quickly is shown cut, and says so: markdown, sanitising and layout all grow
 * with the text, and one 50 MB tool result would freeze the page. The copy buttons still copy all of it.
 */

/** The most characters of one text the inspector shows. */
export const SHOWN_CHARS = 100_000;

export interface Clipped {
  /** What is shown. */
  readonly text: string;
  /** Undefined when nothing was cut; else the sentence that says what was. */
  readonly note: string | undefined;
}

export function clipForDisplay(text: string, limit = SHOWN_CHARS): Clipped {
  if (text.length <= limit) return { text, note: undefined };
  return {
    text: text.slice(0, limit),
    note: `Showing the first ${limit.toLocaleString("en")} of ${text.length.toLocaleString("en")} characters; the copy buttons copy all of them.`,
  };
}
