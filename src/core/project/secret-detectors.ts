/**
 * The detectors of `redact.ts`: the kinds of secret it reports, and for each family of secrets where its matches
 * can start (anchors), the sticky pattern tried there and the checks that confirm a match. `redact.ts` runs them.
 *
 * Judgement calls, each erring towards redaction when a value has the exact shape of a credential and towards
 * leaving text alone when only its surroundings hint at one:
 * - Known formats (sk-proj-…, ghp_…, AKIA…, eyJ….eyJ….…) are redacted wherever they stand, even in prose and even
 *   when they contain "EXAMPLE": AWS's documented sample keys have the real shape, and redacting them costs
 *   nothing. Only bodies that are plainly filler (xxxxxx, too few distinct characters) are left alone.
 * - A value is redacted because of its name only when the name ends in a secret word: `*_TOKEN`, `*_SECRET`,
 *   `*PASSWORD`, `*_PASS`, `*_PWD`, `*credentials`, `Authorization`, `api_key`/`apiKey`/`X-Api-Key` and other
 *   `key`s qualified as secret (`private_key`, `client_key`, `ENCRYPTION_KEY`, any `UPPER_SNAKE_KEY`). Names ending
 *   in something else (`TOKEN_URL`, `max_tokens`, `private_key_id`, `PASSWORD_FILE`) are not secrets; any name
 *   containing `public` is not either. A vague name (`key`, `cacheKey`, `auth`, a bare `pass`) counts only when its
 *   value looks random: 16+ characters with letters and digits and a 12+ character stretch mixing them, not a
 *   UUID, a hex digest or dashed words (`user-settings-v2`).
 * - Under a token or key name the value must look like a credential: 8+ characters with a digit or both cases.
 *   `"apiKey": "ollama"`, `"apiKey": "OPENAI_API_KEY"` (pi's reference to an environment variable) and
 *   `"sessionKey": "agent:main:main"` are not. Under a password name a plain word (`hunter2`, `postgres`) is enough.
 * - A secret-named value is kept when it is a placeholder (`YOUR_API_KEY`, `<token>`, `sk-...`, `xxx`,
 *   `changeme`, `example`, `redacted`, a type name such as `string`), a reference (`$TOKEN`, `${X}`, `{{ secrets.X }}`,
 *   `%s`, `op://…`, a path, pi's `!command` that prints the key), empty, or code: a dotted path
 *   (`process.env.API_KEY`, `options?.apiKey`), a call or index (`os.environ["TOKEN"]`, `getenv("X")`), a bare
 *   identifier on the right of `=` with spaces or of a lower-case `name:` (TypeScript's `password: string`), a
 *   string in a ternary (`ok ? "pass" : "fail"`), a shell expansion (`${TOKEN:+set}`). `.env`-style `NAME=value`,
 *   YAML `UPPER_NAME: value`, CLI flags `--password=abc` and query strings `?token=abc&…` take bare words
 *   literally. Multi-word values such as passphrases are redacted when quoted. Not covered: XML elements
 *   (`<password>…</password>`), space-separated flags (`--password abc`, `curl -u user:pass`) — except Twilio's
 *   `AC…:token` and `SK…:secret` pairs, whose SID has a shape of its own (the SID, an identifier, stays).
 * - Bearer tokens need 16+ characters of two character classes; Basic credentials must decode to `user:password`.
 *   Only the password of a URL (`scheme://user:password@host`) is redacted, unless the user part is itself a known
 *   token. A PEM block needs a base64 body of 40+ characters; a block cut off before its END line is redacted up to
 *   the end of its body. A JWT's first part must decode to a JOSE header. Certificates, public keys and publishable
 *   keys (`pk_live_…`) are not secrets.
 * - Known formats are found wherever they stand as a token of their own (not glued to other letters or digits).
 *   A free-form secret (a secret-named value or URL password of 10+ characters mixing character classes) has no
 *   shape to be found by, so once found its other occurrences are redacted too, wherever they stand ("echoes"):
 *   a password pasted into a command later on leaks as much as the line that named it. Plain words are not echoed
 *   (`postgres` would hit every mention of the database), and at most 64 distinct secrets per text (or value) are.
 */
import type { SecretKind } from "./redact.ts";

export interface KindSpec extends SecretKind {
  /** The replacement may show the last 4 characters (random tokens long enough that 4 characters give nothing away). */
  readonly showTail: boolean;
}

const spec = (id: string, label: string, showTail = true): KindSpec => ({ id, label, showTail });

