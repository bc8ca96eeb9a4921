/**
 * Markdown → HTML for session text, with highlighted code and no remote images. The output is NOT safe yet:
 * raw HTML in the text passes through, so it must go through `sanitizeHtml` (sanitize.ts) before it is shown.
 * This half needs no DOM, so it is unit-tested in Node; the sanitiser is tested in the browser.
 */
import { Marked, type Renderer, type Tokens } from "marked";
import { escapeHtml, highlightCode } from "./highlight.ts";
import { isInlineImageSrc } from "./images.ts";

/** The CSS class of the placeholder that stands in for an image the inspector will not load. */
export const BLOCKED_IMAGE_CLASS = "md-blocked-image";

function renderCode({ text, lang }: Tokens.Code): string {
  const language = lang?.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  const languageClass = /^[a-z0-9_+-]+$/.test(language) ? ` class="language-${language}"` : "";
  return `<pre><code${languageClass}>${highlightCode(text.replace(/\n$/, ""), language)}</code></pre>\n`;
}

function renderImage({ href, title, text }: Tokens.Image): string {
  const titleAttribute = title ? ` title="${escapeHtml(title)}"` : "";
  if (isInlineImageSrc(href)) return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}"${titleAttribute}>`;
  const what = text ? `image "${text}"` : "image";
  return `<span class="${BLOCKED_IMAGE_CLASS}" title="${escapeHtml(href)}">[${escapeHtml(what)} not loaded: ${escapeHtml(href)}]</span>`;
}

/** The inspector's own headings are h2 (the entry) and h3 (its sections): session text starts at h3. */
export const HEADING_OFFSET = 2;

function renderHeading(this: Renderer, { tokens, depth }: Tokens.Heading): string {
  const level = Math.min(depth + HEADING_OFFSET, 6);
  return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
}

/** Task-list boxes as characters: an `<input>` would be a form control inside session text. */
const renderCheckbox = ({ checked }: Tokens.Checkbox) => (checked ? "☑ " : "☐ ");

const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: { code: renderCode, image: renderImage, checkbox: renderCheckbox, heading: renderHeading },
});

/**
 * HTML for markdown `text` (GFM): headings moved down by `HEADING_OFFSET`, fenced code highlighted (see highlight.ts), images other than base64 PNG, JPEG,
 * GIF or WebP `data:` URLs replaced by a `[image … not loaded: URL]` placeholder. Raw HTML in `text` is kept
 * as written: sanitise the result before showing it.
 */
export function markdownToUnsafeHtml(text: string): string {
  return markdown.parse(text, { async: false });
}
