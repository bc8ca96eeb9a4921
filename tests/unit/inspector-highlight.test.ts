import { describe, expect, it } from "vitest";
import { escapeHtml, highlightCode, isHighlightedLanguage } from "../../src/ui/inspector/highlight.ts";

/** The text of highlighted HTML: spans removed, entities decoded. */
const textOf = (html: string) =>
  html
    .replace(/<span class="hl-[a-z]+">|<\/span>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

/** [kind, text] of every highlighted token. */
const tokens = (html: string) =>
  [...html.matchAll(/<span class="hl-([a-z]+)">([^<]*)<\/span>/g)].map((m) => [m[1], m[2]]);

describe("highlightCode", () => {
  it("marks strings, comments, keywords and numbers in TypeScript", () => {
    const html = highlightCode('const answer = 42; // the answer\nreturn "yes";', "ts");
    expect(tokens(html)).toEqual([
      ["keyword", "const"],
      ["number", "42"],
      ["comment", "// the answer"],
      ["keyword", "return"],
      ["string", "&quot;yes&quot;"],
    ]);
  });

  it("does not mark identifiers that only contain keywords or digits", () => {
    expect(tokens(highlightCode("constant x1 returned", "js"))).toEqual([]);
  });

  it("knows JSON literals and numbers", () => {
    expect(tokens(highlightCode('{"a": -1.5e3, "b": true, "c": null}', "json"))).toEqual([
      ["string", "&quot;a&quot;"],
      ["number", "-1.5e3"],
      ["string", "&quot;b&quot;"],
      ["keyword", "true"],
      ["string", "&quot;c&quot;"],
      ["keyword", "null"],
    ]);
  });

  it("treats # as a bash comment only at the start of a word", () => {
    const html = highlightCode('echo "$#" ${#arr} # count\nif true; then exit 1; fi', "bash");
    expect(tokens(html)).toEqual([
      ["keyword", "echo"],
      ["string", "&quot;$#&quot;"],
      ["comment", "# count"],
      ["keyword", "if"],
      ["keyword", "then"],
      ["keyword", "exit"],
      ["number", "1"],
      ["keyword", "fi"],
    ]);
  });

  it("knows python comments, prefixed and triple-quoted strings", () => {
    const html = highlightCode('def f():\n    """doc\n    more"""\n    return f"x{1}"  # done', "python");
    expect(tokens(html)).toEqual([
      ["keyword", "def"],
      ["string", "&quot;&quot;&quot;doc\n    more&quot;&quot;&quot;"],
      ["keyword", "return"],
      ["string", "f&quot;x{1}&quot;"],
      ["comment", "# done"],
    ]);
  });

  it("accepts aliases and info strings, case-insensitively", () => {
    expect(isHighlightedLanguage("TypeScript")).toBe(true);
    expect(isHighlightedLanguage("py title=x")).toBe(true);
    expect(isHighlightedLanguage("sh")).toBe(true);
    expect(isHighlightedLanguage("brainfuck")).toBe(false);
    expect(isHighlightedLanguage(undefined)).toBe(false);
    expect(isHighlightedLanguage("constructor")).toBe(false);
  });

  it("only escapes code of an unknown language", () => {
    expect(highlightCode("<b>if</b> & 'x'", "text")).toBe("&lt;b&gt;if&lt;/b&gt; &amp; &#39;x&#39;");
  });

  it("escapes everything and keeps the text intact, whatever the input", () => {
    const hostile = [
      '"</span><script>alert(1)</script>',
      "// <img src=x onerror=alert(1)>",
      "'unterminated <b>\nnext line & more",
      "/* unterminated <i>",
      "`template ${a} <svg onload=x>`",
    ];
    for (const lang of ["ts", "json", "bash", "python", "none"]) {
      for (const code of hostile) {
        const html = highlightCode(code, lang);
        expect(html.replace(/<\/?span( class="hl-[a-z]+")?>/g, "")).not.toMatch(/[<>]/);
        expect(textOf(html)).toBe(code);
      }
    }
  });

  it("escapes the five HTML-significant characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });
});