export const KIND_SPECS: readonly KindSpec[] = [
  spec("private-key", "Private key (PEM block)", false),
  spec("jwt", "JSON Web Token"),
  spec("anthropic-key", "Anthropic API key"),
  spec("anthropic-oauth-token", "Anthropic OAuth or session token"),
  spec("openrouter-key", "OpenRouter API key"),
  spec("openai-key", "OpenAI API key"),
  spec("sk-key", "API key in sk-… form (DeepSeek, Moonshot, …)"),
  spec("google-api-key", "Google API key"),
  spec("google-oauth-token", "Google OAuth access token"),
  spec("google-client-secret", "Google OAuth client secret"),
  spec("github-token", "GitHub token"),
  spec("gitlab-token", "GitLab token"),
  spec("slack-token", "Slack token"),
  spec("slack-webhook", "Slack webhook secret"),
  spec("discord-webhook", "Discord webhook token"),
  spec("stripe-key", "Stripe secret or restricted key"),
  spec("stripe-webhook-secret", "Stripe webhook signing secret"),
  spec("aws-access-key-id", "AWS access key ID", false),
  spec("aws-secret-key", "AWS secret access key"),
  spec("huggingface-token", "Hugging Face token"),
  spec("npm-token", "npm token"),
  spec("pypi-token", "PyPI API token"),
  spec("groq-key", "Groq API key"),
  spec("xai-key", "xAI API key"),
  spec("perplexity-key", "Perplexity API key"),
  spec("tavily-key", "Tavily API key"),
  spec("nvidia-key", "NVIDIA API key"),
  spec("linear-key", "Linear API key"),
  spec("replicate-token", "Replicate API token"),
  spec("sendgrid-key", "SendGrid API key"),
  spec("digitalocean-token", "DigitalOcean token"),
  spec("shopify-token", "Shopify access token"),
  spec("docker-token", "Docker Hub access token"),
  spec("telegram-bot-token", "Telegram bot token"),
  spec("twilio-secret", "Twilio auth token or API key secret"),
  spec("bearer-token", "Bearer token"),
  spec("basic-auth", "Basic auth credentials", false),
  spec("url-password", "Password in a URL", false),
  spec("connection-string-password", "Password in a connection string", false),
  spec("secret-assignment", "Value of a secret-named setting", false),
];

export const SPEC_BY_ID = new Map(KIND_SPECS.map((k) => [k.id, k]));

// ── Small predicates ───────────────────────────────────────────────────────────────────────────────────────────

/** How many different characters `s` holds, counting no further than `limit`. */
function distinctCount(s: string, limit = Infinity): number {
  const seen = new Set<string>();
  for (const c of s) {
    seen.add(c);
    if (seen.size >= limit) break;
  }
  return seen.size;
}

/** Kinds of character present among lower case, upper case, digits. */
const charClasses = (s: string): number => +/[a-z]/.test(s) + +/[A-Z]/.test(s) + +/[0-9]/.test(s);

/**
 * A token body that is plainly filler: `sk-proj-xxxxxxxx…`, `AKIA0000000000000000`. Filler repeats one or two
 * characters; a random hex tail of 16 has 4 or 5 different ones about once in 25,000 tokens (fast-check found a
 * Shopify token so), and fewer than 4 about once in a billion.
 */
const isFiller = (secret: string): boolean => distinctCount(secret.slice(-16)) < 4 || /[xX]{6}/.test(secret);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Words that mark a stand-in, as whole words of the value (`YOUR_API_KEY`, `your-key-here`): random tokens hold them as substrings. */
const PLACEHOLDER_WORDS = new Set(
  "your example sample placeholder changeme replaceme dummy fake redacted insert here".split(" "),
);
const PLACEHOLDER_VALUES =
  /^(?:none|null|nil|undefined|true|false|yes|no|on|off|empty|todo|tbd|fixme|secret|password|passwd|pass|pwd|token|key|api[_-]?key|auth|test|testing|foo|bar|baz|foobar|string|str|text|number|int|integer|bool|boolean|any|unknown|object|bytes|optional|required|default|value|abc|abc123)$/i;

/** Declares itself a stand-in rather than a secret: `YOUR_API_KEY`, `<token>`, `xxxx`, `change_me`, `string`. */
function isPlaceholder(value: string): boolean {
  const v = value.trim();
  return (
    /\.\.\.|…|x{4}|X{4}|\*{3}/.test(v) ||
    /change[ _-]me|replace[ _-]me|fill[ _-]?in/i.test(v) ||
    PLACEHOLDER_VALUES.test(v) ||
    (v.length > 0 && distinctCount(v, 3) <= 2) ||
    /^[<[{(].*[>\]})]$/.test(v) ||
    nameWords(v).some((w) => PLACEHOLDER_WORDS.has(w))
  );
}

