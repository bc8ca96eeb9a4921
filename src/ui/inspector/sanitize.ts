/**
 * Session text is untrusted: the HTML made from it goes through DOMPurify, in the browser, right before it is
 * shown. An allow-list of plain document tags (no script, style, forms, frames, media, SVG or MathML), no event
 * handlers or inline styles, only http(s)/mailto/relative links (opened in a new tab without opener or referrer),
 * and images only from base64 `data:` URLs of raster types: showing a session never makes a request.
 */
import createDOMPurify, { type Config, type DOMPurify } from "dompurify";
import { isInlineImageSrc } from "./images.ts";
import { markdownToUnsafeHtml } from "./markdown.ts";

const ALLOWED_TAGS = [
  ...["p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "code", "kbd", "samp", "span"],
  ...["em", "strong", "b", "i", "u", "s", "del", "ins", "mark", "sub", "sup", "small", "abbr", "q", "cite"],
  ...["ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption"],
  ...["a", "img", "details", "summary", "div"],
];

const CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR: ["href", "title", "alt", "src", "class", "start", "colspan", "rowspan", "align", "open"],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // http(s), mailto, fragments and relative URLs; `data:` is allowed by DOMPurify on <img src> only.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z0-9+.-]+(?:[^a-z0-9+.\-:]|$))/i,
};

/** Links open in a new tab, without `window.opener` or a referrer; images not from inline data lose their source. */
function secureElement(node: Element): void {
  if (node.tagName === "A" && node.hasAttribute("href")) {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
  if (node.tagName === "IMG" && !isInlineImageSrc(node.getAttribute("src") ?? "")) {
    node.removeAttribute("src");
    node.setAttribute("alt", `[image not loaded${node.getAttribute("alt") ? `: ${node.getAttribute("alt")}` : ""}]`);
  }
}

let purifier: DOMPurify | undefined;

/** A DOMPurify instance of our own, so these hooks never touch another component's use of the shared one. */
function getPurifier(): DOMPurify {
  if (!purifier) {
    purifier = createDOMPurify(window);
    purifier.addHook("afterSanitizeAttributes", secureElement);
  }
  return purifier;
}

/** Safe HTML for untrusted `html`, per the rules above. Browser only (DOMPurify parses with the page's DOM). */
export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html, CONFIG);
}

/** Markdown session text as safe HTML: `markdownToUnsafeHtml`, then `sanitizeHtml`. For `{@html}`. */
export function renderMarkdown(text: string): string {
  return sanitizeHtml(markdownToUnsafeHtml(text));
}
