/**
 * Secret redaction for the "redact secrets" projection rule, the snapshot export review and the privacy checks:
 * find API keys, tokens, private keys and secret-named values in text, replace each with a short marker that says
 * what it was, and put any of them back on request.
 *
 * One pass, linear time: the scan reads each character once and checks the pair of characters it completes against
 * a 16 KB table of the pairs that begin a detector's anchor (`sk-`, `ghp`, `eyJ`, `://`, `key`, `Tok`, …); only the few positions
 * that pass, and then a trigram table, get a closer look: the sticky regexes of the detectors anchored there, then a
 * few checks. Every quantifier is bounded, token patterns need a boundary on their left, and what a detector reads
 * past its anchor (a PEM body, an unquoted value) is remembered for the next anchor, so hostile input (5 MB of one
 * character, or of one trigger repeated) costs time in proportion to its length.
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

/** A family of secrets the redactor recognises. */
export interface SecretKind {
  readonly id: string;
  readonly label: string;
}

/** One secret found in a text, with what replaced it. */
export interface Redaction {
  /** A `SecretKind` id. */
  readonly kind: string;
  readonly label: string;
  /** Offsets in the original text. */
  readonly start: number;
  readonly end: number;
  /** Kept in memory so the UI can reverse it; never exported by default. */
  readonly original: string;
  /** What replaced it: `[REDACTED kind]`, or `[REDACTED kind …abcd]` for long random tokens. */
  readonly replacement: string;
}

/** A redaction inside a JSON-like value; `path` names the string it was found in (`content[0].text`, "" for the root). */
export interface PathRedaction extends Redaction {
  readonly path: string;
}

export interface RedactOptions {
  /** Only these kinds (`SecretKind` ids); all kinds when absent. */
  readonly kinds?: readonly string[];
}

export interface RedactValueOptions extends RedactOptions {
  /** Object keys whose values are not text (base64 image data, signatures): left untouched, subtree included. */
  readonly skipKeys?: readonly string[];
}

/** Keys of pi and provider messages that hold no text a person wrote: image data, opaque signatures. */
export const NON_TEXT_KEYS: readonly string[] = [
  "data",
  "signature",
  "textSignature",
  "thinkingSignature",
  "thoughtSignature",
  "encrypted_content",
];

interface KindSpec extends SecretKind {
  /** The replacement may show the last 4 characters (random tokens long enough that 4 characters give nothing away). */
  readonly showTail: boolean;
}

const spec = (id: string, label: string, showTail = true): KindSpec => ({ id, label, showTail });