const REFERENCE_START =
  /^(?:\$|![A-Za-z]|%[A-Za-z_(]|[!@#]\{|\{\{|\/|\.\.?\/|~\/|op:\/\/|vault:|arn:|ref\+|env:|file:|secret:\/\/)/i;
const REFERENCE_ANYWHERE =
  /\$\{|\$\(|\{\{|%s|(?:^|\s)\$[A-Za-z_]|process\.env|os\.environ|getenv|import\.meta\.env|ENV\[|Deno\.env/;

/** Points at a secret kept elsewhere: a variable, a template, a path, a secret-manager reference. */
const isReference = (value: string): boolean => REFERENCE_START.test(value) || REFERENCE_ANYWHERE.test(value);

/**
 * Random-looking: what a credential in a field with an ambiguous name (`key`, `auth`) must look like. Words joined by
 * dashes (`user-settings-v2`), UUIDs and hex digests do not.
 */
function looksRandom(value: string): boolean {
  return (
    value.length >= 16 &&
    value.length <= 4096 &&
    /^[A-Za-z0-9+/=_.~-]+$/.test(value) &&
    /[0-9]/.test(value) &&
    /[A-Za-z]/.test(value) &&
    distinctCount(value) >= 10 &&
    value.split(/[-_.~+/=]/).some((part) => part.length >= 12 && charClasses(part) >= 2) &&
    !UUID.test(value) &&
    !/^[0-9a-f]+$/i.test(value) &&
    !isPlaceholder(value)
  );
}

/** A free-form secret worth looking for elsewhere in the text once found (see "echoes" above). */
export function isDistinctive(secret: string): boolean {
  const classes = charClasses(secret) + +/[^A-Za-z0-9]/.test(secret);
  return secret.length >= 10 && !/\s/.test(secret) && classes >= 2 && /[^A-Za-z]/.test(secret);
}

export const FREE_FORM_KINDS = new Set(["secret-assignment", "url-password", "connection-string-password"]);

/** No control characters: what a decoded `user:password` must be. */
function isPrintable(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
  }
  return s.length > 0;
}

/** Decodes standard or URL-safe base64 to a binary string; undefined when it is not base64. */
function decodeBase64(s: string): string | undefined {
  const std = s.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (std.length % 4 === 1 || !/^[A-Za-z0-9+/]*$/.test(std)) return undefined;
  return atob(std + "=".repeat((4 - (std.length % 4)) % 4));
}

/** The first part of a JWT decodes to a JSON object with a JOSE header field. */
function isJwtHeader(jwt: string): boolean {
  const decoded = decodeBase64(jwt.slice(0, jwt.indexOf(".")));
  if (decoded === undefined || !/^\s*\{[^]*\}\s*$/.test(decoded)) return false;
  try {
    const header: unknown = JSON.parse(decoded);
    return typeof header === "object" && header !== null && ("alg" in header || "typ" in header);
  } catch {
    return false;
  }
}

// ── Detectors ──────────────────────────────────────────────────────────────────────────────────────────────────

export interface Found {
  readonly kind: string;
  readonly start: number;
  readonly end: number;
}

/** State of one scan over one text. */
export interface Scan {
  readonly text: string;
  /** The kinds to report. */
  readonly allowed: ReadonlySet<string>;
  /** Scans a piece of text with the detectors other than secret-named values' (to tell what a value found is). */
  readonly scanInner: (text: string) => readonly Found[];
  /** The next `-----END … PRIVATE KEY-----` at or after `pemFrom` (-1: none), searched once per scan, not per BEGIN. */
  pemFrom: number;
  pemAt: number;
  /** The last run of unquoted value characters read, `[runFrom, runEnd)`: any start inside it ends where it ends. */
  runFrom: number;
  runEnd: number;
  /** Where that run holds a `:` (-1: nowhere): the only separator a run can hold, so the only way names nest in it. */
  runColon: number;
}

export interface Detector {
  /** Kinds it can report. */
  readonly kinds: readonly string[];
  /** Where `trigger` can start: literal beginnings, of which the scan looks up the first three characters. */
  readonly anchors: readonly string[];
  /** Tried (sticky, with indices) at every anchor. */
  readonly trigger: RegExp;
  /** Looks closer at a trigger match; secrets it returns may start before the anchor (a lookbehind), never after their end. */
  readonly confirm: (scan: Scan, match: RegExpExecArray) => readonly Found[] | undefined;
}

const sticky = (source: string, flags = "d"): RegExp => new RegExp(source, `y${flags}`);

/** Token boundaries: not in the middle of a run of token characters. */
const L = "(?<![A-Za-z0-9_-])";
const R = "(?![A-Za-z0-9_-])";

interface TokenOptions {
  /** Capture group holding the secret when it is not the whole match. */
  readonly group?: number;
  /** Where the secret is, when it is neither the match nor a group. */
  readonly span?: (m: RegExpExecArray) => readonly [number, number];
  readonly accept?: (secret: string) => boolean;
  /** The kind, when it depends on the match; the first of `kinds` otherwise. */
  readonly classify?: (secret: string) => string;
}

/** A secret with a recognisable shape: the trigger is its whole pattern; `anchors` (space-separated) its beginnings. */
function token(
  kinds: string | readonly string[],
  anchors: string,
  pattern: string,
  options: TokenOptions = {},
): Detector {
  const list = typeof kinds === "string" ? [kinds] : kinds;
  return {
    kinds: list,
    anchors: anchors.split(" "),
    trigger: sticky(pattern),
    confirm: (_scan, m) => {
      const span = options.span?.(m) ?? m.indices?.[options.group ?? 0];
      if (!span) return undefined;
      const secret = m.input.slice(span[0], span[1]);
      if (isFiller(secret) || (options.accept && !options.accept(secret))) return undefined;
      return [{ kind: options.classify?.(secret) ?? list[0]!, start: span[0], end: span[1] }];
    },
  };
}

const hasDigitAndLetter = (s: string): boolean => /[0-9]/.test(s) && /[A-Za-z]/.test(s);

/** Twilio SIDs: AC or SK and lower-case hex, so their anchors are AC0 … ACf and SK0 … SKf. */
const TWILIO_ANCHORS = [..."0123456789abcdef"].flatMap((c) => [`AC${c}`, `SK${c}`]).join(" ");

const TOKEN_DETECTORS: readonly Detector[] = [
  token(
    ["anthropic-key", "anthropic-oauth-token"],
    "sk-",
    `${L}sk-ant-[a-z]{2,8}[0-9]{0,2}-[A-Za-z0-9_-]{32,300}${R}`,
    {
      classify: (s) => (/^sk-ant-(?:api|admin)/.test(s) ? "anthropic-key" : "anthropic-oauth-token"),
    },
  ),
  token("openrouter-key", "sk-", `${L}sk-or-(?:v[0-9]{1,2}-)?[0-9a-f]{32,128}${R}`),
  token("openai-key", "sk-", `${L}sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,400}${R}`),
  // Legacy OpenAI keys carry "T3BlbkFJ" (base64 of "OpenAI"); DeepSeek, Moonshot, DashScope (sk-sp-…) and others use
  // the same sk- shape.
  token(["openai-key", "sk-key"], "sk-", `${L}sk-(?:[a-z]{2,10}-){0,2}[A-Za-z0-9]{32,200}${R}`, {
    accept: (s) => hasDigitAndLetter(s.slice(s.lastIndexOf("-") + 1)),
    classify: (s) => (s.includes("T3BlbkFJ") ? "openai-key" : "sk-key"),
  }),
  token("google-api-key", "AIz", `${L}AIza[0-9A-Za-z_-]{35}${R}`),
  token("google-oauth-token", "ya2", `${L}ya29\\.[0-9A-Za-z_-]{20,2048}(?:\\.[0-9A-Za-z_-]{1,2048}){0,3}${R}`),
  token("google-client-secret", "GOC", `${L}GOCSPX-[0-9A-Za-z_-]{28}${R}`),
  token(
    "github-token",
    "ghp gho ghu ghs ghr git",
    `${L}(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{60,255})${R}`,
  ),
  token(
    "gitlab-token",
    "glp gld glr glc glf gli gls gla glo",
    `${L}gl(?:pat|dt|rt|ptt|cbt|ft|imt|soat|agent|oas|ffct)-[A-Za-z0-9_-]{20,300}(?:\\.[A-Za-z0-9_-]{1,300}){0,3}${R}`,
  ),
  token("slack-token", "xox xap", `${L}(?:xox[abeoprs]-|xoxe\\.xox[bp]-|xapp-)[A-Za-z0-9-]{10,250}${R}`, {
    accept: (s) => /[0-9]/.test(s) && (s.match(/-/g)?.length ?? 0) >= 2,
  }),
  token("slack-webhook", "hoo", `hooks\\.slack\\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/-]{20,300})`, {
    group: 1,
  }),
  token("discord-webhook", "dis", `discord(?:app)?\\.com/api/webhooks/[0-9]{17,20}/([A-Za-z0-9_-]{60,100})${R}`, {
    group: 1,
  }),
  token("stripe-key", "sk_ rk_", `${L}[rs]k_(?:live|test)_[A-Za-z0-9]{20,247}${R}`),
  token("stripe-webhook-secret", "whs", `${L}whsec_[A-Za-z0-9]{24,100}${R}`),
  token("aws-access-key-id", "AKI ASI ABI ACC", `(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])`),
  token("huggingface-token", "hf_", `${L}hf_[A-Za-z0-9]{34,40}${R}`, {
    accept: (s) => /[a-z]/.test(s) && /[A-Z]/.test(s),
  }),
  token("npm-token", "npm", `${L}npm_[A-Za-z0-9]{36}${R}`),
  token("pypi-token", "pyp", `${L}pypi-AgE[A-Za-z0-9_-]{60,400}${R}`),
  token("groq-key", "gsk", `${L}gsk_[A-Za-z0-9]{48,60}${R}`),
  token("xai-key", "xai", `${L}xai-[A-Za-z0-9]{70,100}${R}`),
  token("perplexity-key", "ppl", `${L}pplx-[A-Za-z0-9]{40,64}${R}`),
  token("tavily-key", "tvl", `${L}tvly-(?:dev-|prod-)?[A-Za-z0-9]{32,48}${R}`),
  token("nvidia-key", "nva", `${L}nvapi-[A-Za-z0-9_-]{60,70}${R}`),
  token("linear-key", "lin", `${L}lin_api_[A-Za-z0-9]{40}${R}`),
  token("replicate-token", "r8_", `${L}r8_[A-Za-z0-9]{30,48}${R}`),
  token("sendgrid-key", "SG.", `${L}SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}${R}`),
  token("digitalocean-token", "doo dop dor", `${L}do[opr]_v1_[a-f0-9]{64}${R}`),
  token("shopify-token", "shp", `${L}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${R}`),
  token("docker-token", "dck", `${L}dckr_pat_[A-Za-z0-9_-]{24,64}${R}`),
  // Anchored on ":AA" (digits are everywhere); the secret starts at the bot id before it.
  token("telegram-bot-token", ":AA", `(?<=${L}([0-9]{8,10})):AA[A-Za-z0-9_-]{33}${R}`, {
    span: (m) => [m.index - m[1]!.length, m.index + m[0].length],
  }),
  // An Account SID (AC…) or API key SID (SK…) and its auth token or key secret, as `curl -u` and Basic auth pair them.
  token("twilio-secret", TWILIO_ANCHORS, `${L}(?:AC|SK)[0-9a-f]{32}:([A-Za-z0-9]{32})${R}`, { group: 1 }),
];

// A whole PEM block; a block cut off before its END line is redacted through the base64 lines that follow.
const PEM_END = /-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_BODY_LINES = /(?:(?:\r?\n|\\r\\n|\\n)[ \t]*[A-Za-z0-9+/=]{1,120})*/y;
const PEM_MAX_BODY = 65_536;

function nextPemEnd(scan: Scan, from: number): number {
  if (scan.pemFrom < 0 || scan.pemFrom > from || (scan.pemAt >= 0 && scan.pemAt < from)) {
    PEM_END.lastIndex = from;
    scan.pemFrom = from;
    scan.pemAt = PEM_END.exec(scan.text)?.index ?? -1;
  }
  return scan.pemAt;
}

/**
 * What lies between BEGIN and END is a key, not code that happens to mention both markers: a base64 run of 40+
 * characters, and at least 90% base64 once whitespace and `\n` escapes are gone (headers such as `Proc-Type:` fit).
 */
function isKeyMaterial(inner: string): boolean {
  const compact = inner.replace(/\\+[rn]|\s/g, "");
  const other = compact.replace(/[A-Za-z0-9+/=]/g, "").length;
  return /[A-Za-z0-9+/]{40}/.test(compact) && other <= compact.length * 0.1;
}

const privateKeyDetector: Detector = {
  kinds: ["private-key"],
  anchors: ["BEG"],
  trigger: sticky("(?<=-----)BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----"),
  confirm: (scan, m) => {
    const { text } = scan;
    const from = m.index + m[0].length;
    const start = m.index - 5;
    const endAt = nextPemEnd(scan, from);
    if (endAt >= 0 && endAt - from <= PEM_MAX_BODY) {
      PEM_END.lastIndex = endAt;
      const end = endAt + PEM_END.exec(text)![0].length;
      return isKeyMaterial(text.slice(from, endAt)) ? [{ kind: "private-key", start, end }] : undefined;
    }
    PEM_BODY_LINES.lastIndex = from;
    const body = PEM_BODY_LINES.exec(text)![0];
    return body.replace(/\\[rn]|\s/g, "").length >= 40
      ? [{ kind: "private-key", start, end: from + body.length }]
      : undefined;
  },
};

const jwtDetector = token(
  "jwt",
  "eyJ",
  `${L}eyJ[A-Za-z0-9_-]{8,2048}\\.ey[A-Za-z0-9_-]{8,16384}\\.[A-Za-z0-9_-]{0,4096}${R}`,
  { accept: isJwtHeader },
);

/**
 * Runs the other detectors over `[start, end)` of the scan's text: a secret of a known kind inside a value wins over
 * the generic `fallback` kind. Without a fallback, only what the inner scan found.
 */
function classifySpan(scan: Scan, start: number, end: number, fallback?: string): readonly Found[] {
  const inner = scan.scanInner(scan.text.slice(start, end)).map((f) => ({
    ...f,
    start: f.start + start,
    end: f.end + start,
  }));
  if (inner.length > 0 || fallback === undefined) return inner;
  return scan.allowed.has(fallback) ? [{ kind: fallback, start, end }] : [];
}

const BEARER_TOKEN = /[\w.~+/-]{1,8192}=*/y;

const bearerDetector: Detector = {
  kinds: ["bearer-token"],
  anchors: ["Bea", "bea", "BEA"],
  trigger: sticky(`${L}(?:[Bb]earer|BEARER)[ \\t]+`),
  confirm: (scan, m) => {
    const start = m.index + m[0].length;
    BEARER_TOKEN.lastIndex = start;
    const value = BEARER_TOKEN.exec(scan.text)?.[0].replace(/\.+$/, "");
    if (!value) return undefined;
    const inner = classifySpan(scan, start, start + value.length);
    if (inner.length > 0) return inner;
    const opaque = value.length >= 16 && charClasses(value) >= 2 && distinctCount(value) >= 8 && !isPlaceholder(value);
    return opaque ? [{ kind: "bearer-token", start, end: start + value.length }] : undefined;
  },
};

const basicDetector: Detector = {
  kinds: ["basic-auth"],
  anchors: ["Bas", "bas", "BAS"],
  trigger: sticky(`${L}(?:[Bb]asic|BASIC)[ \\t]+([A-Za-z0-9+/]{4,4096}={0,2})(?![A-Za-z0-9+/=])`),
  confirm: (_scan, m) => {
    const decoded = decodeBase64(m[1]!);
    if (decoded === undefined || !isPrintable(decoded)) return undefined;
    const password = decoded.slice(decoded.indexOf(":") + 1);
    if (!decoded.includes(":") || password === "" || isPlaceholder(password)) return undefined;
    const [start, end] = m.indices![1]!;
    return [{ kind: "basic-auth", start, end }];
  },
};

const DB_SCHEMES =
  /^(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|cockroachdb|clickhouse|cassandra|couchdb|neo4j(?:\+s)?|bolt|memcached|db2|snowflake|nats)$/i;

const urlDetector: Detector = {
  kinds: ["url-password", "connection-string-password"],
  anchors: ["://"],
  trigger: sticky(`://([^\\s/?#@:"'\`<>\\\\]{0,256}):([^\\s/?#@"'\`<>\\\\]{1,512})@(?=[A-Za-z0-9.\\[-])`),
  confirm: (scan, m) => {
    const { text } = scan;
    let s = m.index;
    while (s > 0 && m.index - s < 32 && /[A-Za-z0-9+.-]/.test(text[s - 1]!)) s--;
    const scheme = text.slice(s, m.index);
    if (!/^[A-Za-z][A-Za-z0-9+.-]+$/.test(scheme)) return undefined;
    const [userStart, userEnd] = m.indices![1]!;
    const [passStart, passEnd] = m.indices![2]!;
    const password = m[2]!;
    const found = [...classifySpan(scan, userStart, userEnd)];
    if (!isPlaceholder(password) && !isReference(password) && password.length >= 2) {
      const kind = DB_SCHEMES.test(scheme) ? "connection-string-password" : "url-password";
      for (const span of classifySpan(scan, passStart, passEnd, kind)) found.push(span);
    }
    return found;
  },
};

// ── Secret-named values: `NAME=value`, `"name": "value"`, `name: value`, `--name=value` ──────────────────────

/** Every upper/lower-case spelling of each word: `key` → key, keY, kEy, …, KEY. */
function caseVariants(words: readonly string[]): string[] {
  return words.flatMap((word) =>
    [...word].reduce<string[]>(
      (acc, c) => acc.flatMap((prefix) => [prefix + c.toLowerCase(), prefix + c.toUpperCase()]),
      [""],
    ),
  );
}

const SECRET_NAME_WORDS = ["token", "secret", "pass", "pwd", "key", "auth", "credential"];
const SEPARATOR_SOURCE = `(?::=|=>|=(?![=~])|:(?![:/\\\\=+?-]))`;
const ASSIGNMENT_TRIGGER = sticky(
  `(?:${SECRET_NAME_WORDS.join("|")})(?=[\\w.-]{0,48}(?:\\\\?["'\`])?\\]?[ \\t]{0,8}${SEPARATOR_SOURCE})`,
  "i",
);
const SEPARATOR = new RegExp(`(?:\\\\?["'\`])?\\]?([ \\t]*)(${SEPARATOR_SOURCE})([ \\t]*)`, "y");
const TYPED_THEN_EQUALS = /[ \t]*=(?![=>~])[ \t]*/y;

const QUOTED: Readonly<Record<string, RegExp>> = {
  '"': /"((?:[^"\\\r\n]|\\.){0,4096})"/y,
  "'": /'((?:[^'\\\r\n]|\\.){0,4096})'/y,
  "`": /`((?:[^`\\\r\n]|\\.){0,4096})`/y,
};
const ESCAPED_QUOTED = /\\"([^"\\\r\n]{0,4096})\\"/y;
/** Unquoted values: no spaces, quotes, brackets or list separators; `=` only as base64 padding at the end. */
const UNQUOTED_RUN = /[^\s"'`,;&()<>{}[\]|\\=]*/y;
const PADDING = /={0,3}/y;
/**
 * Longest unquoted value: 8 KB (an AWS session token is ~1 KB), but 512 characters when the run holds a `:`, where
 * every `name:` inside it would read the rest of the run again.
 */
