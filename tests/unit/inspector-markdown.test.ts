import { describe, expect, it } from "vitest";
import { BLOCKED_IMAGE_CLASS, markdownToUnsafeHtml } from "../../src/ui/inspector/markdown.ts";

/** The DOM-free half of markdown rendering; the DOMPurify half is tested in tests/e2e/inspector.spec.ts. */
describe("markdownToUnsafeHtml", () => {
  it("renders GFM: headings, emphasis, lists, tables", () => {
    const html = markdownToUnsafeHtml("# Title\n\n*a* **b**\n\n- one\n- two\n\n| x | y |\n|---|---|\n| 1 | 2 |");
    expect(html).toContain("<h3>Title</h3>");
    expect(html).toContain("<em>a</em> <strong>b</strong>");
    expect(html).toContain("<li>one</li>");
    expect(html).toContain("<td>1</td>");
  });

  it("moves headings below the inspector's own, down to h6", () => {
    expect(markdownToUnsafeHtml("## Two *em*\n\n###### Six")).toBe("<h4>Two <em>em</em></h4>\n<h6>Six</h6>\n");
  });

  it("highlights fenced code of known languages and escapes all code", () => {
    const html = markdownToUnsafeHtml('```ts\nconst s = "<b>";\n```');
    expect(html).toBe(
      '<pre><code class="language-ts"><span class="hl-keyword">const</span> s = ' +
        '<span class="hl-string">&quot;&lt;b&gt;&quot;</span>;</code></pre>\n',
    );
    expect(markdownToUnsafeHtml("```\n<script>x</script>\n```")).toBe(
      "<pre><code>&lt;script&gt;x&lt;/script&gt;</code></pre>\n",
    );
  });

  it("drops a language class that is not a plain name", () => {
    expect(markdownToUnsafeHtml('```x"onmouseover=alert(1)\ncode\n```')).toBe("<pre><code>code</code></pre>\n");
  });

  it("replaces images that are not inline raster data by a placeholder naming the URL", () => {
    const html = markdownToUnsafeHtml('![a "cat"](https://example.com/a.png)');
    expect(html).not.toContain("<img");
    expect(html).toContain(`class="${BLOCKED_IMAGE_CLASS}"`);
    expect(html).toContain("not loaded: https://example.com/a.png");
    expect(markdownToUnsafeHtml("![](data:image/svg+xml;base64,PHN2Zz4=)")).not.toContain("<img");
  });

  it("keeps base64 raster data: images", () => {
    expect(markdownToUnsafeHtml("![dot](data:image/png;base64,iVBORw0KGgo=)")).toContain(
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">',
    );
  });

  it("renders task-list boxes as characters, not form controls", () => {
    const html = markdownToUnsafeHtml("- [x] done\n- [ ] todo");
    expect(html).not.toContain("<input");
    expect(html).toContain("☑ done");
    expect(html).toContain("☐ todo");
  });

  it("passes raw HTML through for the sanitiser (it is not safe on its own)", () => {
    expect(markdownToUnsafeHtml("<script>x()</script>")).toContain("<script>");
  });
});