const KIND_SPECS: readonly KindSpec[] = [
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

/** Every kind the redactor reports. */
export const SECRET_KINDS: readonly SecretKind[] = KIND_SPECS.map(({ id, label }) => ({ id, label }));

const SPEC_BY_ID = new Map(KIND_SPECS.map((k) => [k.id, k]));

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

/** A token body that is plainly filler: `sk-proj-xxxxxxxx…`, `AKIA0000000000000000`. */
const isFiller = (secret: string): boolean => distinctCount(secret.slice(-16)) < 6 || /[xX]{6}/.test(secret);

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
function isDistinctive(secret: string): boolean {
  const classes = charClasses(secret) + +/[^A-Za-z0-9]/.test(secret);
  return secret.length >= 10 && !/\s/.test(secret) && classes >= 2 && /[^A-Za-z]/.test(secret);
}

const FREE_FORM_KINDS = new Set(["secret-assignment", "url-password", "connection-string-password"]);

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

interface Found {
  readonly kind: string;
  readonly start: number;
  readonly end: number;
}

/** State of one scan over one text. */
interface Scan {
  readonly text: string;
  readonly compiled: Compiled;
  /** The next `-----END … PRIVATE KEY-----` at or after `pemFrom` (-1: none), searched once per scan, not per BEGIN. */
  pemFrom: number;
  pemAt: number;
  /** The last run of unquoted value characters read, `[runFrom, runEnd)`: any start inside it ends where it ends. */
  runFrom: number;
  runEnd: number;
  /** Where that run holds a `:` (-1: nowhere): the only separator a run can hold, so the only way names nest in it. */
  runColon: number;
}

interface Detector {
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
  const inner = scanText(scan.text.slice(start, end), scan.compiled.inner ?? scan.compiled).map((f) => ({
    ...f,
    start: f.start + start,
    end: f.end + start,
  }));
  if (inner.length > 0 || fallback === undefined) return inner;
  return scan.compiled.allowed.has(fallback) ? [{ kind: fallback, start, end }] : [];
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
      found.push(...classifySpan(scan, passStart, passEnd, kind));
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

const assignmentDetector: Detector = {
  kinds: ["secret-assignment", "aws-secret-key"],
  anchors: caseVariants(SECRET_NAME_WORDS.map((w) => w.slice(0, 3))),
  trigger: ASSIGNMENT_TRIGGER,
  confirm: confirmAssignment,
};

/** In priority order: at one position, the first detector that confirms wins. */
const DETECTORS: readonly Detector[] = [
  privateKeyDetector,
  jwtDetector,
  ...TOKEN_DETECTORS,
  bearerDetector,
  basicDetector,
  urlDetector,
  assignmentDetector,
];

// ── Scanning ───────────────────────────────────────────────────────────────────────────────────────────────────

interface Compiled {
  readonly allowed: ReadonlySet<string>;
  /** Detectors to try per trigram bucket (see `trigramTable`), in priority order. */
  readonly buckets: readonly (readonly Detector[])[];
  /** The same without secret-named values: for looking inside a value already found. */
  readonly inner: Compiled | undefined;
}

const trigramCode = (a: number, b: number, c: number): number => (a << 14) | (b << 7) | c;

/** Detector index lists, one per distinct set of detectors sharing an anchor trigram; bucket 0 is empty. */
const BUCKETS: number[][] = [[]];
let trigrams: Uint8Array | undefined;
/** 1 for the ASCII pairs an anchor starts with: a 16 KB table that passes over most positions after one read. */
const BIGRAMS = new Uint8Array(1 << 14);
/**
 * An ASCII trigram → bucket table (2 MB, built on first use). The scan reads one character per position, checks the
 * pair it completes in `BIGRAMS` and only on a hit the trigram here: far cheaper than a regex engine trying dozens of
 * alternatives at every position.
 */
function trigramTable(): Uint8Array {
  if (trigrams) return trigrams;
  const table = new Uint8Array(1 << 21);
  const byCode = new Map<number, number[]>();
  DETECTORS.forEach((detector, index) => {
    for (const anchor of detector.anchors) {
      if (!/^[\x20-\x7e]{3}$/.test(anchor))
        throw new Error(`redact: anchor ${JSON.stringify(anchor)} is not 3 ASCII characters.`);
      const code = trigramCode(anchor.charCodeAt(0), anchor.charCodeAt(1), anchor.charCodeAt(2));
      BIGRAMS[(anchor.charCodeAt(0) << 7) | anchor.charCodeAt(1)] = 1;
      const list = byCode.get(code) ?? [];
      if (!list.includes(index)) list.push(index);
      byCode.set(code, list);
    }
  });
  const bucketOf = new Map<string, number>();
  for (const [code, list] of byCode) {
    const key = list.join(",");
    if (!bucketOf.has(key)) bucketOf.set(key, BUCKETS.push(list) - 1);
    table[code] = bucketOf.get(key)!;
  }
  if (BUCKETS.length > 255) throw new Error("redact: more anchor buckets than a Uint8Array can index.");
  return (trigrams = table);
}

function compile(kinds: readonly string[] | undefined, withAssignment = true): Compiled {
  const unknown = kinds?.filter((k) => !SPEC_BY_ID.has(k)) ?? [];
  if (unknown.length > 0) {
    throw new Error(
      `Unknown secret kind ${unknown.map((k) => JSON.stringify(k)).join(", ")}; ` +
        `known kinds: ${KIND_SPECS.map((k) => k.id).join(", ")}.`,
    );
  }
  trigramTable();
  const allowed = new Set(kinds ?? KIND_SPECS.map((k) => k.id));
  const usable = (d: Detector) => d.kinds.some((k) => allowed.has(k)) && (withAssignment || d !== assignmentDetector);
  const buckets = BUCKETS.map((list) => list.map((i) => DETECTORS[i]!).filter(usable));
  return { allowed, buckets, inner: withAssignment ? compile(kinds, false) : undefined };
}

const compiledCache = new Map<string, Compiled>();

function compiledFor(kinds: readonly string[] | undefined): Compiled {
  const key = kinds === undefined ? "*" : [...kinds].sort().join(",");
  let compiled = compiledCache.get(key);
  if (!compiled) {
    compiled = compile(kinds);
    if (compiledCache.size > 32) compiledCache.clear();
    compiledCache.set(key, compiled);
  }
  return compiled;
}

/** The first detector (in priority order) whose trigger matches at `at` and that confirms a secret after `done`. */
function confirmAt(scan: Scan, at: number, detectors: readonly Detector[], done: number): readonly Found[] {
  for (const detector of detectors) {
    detector.trigger.lastIndex = at;
    const m = detector.trigger.exec(scan.text);
    if (!m) continue;
    const found = detector
      .confirm(scan, m)
      ?.filter((f) => scan.compiled.allowed.has(f.kind) && f.end > f.start && f.start >= done);
    if (found && found.length > 0) return found;
  }
  return [];
}

/** Every secret in `text`, sorted and non-overlapping (echoes not included). */
function scanText(text: string, compiled: Compiled): Found[] {
  const table = trigramTable();
  const scan: Scan = { text, compiled, pemFrom: -1, pemAt: -1, runFrom: -1, runEnd: -1, runColon: -1 };
  const out: Found[] = [];
  let done = 0;
  const last = text.length - 2;
  let a = text.charCodeAt(0);
  for (let i = 0; i < last; i++) {
    const b = text.charCodeAt(i + 1);
    const pair = (a << 7) | b;
    a = b;
    if (pair >= 1 << 14 || b > 127 || BIGRAMS[pair] === 0) continue;
    const c = text.charCodeAt(i + 2);
    const bucket = c > 127 ? 0 : table[(pair << 7) | c]!;
    if (bucket === 0) continue;
    const found = confirmAt(scan, i, compiled.buckets[bucket]!, done);
    if (found.length === 0) continue;
    out.push(...found);
    done = found.at(-1)!.end;
    i = Math.max(i, done - 1);
    a = text.charCodeAt(i + 1);
  }
  return out;
}

/** At most this many distinct secrets are looked for again per text: each costs one `indexOf` pass over it. */
const MAX_ECHO_SECRETS = 64;

/** The distinctive free-form secrets among `found` (original → kind), added to `into`. */
function distinctiveSecrets(text: string, found: readonly Found[], into = new Map<string, string>()) {
  for (const f of found) {
    if (into.size >= MAX_ECHO_SECRETS) break;
    const secret = text.slice(f.start, f.end);
    if (FREE_FORM_KINDS.has(f.kind) && isDistinctive(secret) && !into.has(secret)) into.set(secret, f.kind);
  }
  return into;
}

/** `found` plus the other occurrences of `secrets` that overlap nothing already redacted, sorted. */
function addEchoes(text: string, found: readonly Found[], secrets: ReadonlyMap<string, string>): Found[] {
  const echoes: Found[] = [];
  for (const [secret, kind] of secrets) {
    for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + secret.length)) {
      echoes.push({ kind, start: at, end: at + secret.length });
    }
  }
  if (echoes.length === 0) return [...found];
  echoes.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Found[] = [];
  let j = 0;
  for (const e of echoes) {
    while (j < found.length && found[j]!.end <= e.start) j++;
    const overlapsFound = j < found.length && found[j]!.start < e.end;
    if (!overlapsFound && (kept.at(-1)?.end ?? 0) <= e.start) kept.push(e);
  }
  return [...found, ...kept].sort((a, b) => a.start - b.start);
}