const MAX_UNQUOTED = 8192;
const MAX_UNQUOTED_NESTED = 512;

const KEY_QUALIFIERS = new Set(
  (
    "api private secret access auth client encryption encrypt signing sign master license licence service account " +
    "app application session subscription webhook hmac crypto admin deploy ssh jwt developer consumer integration " +
    "server shared bot write secure cipher aes openai anthropic gemini google groq mistral cohere stripe aws azure " +
    "github gitlab slack openrouter xai deepseek together fireworks replicate perplexity sendgrid twilio mailgun " +
    "pinecone supabase firebase cerebras voyage tavily exa jina elevenlabs deepgram resend cloudflare vercel " +
    "netlify heroku linear notion huggingface hf"
  ).split(" "),
);
const NEUTRAL_SUFFIXES = new Set(
  (
    "value val base b64 base64 hex raw enc encoded plain plaintext str string prod production dev development " +
    "staging stage test live old new current main default override local"
  ).split(" "),
);
const SECRET_WORD =
  /(?:token|secrets?|credentials?|apikey|authorization|(?:api|private|secret|access|auth|client|master|signing|encryption|session|subscription)key)$/;

/** `OPENAI_API_KEY` → openai api key; `apiKey` → api key; `X-Api-Key` → x api key. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

/**
 * What a value's name says about it: a password (any value that is not a placeholder), a token (a value with a digit
 * or mixed case: `"apiKey": "ollama"` or `"OPENAI_API_KEY"` names no credential), a maybe ("weak": only a
 * random-looking value), or nothing.
 */
