import { describe, expect, it } from "vitest";
import {
  describeBase64Size,
  imageDataUrl,
  isDisplayableImageType,
  isInlineImageSrc,
} from "../../src/ui/inspector/images.ts";

describe("image allow-list", () => {
  it("shows PNG, JPEG, GIF and WebP only", () => {
    for (const type of ["image/png", "image/jpeg", "image/gif", "image/webp", "IMAGE/PNG", "image/png; q=1"]) {
      expect(isDisplayableImageType(type), type).toBe(true);
    }
    for (const type of ["image/svg+xml", "text/html", "image/x-icon", "application/octet-stream", ""]) {
      expect(isDisplayableImageType(type), type).toBe(false);
    }
  });

  it("builds data: URLs only for displayable types and plain base64", () => {
    expect(imageDataUrl("image/png", "iVBORw0KGgo=")).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(imageDataUrl("image/PNG", "iVBO\nRw0K")).toBe("data:image/png;base64,iVBORw0K");
    expect(imageDataUrl("image/svg+xml", "PHN2Zz4=")).toBeUndefined();
    expect(imageDataUrl("image/png", 'x" onerror="alert(1)')).toBeUndefined();
    expect(imageDataUrl("image/png", "abc)def")).toBeUndefined();
  });

  it("lets markdown images load only from base64 data: URLs of displayable types", () => {
    expect(isInlineImageSrc("data:image/gif;base64,R0lGODlhAQABAAAAACw=")).toBe(true);
    expect(isInlineImageSrc("https://example.com/a.png")).toBe(false);
    expect(isInlineImageSrc("//example.com/a.png")).toBe(false);
    expect(isInlineImageSrc("a.png")).toBe(false);
    expect(isInlineImageSrc("data:image/svg+xml;base64,PHN2Zz4=")).toBe(false);
    expect(isInlineImageSrc("data:image/png,<svg>")).toBe(false);
    expect(isInlineImageSrc("data:text/html;base64,PHNjcmlwdD4=")).toBe(false);
  });

  it("describes the decoded size of base64 data", () => {
    expect(describeBase64Size("AAAA")).toBe("3 B");
    expect(describeBase64Size("A".repeat(4096))).toBe("3.0 KB");
    expect(describeBase64Size("A".repeat(4 * 1024 * 1024))).toBe("3.0 MB");
  });
});