function replacementFor(kind: KindSpec, original: string): string {
  const tail = kind.showTail && original.length >= 24 ? ` …${original.slice(-4)}` : "";
  return `[REDACTED ${kind.id}${tail}]`;
}

function toRedaction(text: string, f: Found): Redaction {
  const kind = SPEC_BY_ID.get(f.kind)!;
  const original = text.slice(f.start, f.end);
  return {
    kind: kind.id,
    label: kind.label,
    start: f.start,
    end: f.end,
    original,
    replacement: replacementFor(kind, original),
  };
}

function applyRedactions(text: string, redactions: readonly Redaction[]): string {
  let out = "";
  let at = 0;
  for (const r of redactions) {
    out += text.slice(at, r.start) + r.replacement;
    at = r.end;
  }
  return out + text.slice(at);
}

// ── Public API ─────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Every secret in `text`, sorted by position and non-overlapping, with offsets into `text`. Includes the echoes of
 * distinctive secrets. Throws only for an unknown kind id in `options.kinds`.
 */
export function findSecrets(text: string, options: RedactOptions = {}): Redaction[] {
  const compiled = compiledFor(options.kinds);
  const found = scanText(text, compiled);
  if (found.length === 0) return [];
  const secrets = distinctiveSecrets(text, found);
  return (secrets.size > 0 ? addEchoes(text, found, secrets) : found).map((f) => toRedaction(text, f));
}