type NameStrength = "password" | "token" | "weak";

interface NameJudgement {
  readonly strength: NameStrength | undefined;
  /** `aws_secret_access_key`, `SecretAccessKey`: a 40-character value is an AWS secret key. */
  readonly aws: boolean;
}

const nameCache = new Map<string, NameJudgement>();

/** `judgeName`, remembered: the same few names come back again and again. */
function judgeNameOnce(name: string): NameJudgement {
  let judgement = nameCache.get(name);
  if (!judgement) {
    const words = nameWords(name);
    judgement = { strength: judgeName(name, words), aws: words.includes("secret") && words.includes("access") };
    if (nameCache.size >= 4096) nameCache.clear();
    nameCache.set(name, judgement);
  }
  return judgement;
}

const nameStrength = (name: string): NameStrength | undefined => judgeNameOnce(name).strength;

function judgeName(name: string, allWords: readonly string[]): NameStrength | undefined {
  const words = [...allWords];
  while (words.length > 1 && (NEUTRAL_SUFFIXES.has(words.at(-1)!) || /^v?[0-9]+$/.test(words.at(-1)!))) words.pop();
  if (words.some((w) => w === "public" || w === "publishable" || w === "pub")) return undefined;
  const last = words.at(-1);
  const previous = words.at(-2);
  if (last === undefined) return undefined;
  if (/(?:password|passwd|passphrase)$/.test(last)) return "password";
  if (last === "pass" || last === "pwd") return words.length > 1 ? "password" : "weak";
  if (SECRET_WORD.test(last)) return "token";
  if (last === "key") {
    if (previous !== undefined && KEY_QUALIFIERS.has(previous)) return "token";
    return words.length > 1 && /^[A-Z][A-Z0-9_]*$/.test(name) ? "token" : "weak";
  }
  return last === "auth" ? "weak" : undefined;
}

