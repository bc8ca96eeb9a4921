/**
 * A tiny, dependency-free syntax highlighter for the code blocks of session text. It knows strings, comments,
 * keywords and numbers of a few languages and nothing else. Its output is HTML in which every piece of the input
 * is escaped and the only markup is `<span class="hl-…">`, so it can never add markup of its own making.
 */

export type TokenKind = "comment" | "string" | "number" | "keyword";

interface Grammar {
  /** One alternative per token kind, tried in this order; all must be free of capture groups. */
  readonly patterns: readonly (readonly [TokenKind, string])[];
  readonly keywords: ReadonlySet<string>;
}

const IDENTIFIER = "[A-Za-z_$][\\w$]*";

const JS_KEYWORDS =
  "abstract as async await break case catch class const continue debugger declare default delete do else enum " +
  "export extends false finally for from function get if implements import in instanceof interface keyof let new " +
  "null of private protected public readonly return satisfies set static super switch this throw true try type " +
  "typeof undefined var void while with yield";
const PYTHON_KEYWORDS =
  "and as assert async await break class continue def del elif else except False finally for from global if " +
  "import in is lambda None nonlocal not or pass raise return self True try while with yield match case";
const BASH_KEYWORDS =
  "if then else elif fi for while until do done case esac in function select time return local export " +
  "readonly declare unset shift exit break continue source alias cd echo set trap exec eval";

const words = (list: string): ReadonlySet<string> => new Set(list.split(" "));

const JS: Grammar = {
  patterns: [
    ["comment", String.raw`\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)`],
    ["string", String.raw`"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|` + "`(?:[^`\\\\]|\\\\[\\s\\S])*`?"],
    ["number", String.raw`\b(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?n?)\b`],
  ],
  keywords: words(JS_KEYWORDS),
};

const JSON_GRAMMAR: Grammar = {
  patterns: [
    ["string", String.raw`"(?:[^"\\\n]|\\.)*"?`],
    ["number", String.raw`-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b`],
  ],
  keywords: words("true false null"),
};

const PYTHON: Grammar = {
  patterns: [
    ["comment", "#[^\\n]*"],
    [
      "string",
      String.raw`(?:\b[rRbBuUfF]{1,2})?(?:"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)`,
    ],
    ["number", String.raw`\b(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?j?)\b`],
  ],
  keywords: words(PYTHON_KEYWORDS),
};

const BASH: Grammar = {
  patterns: [
    // `#` starts a comment only at the start of a word (`$#`, `${#x}` and `a#b` are not comments).
    ["comment", String.raw`(?:^|(?<=[\s;|&(]))#[^\n]*`],
    ["string", String.raw`"(?:[^"\\]|\\[\s\S])*"?|'[^']*'?`],
    ["number", String.raw`\b\d+\b`],
  ],
  keywords: words(BASH_KEYWORDS),
};

const GRAMMARS: Readonly<Record<string, Grammar>> = {
  ts: JS,
  typescript: JS,
  tsx: JS,
  js: JS,
  javascript: JS,
  jsx: JS,
  mjs: JS,
  cjs: JS,
  json: JSON_GRAMMAR,
  jsonc: JSON_GRAMMAR,
  jsonl: JSON_GRAMMAR,
  bash: BASH,
  sh: BASH,
  shell: BASH,
  zsh: BASH,
  console: BASH,
  python: PYTHON,
  py: PYTHON,
};

const compiled = new Map<Grammar, RegExp>();

/** One global regex per grammar: each kind is a named group, identifiers come last (to find keywords). */
function scannerFor(grammar: Grammar): RegExp {
  let scanner = compiled.get(grammar);
  if (!scanner) {
    const alternatives = grammar.patterns.map(([kind, pattern]) => `(?<${kind}>${pattern})`);
    scanner = new RegExp([...alternatives, `(?<word>${IDENTIFIER})`].join("|"), "g");
    compiled.set(grammar, scanner);
  }
  return scanner;
}

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `text` with the five HTML-significant characters escaped; safe in element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** The grammar for a fenced code block's info string (`ts`, `Python`, `json title="x"`), if there is one. */
function grammarFor(lang: string | undefined): Grammar | undefined {
  const name = lang?.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  return Object.hasOwn(GRAMMARS, name) ? GRAMMARS[name] : undefined;
}

/** Whether `highlightCode` colours code of this language (otherwise it only escapes it). */
export function isHighlightedLanguage(lang: string | undefined): boolean {
  return grammarFor(lang) !== undefined;
}

const span = (kind: TokenKind, text: string) => `<span class="hl-${kind}">${escapeHtml(text)}</span>`;

/**
 * Escaped HTML for `code`, with strings, comments, keywords and numbers wrapped in `<span class="hl-KIND">`.
 * Code of an unknown language is only escaped.
 */
export function highlightCode(code: string, lang: string | undefined): string {
  const grammar = grammarFor(lang);
  if (!grammar) return escapeHtml(code);
  const scanner = scannerFor(grammar);
  let html = "";
  let plainFrom = 0;
  for (const match of code.matchAll(scanner)) {
    const groups = match.groups ?? {};
    const kind = grammar.patterns.find(([name]) => groups[name] !== undefined)?.[0];
    const isKeyword = kind === undefined && grammar.keywords.has(match[0]);
    if (kind === undefined && !isKeyword) continue;
    html += escapeHtml(code.slice(plainFrom, match.index)) + span(kind ?? "keyword", match[0]);
    plainFrom = match.index + match[0].length;
  }
  return html + escapeHtml(code.slice(plainFrom));
}