/** `text` with every secret replaced by its marker, and the redactions (offsets into the original `text`). */
export function redactText(text: string, options: RedactOptions = {}): { text: string; redactions: Redaction[] } {
  const redactions = findSecrets(text, options);
  return { text: redactions.length === 0 ? text : applyRedactions(text, redactions), redactions };
}

/**
 * Puts back the redactions `which` selects into a text `redactText` produced. `redactions` must be the complete
 * list returned for that text (positions in the redacted text follow from it). Throws when the text no longer
 * holds a replacement where the list says it should: it was changed after redaction.
 */
export function restore(
  text: string,
  redactions: readonly Redaction[],
  which: (r: Redaction) => boolean = () => true,
): string {
  let out = "";
  let at = 0;
  let shift = 0;
  for (const r of redactions) {
    const start = r.start + shift;
    if (start < at || text.slice(start, start + r.replacement.length) !== r.replacement) {
      throw new Error(
        `Cannot restore the ${r.label} at offset ${r.start}: the text does not hold "${r.replacement}" at ${start}. ` +
          `It was changed after redaction, or the list is not the full one returned for this text.`,
      );
    }
    out += text.slice(at, start) + (which(r) ? r.original : r.replacement);
    at = start + r.replacement.length;
    shift += r.replacement.length - (r.end - r.start);
  }
  return out + text.slice(at);
}

// ── JSON-like values ───────────────────────────────────────────────────────────────────────────────────────────

type Container = unknown[] | Record<string, unknown>;