interface ValueSpan {
  readonly start: number;
  readonly end: number;
  readonly quoted: boolean;
  /** The character right after the value (after its closing quote); "" at the end of the text. */
  readonly next: string;
}

/** The end of the run of unquoted value characters from `at`; each run is read once per scan however many names precede it. */
function unquotedRunEnd(scan: Scan, at: number): number {
  if (at < scan.runFrom || at > scan.runEnd) {
    UNQUOTED_RUN.lastIndex = at;
    UNQUOTED_RUN.exec(scan.text);
    scan.runFrom = at;
    scan.runEnd = UNQUOTED_RUN.lastIndex;
    const colon = scan.text.slice(at, scan.runEnd).indexOf(":");
    scan.runColon = colon >= 0 ? at + colon : -1;
  }
  return scan.runEnd;
}

function readValue(scan: Scan, at: number): ValueSpan | undefined {
  const { text } = scan;
  const quote = QUOTED[text[at] ?? ""];
  const escaped = text.startsWith('\\"', at);
  if (quote || escaped) {
    const re = quote ?? ESCAPED_QUOTED;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return undefined;
    const start = at + (escaped ? 2 : 1);
    return { start, end: start + m[1]!.length, quoted: true, next: text[at + m[0].length] ?? "" };
  }
  const runEnd = unquotedRunEnd(scan, at);
  const nested = scan.runColon >= 0;
  if (runEnd === at || runEnd - at > (nested ? MAX_UNQUOTED_NESTED : MAX_UNQUOTED)) return undefined;
  PADDING.lastIndex = runEnd;
  PADDING.exec(text);
  let end = PADDING.lastIndex;
  if (text.startsWith("...", end - 3) || text[end - 1] === "…") return undefined; // `sk-ant-...`: a placeholder
  while (end > at && /[.:!?]/.test(text[end - 1]!)) end--;
  return { start: at, end, quoted: false, next: text[end] ?? "" };
}

