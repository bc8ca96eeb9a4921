/**
 * Which images the inspector may show. Only raster formats a browser decodes without running anything, and only
 * from `data:` URLs, so showing a session never makes a request and never runs a script (SVG can hold both).
 */

/** The image types shown as pictures; any other type (SVG included) is shown as a placeholder. */
export const DISPLAYABLE_IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether images of this MIME type are shown as pictures (`image/PNG; x=y` counts as `image/png`). */
export function isDisplayableImageType(mimeType: string): boolean {
  return DISPLAYABLE_IMAGE_TYPES.includes(mimeType.split(";")[0]!.trim().toLowerCase());
}

/**
 * The `data:` URL for an image block, or `undefined` when it must not be shown as a picture: a type outside
 * `DISPLAYABLE_IMAGE_TYPES`, or data that is not plain base64.
 */
export function imageDataUrl(mimeType: string, data: string): string | undefined {
  if (!isDisplayableImageType(mimeType)) return undefined;
  const compact = data.replace(/\s+/g, "");
  if (!BASE64.test(compact)) return undefined;
  return `data:${mimeType.split(";")[0]!.trim().toLowerCase()};base64,${compact}`;
}

const INLINE_IMAGE_SRC = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/\s]*={0,2})$/i;

/**
 * Whether an `<img src>` found in markdown may stay: only a base64 `data:` URL of a displayable type.
 * Everything else (remote, relative, SVG) would make a request or could run script, and is dropped.
 */
export function isInlineImageSrc(src: string): boolean {
  const match = INLINE_IMAGE_SRC.exec(src.trim());
  return match !== null && isDisplayableImageType(match[1]!);
}

/** Approximate decoded size of base64 text, for captions ("12.3 KB"). */
export function describeBase64Size(data: string): string {
  const bytes = Math.floor((data.replace(/[\s=]/g, "").length * 3) / 4);
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