function isContainer(v: unknown): v is Container {
  if (Array.isArray(v)) return true;
  if (typeof v !== "object" || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}

interface Frame {
  readonly node: Container;
  readonly keys: readonly string[] | undefined;
  readonly parent: Frame | undefined;
  /** Its key in the parent. */
  readonly key: string | number;
  i: number;
  copy: Container | undefined;
  /** Its path, once asked for. */
  path: string | undefined;
}

/** The frame's path, built from the nearest ancestor that knows its own (a loop: values can be 100,000 deep). */
function framePath(frame: Frame): string {
  const unknown: Frame[] = [];
  let f: Frame | undefined = frame;
  while (f && f.path === undefined) {
    unknown.push(f);
    f = f.parent;
  }
  let path = f?.path ?? "";
  for (let i = unknown.length - 1; i >= 0; i--) {
    const g = unknown[i]!;
    g.path = path = g.parent ? childPath(path, g.key) : "";
  }
  return frame.path!;
}

function setChild(frame: Frame, key: string | number, value: unknown): void {
  frame.copy ??= Array.isArray(frame.node) ? frame.node.slice() : { ...frame.node };
  Object.defineProperty(frame.copy, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Maps every string inside a JSON-like value (plain objects and arrays, however deep: no recursion), in a fixed
 * order, sharing every subtree in which nothing changed. `key` is the object key holding the string (undefined in
 * arrays and at the root); `path()` its path, built only when asked for.
 */
function mapStrings(
  root: unknown,
  skipKeys: ReadonlySet<string>,
  fn: (text: string, key: string | undefined, path: () => string) => string,
): unknown {
  if (typeof root === "string") return fn(root, undefined, () => "");
  if (!isContainer(root)) return root;
  const frame = (node: Container, parent: Frame | undefined, key: string | number): Frame => ({
    node,
    keys: Array.isArray(node) ? undefined : Object.keys(node),
    parent,
    key,
    i: 0,
    copy: undefined,
    path: undefined,
  });
  const stack: Frame[] = [frame(root, undefined, "")];
  const open = new Set<unknown>([root]);
  for (;;) {
    const f = stack.at(-1)!;
    const size = f.keys ? f.keys.length : (f.node as unknown[]).length;
    if (f.i >= size) {
      stack.pop();
      open.delete(f.node);
      const done = f.copy ?? f.node;
      const parent = stack.at(-1);
      if (!parent) return done;
      if (done !== f.node) setChild(parent, f.key, done);
      parent.i++;
      continue;
    }
    const key = f.keys ? f.keys[f.i]! : f.i;
    const child = (f.node as Record<string | number, unknown>)[key];
    if (typeof key === "string" && skipKeys.has(key)) {
      f.i++;
    } else if (typeof child === "string") {
      const mapped = fn(child, typeof key === "string" ? key : undefined, () => childPath(framePath(f), key));
      if (mapped !== child) setChild(f, key, mapped);
      f.i++;
    } else if (isContainer(child)) {
      if (open.has(child)) {
        throw new Error(`Cannot redact a value that contains itself (at ${childPath(framePath(f), key)}).`);
      }
      open.add(child);
      stack.push(frame(child, f, key));
    } else {
      f.i++;
    }
  }
}

/** A string held under a secret name (`{"password": "hunter2"}`) is a secret as a whole, as `password="hunter2"` is. */
function secretByKey(text: string, key: string | undefined, compiled: Compiled): Found[] {
  if (key === undefined || !compiled.allowed.has("secret-assignment")) return [];
  const name = key.slice(key.lastIndexOf(".") + 1);
  const strength = nameStrength(name);
  if (!strength) return [];
  const span: ValueSpan = { start: 0, end: text.length, quoted: true, next: "" };
  return isSecretValue(text, span, { name, strength, separator: ":", tight: false })
    ? [{ kind: "secret-assignment", start: 0, end: text.length }]
    : [];
}

/**
 * Redacts every string inside a JSON-like value (objects and arrays, any depth) and returns a copy that shares
 * every unchanged subtree; the value itself is returned when nothing was found. A string under a secret-named key
 * (`password`, `api_key`, …) is redacted as a whole. Echoes are looked for across all strings. Values under
 * `options.skipKeys` are left alone (pass `NON_TEXT_KEYS` for pi messages). Throws for a value that contains itself.
 */
export function redactValue<T>(value: T, options: RedactValueOptions = {}): { value: T; redactions: PathRedaction[] } {
  const compiled = compiledFor(options.kinds);
  const skip = new Set(options.skipKeys ?? []);
  // First pass: what each string holds, in visiting order. Second pass (only when something was found): echoes,
  // replacements and paths.
  const primary: Found[][] = [];
  const secrets = new Map<string, string>();
  let any = false;
  mapStrings(value, skip, (text, key) => {
    const scanned = scanText(text, compiled);
    const found = scanned.length > 0 ? scanned : secretByKey(text, key, compiled);
    primary.push(found);
    if (found.length > 0) {
      any = true;
      distinctiveSecrets(text, found, secrets);
    }
    return text;
  });
  if (!any) return { value, redactions: [] };
  const redactions: PathRedaction[] = [];
  let index = 0;
  const redacted = mapStrings(value, skip, (text, _key, pathOf) => {
    const found = primary[index++]!;
    const all = secrets.size > 0 ? addEchoes(text, found, secrets) : found;
    if (all.length === 0) return text;
    const path = pathOf();
    const list = all.map((f) => toRedaction(text, f));
    redactions.push(...list.map((r) => ({ ...r, path })));
    return applyRedactions(text, list);
  });
  return { value: redacted as T, redactions };
}

/** Puts back, inside a value `redactValue` produced, the redactions `which` selects (`redactions`: the full list). */
export function restoreValue<T>(
  value: T,
  redactions: readonly PathRedaction[],
  which: (r: PathRedaction) => boolean = () => true,
): T {
  const byPath = new Map<string, PathRedaction[]>();
  for (const r of redactions) {
    const list = byPath.get(r.path) ?? [];
    list.push(r);
    byPath.set(r.path, list);
  }
  return mapStrings(value, new Set(), (text, _key, pathOf) => {
    const list = byPath.size > 0 ? byPath.get(pathOf()) : undefined;
    return list ? restore(text, list, (r) => which(r as PathRedaction)) : text;
  }) as T;
}