interface ValueContext {
  readonly name: string;
  readonly strength: NameStrength;
  /** `=` (or `:`) … */
  readonly separator: string;
  /** … with no space on either side. */
  readonly tight: boolean;
}

const DOTTED_PATH = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/;

/** 8+ characters with a digit or both cases, not only digits: a word or an env-var name is no credential. */
function looksLikeToken(value: string): boolean {
  const mixedCase = /\p{Lu}/u.test(value) && /\p{Ll}/u.test(value);
  return value.length >= 8 && (/[0-9]/.test(value) || mixedCase) && !/^[0-9]+$/.test(value);
}
const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Whether a secret-named value is a secret rather than a placeholder, reference or code (see the module doc). */
function isSecretValue(value: string, span: ValueSpan, c: ValueContext): boolean {
  if (c.strength === "weak") return looksRandom(value);
  if (value.trim().length < 4 || isPlaceholder(value) || isReference(value) || squash(value) === squash(c.name)) {
    return false;
  }
  if (c.strength === "token" && !looksLikeToken(value)) return false;
  if (span.quoted) return !/^(?:bearer|basic|token|digest)\s/i.test(value);
  if (/^[0-9]{1,6}$/.test(value) || DOTTED_PATH.test(value) || span.next === "(" || span.next === "[") return false;
  if (!c.tight && /^[^A-Za-z0-9]/.test(value)) return false;
  if (!/^[A-Za-z_]+$/.test(value)) return true;
  // A bare word: literal in `.env` lines, flags and query strings; code (`token = tok`, `key: string`) elsewhere.
  const literalEquals = c.tight && c.separator === "=" && /^$|[\s;&]/.test(span.next);
  return literalEquals || (c.separator === ":" && /^[A-Z][A-Z0-9_]*$/.test(c.name));
}

/** [A-Za-z0-9_.-] */
function isNameChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 46 ||
    code === 45
  );
}

/** The name around a trigger match: `[start, end)`, undefined when the run of name characters is too long to be one. */
function nameAround(text: string, at: number): { start: number; end: number } | undefined {
  let start = at;
  while (start > 0 && at - start < 64 && isNameChar(text.charCodeAt(start - 1))) start--;
  if (start > 0 && isNameChar(text.charCodeAt(start - 1))) return undefined;
  let end = at;
  while (end < text.length && end - at < 64 && isNameChar(text.charCodeAt(end))) end++;
  return { start, end };
}

/** A string in a ternary (`ok ? "pass" : "fail"`) rather than a name: a `?` before it. */
function followsQuestionMark(text: string, start: number): boolean {
  let i = start - 1;
  while (i >= 0 && start - i <= 8 && (text[i] === " " || text[i] === "\t" || text[i] === '"' || text[i] === "'")) i--;
  return text[i] === "?";
}

function confirmAssignment(scan: Scan, m: RegExpExecArray): readonly Found[] | undefined {
  const { text } = scan;
  const around = nameAround(text, m.index);
  if (!around || followsQuestionMark(text, around.start)) return undefined;
  const dotted = text.slice(around.start, around.end).replace(/\.+$/, "");
  const name = dotted.slice(dotted.lastIndexOf(".") + 1);
  const { strength, aws } = judgeNameOnce(name);
  if (!strength) return undefined;
  SEPARATOR.lastIndex = around.end;
  const sep = SEPARATOR.exec(text);
  if (!sep) return undefined;
  let context: ValueContext = { name, strength, separator: sep[2]!, tight: sep[1] === "" && sep[3] === "" };
  let span = readValue(scan, SEPARATOR.lastIndex);
  // `password: str = "hunter2"`: a type annotation, then the value.
  if (span && !span.quoted && context.separator === ":" && /^[A-Za-z_]\w*$/.test(text.slice(span.start, span.end))) {
    TYPED_THEN_EQUALS.lastIndex = span.end;
    const eq = TYPED_THEN_EQUALS.exec(text);
    if (eq) {
      context = { ...context, separator: "=", tight: false };
      span = readValue(scan, TYPED_THEN_EQUALS.lastIndex);
    }
  }
  if (!span || span.end <= span.start) return undefined;
  const value = text.slice(span.start, span.end);
  if (aws && /^[A-Za-z0-9/+]{40}$/.test(value) && !isFiller(value)) {
    return [{ kind: "aws-secret-key", start: span.start, end: span.end }];
  }
  // Rejected values are left to the rest of the scan, which still finds any known token inside them.
  if (!isSecretValue(value, span, context)) return undefined;
  return classifySpan(scan, span.start, span.end, "secret-assignment");
}

export const assignmentDetector: Detector = {
  kinds: ["secret-assignment", "aws-secret-key"],
  anchors: caseVariants(SECRET_NAME_WORDS.map((w) => w.slice(0, 3))),
  trigger: ASSIGNMENT_TRIGGER,
  confirm: confirmAssignment,
};

/** In priority order: at one position, the first detector that confirms wins. */
export const DETECTORS: readonly Detector[] = [
  privateKeyDetector,
  jwtDetector,
  ...TOKEN_DETECTORS,
  bearerDetector,
  basicDetector,
  urlDetector,
  assignmentDetector,
];

/** A string held under a secret name (`{"password": "hunter2"}`) is a secret as a whole, as `password="hunter2"` is. */
export function secretByKey(text: string, key: string | undefined, allowed: ReadonlySet<string>): Found[] {
  if (key === undefined || !allowed.has("secret-assignment")) return [];
  const name = key.slice(key.lastIndexOf(".") + 1);
  const strength = nameStrength(name);
  if (!strength) return [];
  const span: ValueSpan = { start: 0, end: text.length, quoted: true, next: "" };
  return isSecretValue(text, span, { name, strength, separator: ":", tight: false })
    ? [{ kind: "secret-assignment", start: 0, end: text.length }]
    : [];
}
