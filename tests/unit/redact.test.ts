/**
 * The secret redactor: every kind found in realistic settings, near-misses left alone, offsets, restore, JSON-like
 * values, and properties over arbitrary text. Every key here is generated at run time from a seeded PRNG in the
 * right shape; none is real, and none appears literally in this file.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  findSecrets,
  NON_TEXT_KEYS,
  redactText,
  redactValue,
  restore,
  restoreValue,
  SECRET_KINDS,
  type Redaction,
} from "../../src/core/project/redact.ts";
import { corpusFiles, HAS_CORPUS } from "../support/corpus.ts";

// ── Fake secrets ───────────────────────────────────────────────────────────────────────────────────────────────

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;
const B64URL = ALNUM + "-_";
const B64 = ALNUM + "+/";
const HEX = "0123456789abcdef";

/** mulberry32: a small seeded PRNG, so every run generates the same fake keys. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = (n: number, alphabet?: string) => string;

function randFrom(seed: number): Rand {
  const next = prng(seed);
  return (n, alphabet = ALNUM) => {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    return s;
  };
}

const b64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString("base64url");

const jwt = (r: Rand): string =>
  `${b64url({ alg: "HS256", typ: "JWT" })}.${b64url({ sub: r(12, DIGITS), name: "Ada", iat: 1_700_000_000 })}.${r(43, B64URL)}`;

/** Mixed case, as real Hugging Face tokens are. */
const hfBody = (r: Rand): string => `A${r(32, UPPER + LOWER)}z`;

function pem(r: Rand, label: string): string {
  const lines = Array.from({ length: 6 }, () => r(64, B64));
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n${r(20, B64)}==\n-----END ${label}-----`;
}

/** For each kind, ways to make a fake secret; the whole string is the secret. */
const MAKERS: Record<string, readonly ((r: Rand) => string)[]> = {
  "private-key": [
    "PRIVATE KEY",
    "RSA PRIVATE KEY",
    "EC PRIVATE KEY",
    "OPENSSH PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
  ].map((label) => (r: Rand) => pem(r, label)),
  jwt: [jwt],
  "anthropic-key": [(r) => `sk-ant-api03-${r(93, B64URL)}AA`, (r) => `sk-ant-admin01-${r(93, B64URL)}AA`],
  "anthropic-oauth-token": [(r) => `sk-ant-oat01-${r(95, B64URL)}`, (r) => `sk-ant-ort01-${r(95, B64URL)}`],
  "openrouter-key": [(r) => `sk-or-v1-${r(64, HEX)}`],
  "openai-key": [
    (r) => `sk-proj-${r(156, B64URL)}`,
    (r) => `sk-svcacct-${r(120, B64URL)}`,
    (r) => `sk-admin-${r(100, B64URL)}`,
    (r) => `sk-${r(20)}T3BlbkFJ${r(20)}`,
  ],
  "sk-key": [(r) => `sk-${r(32, HEX)}`, (r) => `sk-${r(48)}`, (r) => `sk-sp-${r(32, HEX)}`],
  "google-api-key": [(r) => `AIza${r(35, B64URL)}`],
  "google-oauth-token": [(r) => `ya29.${r(160, B64URL)}`],
  "google-client-secret": [(r) => `GOCSPX-${r(28, B64URL)}`],
  "github-token": [
    ...["ghp", "gho", "ghu", "ghs", "ghr"].map((p) => (r: Rand) => `${p}_${r(36)}`),
    (r) => `github_pat_${r(22)}_${r(59)}`,
  ],
  "gitlab-token": [(r) => `glpat-${r(20, B64URL)}`, (r) => `gldt-${r(24)}`],
  "slack-token": [
    (r) => `xoxb-${r(12, DIGITS)}-${r(13, DIGITS)}-${r(24)}`,
    (r) => `xoxp-${r(12, DIGITS)}-${r(12, DIGITS)}-${r(13, DIGITS)}-${r(32, HEX)}`,
    (r) => `xapp-1-A${r(10, UPPER + DIGITS)}-${r(13, DIGITS)}-${r(64, HEX)}`,
  ],
  "stripe-key": [(r) => `sk_live_${r(99)}`, (r) => `rk_live_${r(24)}`, (r) => `sk_test_${r(24)}`],
  "stripe-webhook-secret": [(r) => `whsec_${r(32)}`],
  "aws-access-key-id": [(r) => `AKIA${r(16, UPPER + "234567")}`, (r) => `ASIA${r(16, UPPER + "234567")}`],
  "huggingface-token": [(r) => `hf_${hfBody(r)}`],
  "npm-token": [(r) => `npm_${r(36)}`],
  "pypi-token": [(r) => `pypi-AgEIcHlwaS5vcmc${r(70, B64URL)}`],
  "groq-key": [(r) => `gsk_${r(52)}`],
  "xai-key": [(r) => `xai-${r(80)}`],
  "perplexity-key": [(r) => `pplx-${r(48)}`],
  "tavily-key": [(r) => `tvly-${r(32)}`, (r) => `tvly-dev-${r(32)}`],
  "nvidia-key": [(r) => `nvapi-${r(64, B64URL)}`],
  "linear-key": [(r) => `lin_api_${r(40)}`],
  "replicate-token": [(r) => `r8_${r(37)}`],
  "sendgrid-key": [(r) => `SG.${r(22, B64URL)}.${r(43, B64URL)}`],
  "digitalocean-token": [(r) => `dop_v1_${r(64, HEX)}`],
  "shopify-token": [(r) => `shpat_${r(32, HEX)}`],
  "docker-token": [(r) => `dckr_pat_${r(27, B64URL)}`],
  "telegram-bot-token": [(r) => `${r(10, DIGITS)}:AA${r(33, B64URL)}`],
};

/** Kinds whose secret is only part of a longer text: [text, secret] pairs. */
const IN_CONTEXT: Record<string, readonly ((r: Rand) => [string, string])[]> = {
  "slack-webhook": [
    (r) => {
      const secret = `T${r(8, UPPER + DIGITS)}/B${r(8, UPPER + DIGITS)}/${r(24)}`;
      return [`https://hooks.slack.com/services/${secret}`, secret];
    },
  ],
  "discord-webhook": [
    (r) => {
      const secret = r(68, B64URL);
      return [`https://discord.com/api/webhooks/${r(18, DIGITS)}/${secret}`, secret];
    },
  ],
  "aws-secret-key": [
    (r) => {
      const secret = r(40, B64);
      return [`aws_secret_access_key = ${secret}`, secret];
    },
    (r) => {
      const secret = r(40, B64);
      return [`{"SecretAccessKey": "${secret}", "SessionToken": null}`, secret];
    },
  ],
  "bearer-token": [
    (r) => {
      const secret = r(40);
      return [`curl -H "Authorization: Bearer ${secret}" https://api.example.com`, secret];
    },
    (r) => {
      const secret = `${r(20, B64URL)}.${r(30, B64URL)}`;
      return [`headers = {"Authorization": "bearer ${secret}"}`, secret];
    },
  ],
  "basic-auth": [
    (r) => {
      const secret = Buffer.from(`alice:${r(14)}`).toString("base64");
      return [`Authorization: Basic ${secret}`, secret];
    },
  ],
  "url-password": [
    (r) => {
      const secret = r(16);
      return [`git remote add origin https://alice:${secret}@git.example.com/team/repo.git`, secret];
    },
    (r) => {
      const secret = `${r(8)}%40${r(6)}`;
      return [`ftp://deploy:${secret}@files.example.com/`, secret];
    },
  ],
  "connection-string-password": [
    (r) => {
      const secret = r(18);
      return [`DATABASE_URL=postgres://app:${secret}@db.internal:5432/app`, secret];
    },
    (r) => {
      const secret = r(12);
      return [`mongodb+srv://admin:${secret}@cluster0.abcde.mongodb.net/test`, secret];
    },
    (r) => {
      const secret = r(20);
      return [`redis://:${secret}@cache:6379/0`, secret];
    },
  ],
  "secret-assignment": [
    (r) => {
      const secret = r(24);
      return [`export DEPLOY_TOKEN=${secret}`, secret];
    },
    (r) => {
      const secret = `${r(6, LOWER)}${r(2, DIGITS)}!`;
      return [`DB_PASSWORD="${secret}"`, secret];
    },
  ],
  "twilio-secret": [
    (r) => {
      const secret = r(32, HEX);
      return [`curl -u AC${r(32, HEX)}:${secret} https://api.twilio.com/2010-04-01/Accounts.json`, secret];
    },
    (r) => {
      const secret = r(32);
      return [`SK${r(32, HEX)}:${secret}`, secret];
    },
  ],
};

const sample = (kind: string, index: number, seed: number): { text: string; secret: string } => {
  const r = randFrom(seed);
  const maker = MAKERS[kind]?.[index];
  if (maker) {
    const secret = maker(r);
    return { text: secret, secret };
  }
  const [text, secret] = IN_CONTEXT[kind]![index]!(r);
  return { text, secret };
};

const SAMPLES: readonly (readonly [string, number])[] = [
  ...Object.entries(MAKERS).flatMap(([kind, makers]) => makers.map((_, i) => [kind, i] as const)),
  ...Object.entries(IN_CONTEXT).flatMap(([kind, makers]) => makers.map((_, i) => [kind, i] as const)),
];

/** The redacted spans of `text`, as [kind, original]. */
const spans = (text: string): [string, string][] => findSecrets(text).map((r) => [r.kind, r.original]);

// ── Every kind ─────────────────────────────────────────────────────────────────────────────────────────────────

describe("each kind of secret", () => {
  it("has a test for every kind the redactor reports", () => {
    const tested = new Set(SAMPLES.map(([kind]) => kind));
    expect(SECRET_KINDS.map((k) => k.id).filter((id) => !tested.has(id))).toEqual([]);
  });

  it.each(SAMPLES)("finds %s (maker %i) exactly, alone and in realistic settings", (kind, index) => {
    for (const seed of [1, 2, 3]) {
      const { text, secret } = sample(kind, index, seed);
      expect(spans(text), text).toEqual([[kind, secret]]);
      const settings = [
        `Here it is: ${text}. Keep it safe.`,
        `{"output": ${JSON.stringify(text)}}`,
        `\`\`\`\n${text}\n\`\`\``,
        `(${text})`,
      ];
      const inJson = JSON.stringify(secret).slice(1, -1);
      for (const setting of settings) {
        expect(spans(setting), setting).toEqual([[kind, setting.startsWith("{") ? inJson : secret]]);
      }
    }
  });

  it("reports a known token assigned to a secret name as that token, covering only the value", () => {
    const r = randFrom(7);
    const key = `sk-proj-${r(156, B64URL)}`;
    for (const text of [
      `OPENAI_API_KEY=${key}`,
      `export OPENAI_API_KEY="${key}"`,
      `"apiKey": "${key}"`,
      `api_key: '${key}'`,
    ]) {
      expect(spans(text), text).toEqual([["openai-key", key]]);
    }
    const gh = `ghp_${r(36)}`;
    expect(spans(`Authorization: token ${gh}`)).toEqual([["github-token", gh]]);
  });

  it("gives every redaction its kind's label and a replacement naming the kind", () => {
    for (const [kind, index] of SAMPLES) {
      const [r] = findSecrets(sample(kind, index, 4).text);
      expect(r!.label).toBe(SECRET_KINDS.find((k) => k.id === kind)!.label);
      expect(r!.replacement).toMatch(new RegExp(`^\\[REDACTED ${kind}( ….{4})?\\]$`));
    }
  });
});

// ── Near-misses ────────────────────────────────────────────────────────────────────────────────────────────────

const NEAR_MISSES: readonly string[] = [
  // Look-alikes and placeholders of known formats.
  "pip install scikit-learn  # imported as sklearn; sk-learn is not a package",
  "task-1234 and disk-usage and risk-free",
  "OPENAI_API_KEY=sk-...",
  "export ANTHROPIC_API_KEY=sk-ant-...",
  "set it to sk-proj-... or sk-your-key-here",
  "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  "sk-this-is-not-a-real-key-at-all-just-words",
  "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  "GITHUB_TOKEN=ghp_your_token_here",
  "glpat-xxxxxxxxxxxxxxxxxxxx",
  "xoxb-your-bot-token-goes-here",
  "AKIA is the prefix of long-term AWS access key ids; ASIA marks temporary ones.",
  "AKIAXXXXXXXXXXXXXXXX",
  "hf_hub_download(repo_id, filename) and hf_transfer",
  "npm_config_registry=https://registry.npmjs.org/",
  "eyJ is what base64 of '{\"' starts with; eyJhbGciOiJIUzI1NiJ9 alone is only a header",
  `${b64url({ note: "not a JOSE header" })}.${b64url({ sub: "42" })}.c2lnbmF0dXJlLW9mLXNvbWUta2luZA`,
  "commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)",
  "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  "request id 123e4567-e89b-12d3-a456-426614174000",
  "call 0000000000:AAxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  // Placeholders and references in secret-named settings.
  "api_key: YOUR_API_KEY",
  "OPENAI_API_KEY=<your-openai-key>",
  "token: <token>",
  "API_KEY=${OPENAI_API_KEY}",
  "TOKEN=$TOKEN",
  "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
  "password=xxx",
  "PASSWORD=changeme",
  "DB_PASSWORD=********",
  "password=",
  "PASSWORD=",
  "password: ''",
  'password=""',
  'SECRET_KEY="REDACTED"',
  "api_key = 'your-api-key-here'",
  '"apiKey": "ollama"',
  '"apiKey": "OPENAI_API_KEY"',
  '"apiKey": "!op read \'op://vault/openai/credential\'"',
  "DB_PASSWORD=op://vault/db/password",
  "PASSWORD_FILE=/run/secrets/db_password",
  "TOKEN_URL=https://auth.example.com/oauth/token",
  "PWD=/home/ada/project",
  'echo "TAVILY_API_KEY=${TAVILY_API_KEY:+set}"',
  // Code that reads a secret rather than holding one.
  "const apiKey = process.env.OPENAI_API_KEY;",
  "const apiKey = options?.apiKey ?? getApiKey(provider);",
  'api_key = os.environ["OPENAI_API_KEY"]',
  'token = os.getenv("GITHUB_TOKEN")',
  "password = input('Password: ')",
  "connect(user=user, password=password)",
  "f(token=tok, retries=3)",
  "if (password === confirm) return token;",
  "interface Env { API_KEY: string; token?: string }",
  "apiKey: string;",
  "password: str",
  "token: Optional[str] = None",
  'const status = ok ? "pass" : "fail";',
  "showPassword = !showPassword",
  "headers['Authorization'] = 'Bearer ' + token",
  // Names that are not secrets, values that are not secrets.
  "max_tokens: 4096",
  '"usage": {"input": 12, "output": 3, "totalTokens": 1234, "input_tokens": 12}',
  '"key": "ArrowDown"',
  '"cacheKey": "user:42:profile"',
  'sortKey = "createdAt"',
  '"publicKey": "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE"',
  '"private_key_id": "4f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"',
  "STARSHIP_SESSION_KEY=1234567890123456",
  '"sessionKey": "agent:main:main"',
  "export OPENAI_API_KEY",
  "echo $OPENAI_API_KEY",
  // Auth schemes in prose and templates.
  "Bearer token authentication is described in RFC 6750.",
  "Authorization: Bearer <token>",
  "Authorization: Bearer ${TOKEN}",
  "Authorization: Bearer $TOKEN",
  "headers: { Authorization: `Bearer ${apiKey}` }",
  "Basic authentication is disabled; see Basic usage.",
  "Authorization: Basic dGVzdA==",
  // URLs without a real password.
  "https://example.com/path?q=1",
  "https://alice@git.example.com/repo.git",
  "postgres://user:password@localhost:5432/db",
  "postgres://app:${DB_PASSWORD}@db:5432/app",
  "mysql://root:****@127.0.0.1/test",
  "see http://localhost:8080/@admin",
  // PEM markers in code, public material.
  "if (pem.startsWith('-----BEGIN PRIVATE KEY-----')) return parse(pem);",
  'const header = "-----BEGIN RSA PRIVATE KEY-----\\n" + body + "\\n-----END RSA PRIVATE KEY-----";',
  "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUTestOnlyNotARealCertificate0123456789\n-----END CERTIFICATE-----",
  "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----",
];

describe("near-misses", () => {
  it.each(NEAR_MISSES)("leaves alone: %s", (text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it("leaves base64 image data, hex digests and UUIDs alone", () => {
    const r = randFrom(11);
    const image = Buffer.from(r(150_000, ALNUM + "+/=!@#"), "latin1").toString("base64");
    expect(findSecrets(image)).toEqual([]);
    expect(findSecrets(`{"type":"image","data":"${image}","mimeType":"image/png"}`)).toEqual([]);
    const digests = Array.from({ length: 200 }, () => `${r(40, HEX)} ${r(64, HEX)} ${crypto.randomUUID()}`).join("\n");
    expect(findSecrets(digests)).toEqual([]);
  });

  it("leaves publishable keys alone (they are meant to be public)", () => {
    const r = randFrom(12);
    expect(findSecrets(`pk_live_${r(24)} and NEXT_PUBLIC_STRIPE_KEY=pk_test_${r(24)}`)).toEqual([]);
  });

  // For each common format, a look-alike that falls short of it: too short, a prefix alone, a documented
  // placeholder, an identifier that goes with a secret, or a random string with nothing to say it is one.
  const r = randFrom(13);
  const formatNearMisses: readonly (readonly [string, string])[] = [
    ["AWS secret access key", `checksum ${r(40, B64)} (no name says it is a key)`],
    ["GitHub classic token", `ghp_${r(20)}`],
    ["GitHub fine-grained token", `github_pat_${r(22)}`],
    ["GitHub app token", `ghs_${r(24)} is cut short`],
    ["Slack webhook", "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"],
    ["Stripe test key", `sk_test_${r(8)}`],
    ["Stripe restricted key", "rk_live_xxxxxxxxxxxxxxxxxxxxxxxx"],
    ["Google API key", `AIza${r(20, B64URL)}`],
    ["OpenAI project key", `sk-proj-${r(8)}`],
    ["Anthropic key", "Anthropic keys start with sk-ant-api03- and run on for about a hundred characters."],
    ["Hugging Face token", `hf_${r(34, LOWER)}`],
    ["npm token", `npm_${r(20)}`],
    ["PyPI token", "PyPI tokens start with pypi-AgEIcHlwaS5vcmc, which is base64 of the issuer."],
    ["SendGrid key", `SG.${r(22, B64URL)} alone`],
    ["Twilio Account SID", `TWILIO_ACCOUNT_SID=AC${r(32, HEX)}`],
    ["Twilio API key SID", `SK${r(32, HEX)}`],
    ["Twilio credentials from the environment", "curl -u $TWILIO_ACCOUNT_SID:$TWILIO_AUTH_TOKEN"],
    ["Twilio SID with a placeholder", `AC${r(32, HEX)}:your_auth_token`],
  ];

  it.each(formatNearMisses)("leaves alone a look-alike of a %s", (_format, text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});

// ── Twilio ─────────────────────────────────────────────────────────────────────────────────────────────────────

describe("Twilio credentials", () => {
  const r = randFrom(14);
  it("redacts an auth token or API key secret by its setting's name, or paired with its SID", () => {
    const token = r(32, HEX);
    const sid = `AC${r(32, HEX)}`;
    expect(spans(`TWILIO_AUTH_TOKEN=${token}`)).toEqual([["secret-assignment", token]]);
    expect(spans(`{"accountSid": "${sid}", "authToken": "${token}"}`)).toEqual([["secret-assignment", token]]);
    expect(spans(`https://${sid}:${token}@api.twilio.com/2010-04-01/Accounts.json`)).toEqual([["url-password", token]]);
    expect(spans(`client = Client("${sid}", "x") # curl -u ${sid}:${token}`)).toEqual([["twilio-secret", token]]);
  });
});

// ── Secret-named values ────────────────────────────────────────────────────────────────────────────────────────

describe("secret-named values", () => {
  const cases: readonly [string, string][] = [
    ["export GITHUB_DEPLOY_TOKEN=abc123def456ghi789", "abc123def456ghi789"],
    ["DB_PASSWORD=hunter2", "hunter2"],
    ["SMTP_PASS=hunter2 node server.js", "hunter2"],
    ['DB_PASSWORD="correct horse battery staple"', "correct horse battery staple"],
    ["POSTGRES_PASSWORD: mysecretpassword", "mysecretpassword"],
    ["  password: s3cr3t-P4ss", "s3cr3t-P4ss"],
    ['"api_key": "q8Xz3LmN0pRt5VwY"', "q8Xz3LmN0pRt5VwY"],
    ["api_key: q8Xz3LmN0pRt5VwY", "q8Xz3LmN0pRt5VwY"],
    ["client_secret = 'Zq9kL2mP0xR7'", "Zq9kL2mP0xR7"],
    ["JWT_SECRET=9f2c1e7a5b3d", "9f2c1e7a5b3d"],
    ["SECRET_KEY_BASE=0f9e8d7c6b5a49382716", "0f9e8d7c6b5a49382716"],
    ["ENCRYPTION_KEY=Q2hhbmdlZEtleTEyMw", "Q2hhbmdlZEtleTEyMw"],
    ["mysql --user=root --password=hunter22 app", "hunter22"],
    ["GET /callback?code=42&token=abc123xyz&state=ok", "abc123xyz"],
    ['password: str = "hunter22"', "hunter22"],
    ['const dbPassword: string = "Tr0ub4dor&3";', "Tr0ub4dor&3"],
    ['"X-Api-Key": "Zk3Lq9Vm2Np8Rt4W"', "Zk3Lq9Vm2Np8Rt4W"],
    ["Server=db;User Id=sa;Password=P@ssw0rd;", "P@ssw0rd"],
    ['{\\"refresh_token\\": \\"1//0gAbC-dEfG123\\"}', "1//0gAbC-dEfG123"],
    ["'password' => 'hunter22',", "hunter22"],
    ['"key": "Zk3Lq9Vm2Np8Rt4WxY7b"', "Zk3Lq9Vm2Np8Rt4WxY7b"],
    ['STRIPE_KEY="Zk3Lq9Vm2Np8"', "Zk3Lq9Vm2Np8"],
    ["App Secret: AbC12dEf34GhI56jKl", "AbC12dEf34GhI56jKl"],
  ];

  it.each(cases)("redacts the value in %s", (text, value) => {
    expect(spans(text)).toEqual([["secret-assignment", value]]);
  });

  it("does not take a random-looking value under a vague name for a password, or a short one", () => {
    expect(findSecrets('"key": "user-settings-v2"')).toEqual([]);
    expect(findSecrets('"auth": "oauth2"')).toEqual([]);
    expect(findSecrets('"token": "abc"')).toEqual([]);
  });

  it("redacts later occurrences of a distinctive secret value anywhere in the text (echoes)", () => {
    const text = 'DB_PASSWORD="Zq9!kL2#mPw" … later: mysql -u app -pZq9!kL2#mPw -h db';
    const found = findSecrets(text);
    expect(found.map((r) => r.original)).toEqual(["Zq9!kL2#mPw", "Zq9!kL2#mPw"]);
    expect(redactText(text).text).not.toContain("Zq9!kL2#mPw");
  });

  it("does not echo a plain word", () => {
    const found = findSecrets("DB_PASSWORD=postgres\npsql -h postgres -U postgres");
    expect(found.map((r) => r.original)).toEqual(["postgres"]);
  });
});

// ── Overlaps and whole blocks ──────────────────────────────────────────────────────────────────────────────────

describe("overlapping patterns", () => {
  it("reports a JWT inside a Bearer header once, as a JWT", () => {
    const token = jwt(randFrom(21));
    for (const text of [
      `Authorization: Bearer ${token}`,
      `"Authorization": "Bearer ${token}"`,
      `curl -H 'authorization: bearer ${token}'`,
    ]) {
      expect(spans(text), text).toEqual([["jwt", token]]);
    }
  });

  it("reports a JWT assigned to a token name once", () => {
    const token = jwt(randFrom(22));
    expect(spans(`"id_token": "${token}"`)).toEqual([["jwt", token]]);
    expect(spans(`ACCESS_TOKEN=${token}`)).toEqual([["jwt", token]]);
  });

  it("redacts a token used as the password of a URL as that token", () => {
    const token = `ghs_${randFrom(23)(36)}`;
    expect(spans(`https://x-access-token:${token}@github.com/o/r.git`)).toEqual([["github-token", token]]);
    expect(spans(`https://${token}@github.com/o/r.git`)).toEqual([["github-token", token]]);
  });

  it("redacts a whole PEM block, also inside JSON with escaped newlines, and one cut off before its END", () => {
    const r = randFrom(24);
    const block = pem(r, "PRIVATE KEY");
    const serviceAccount = JSON.stringify({
      type: "service_account",
      private_key: `${block}\n`,
      client_email: "a@b.c",
    });
    const escaped = JSON.stringify(block).slice(1, -1);
    expect(spans(serviceAccount)).toEqual([["private-key", escaped]]);
    const cut = block.slice(0, block.indexOf("-----END") - 30);
    expect(spans(`$ cat id_rsa | head\n${cut}\n$ ls`)).toEqual([["private-key", cut]]);
    const pgp = pem(r, "PGP PRIVATE KEY BLOCK").replace("\n", "\nVersion: GnuPG v2\n\n");
    expect(spans(pgp)).toEqual([["private-key", pgp]]);
  });

  it("finds several secrets in one text, sorted and apart", () => {
    const r = randFrom(25);
    const a = `AKIA${r(16, UPPER + "234567")}`;
    const b = r(40, B64);
    const c = `xoxb-${r(12, DIGITS)}-${r(13, DIGITS)}-${r(24)}`;
    const text = `[default]\naws_access_key_id = ${a}\naws_secret_access_key = ${b}\nslack: ${c}\n`;
    expect(spans(text)).toEqual([
      ["aws-access-key-id", a],
      ["aws-secret-key", b],
      ["slack-token", c],
    ]);
  });
});

// ── Offsets, replacements, restore ─────────────────────────────────────────────────────────────────────────────

function checkInvariants(text: string, redactions: readonly Redaction[]): void {
  let end = 0;
  for (const r of redactions) {
    expect(r.start).toBeGreaterThanOrEqual(end);
    expect(r.end).toBeGreaterThan(r.start);
    expect(text.slice(r.start, r.end)).toBe(r.original);
    end = r.end;
  }
}

describe("offsets, replacements and restore", () => {
  const r = randFrom(31);
  const openai = `sk-proj-${r(156, B64URL)}`;
  const text = `first ${openai}\nDB_PASSWORD=hunter2\nAuthorization: Basic ${Buffer.from("bob:Zq9kL2mP").toString("base64")}\n`;

  it("gives offsets into the original text and replaces exactly those spans", () => {
    const { text: redacted, redactions } = redactText(text);
    checkInvariants(text, redactions);
    expect(redactions.map((x) => x.kind)).toEqual(["openai-key", "secret-assignment", "basic-auth"]);
    expect(redacted).toBe(
      `first [REDACTED openai-key …${openai.slice(-4)}]\nDB_PASSWORD=[REDACTED secret-assignment]\n` +
        `Authorization: Basic [REDACTED basic-auth]\n`,
    );
  });

  it("shows a tail only for long random tokens, never for passwords, keys or short ids", () => {
    const { redactions } = redactText(text);
    expect(redactions.map((x) => x.replacement.includes("…"))).toEqual([true, false, false]);
    const [aws] = findSecrets(`AKIA${r(16, UPPER)}`);
    expect(aws!.replacement).toBe("[REDACTED aws-access-key-id]");
    const [block] = findSecrets(pem(r, "PRIVATE KEY"));
    expect(block!.replacement).toBe("[REDACTED private-key]");
  });

  it("restores all, some or none of the redactions", () => {
    const { text: redacted, redactions } = redactText(text);
    expect(restore(redacted, redactions)).toBe(text);
    expect(restore(redacted, redactions, () => false)).toBe(redacted);
    const onlyPassword = restore(redacted, redactions, (x) => x.kind === "secret-assignment");
    expect(onlyPassword).toContain("DB_PASSWORD=hunter2");
    expect(onlyPassword).toContain("[REDACTED openai-key");
  });

  it("refuses to restore a text that changed after redaction, saying why", () => {
    const { text: redacted, redactions } = redactText(text);
    expect(() => restore(redacted.replace("first", "1st"), redactions)).toThrow(
      /does not hold .*changed after redaction/,
    );
  });

  it("finds nothing in its own output", () => {
    const all = SAMPLES.map(([kind, i]) => sample(kind, i, 5).text).join("\n---\n");
    const once = redactText(all);
    expect(once.redactions.length).toBe(SAMPLES.length);
    expect(findSecrets(once.text)).toEqual([]);
  });

  it("returns the same string when there is nothing to redact", () => {
    const plain = "nothing to see here";
    expect(redactText(plain)).toEqual({ text: plain, redactions: [] });
  });

  it("limits the search to the kinds asked for, and names unknown kinds", () => {
    expect(findSecrets(text, { kinds: ["basic-auth"] }).map((x) => x.kind)).toEqual(["basic-auth"]);
    expect(findSecrets(text, { kinds: [] })).toEqual([]);
    expect(() => findSecrets(text, { kinds: ["openai", "basic-auth"] })).toThrow(
      /Unknown secret kind "openai"; known kinds: private-key, jwt/,
    );
  });
});

// ── JSON-like values ───────────────────────────────────────────────────────────────────────────────────────────

describe("redactValue", () => {
  const r = randFrom(41);
  const github = `ghp_${r(36)}`;
  const image = Buffer.from(r(3000), "latin1").toString("base64");
  const user = {
    role: "user",
    content: [
      { type: "text", text: `push with ${github} please` },
      { type: "image", data: image, mimeType: "image/png" },
    ],
    timestamp: 1,
  };
  const assistant = {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "the user gave a token", thinkingSignature: r(200, B64) },
      {
        type: "toolCall",
        id: "call_1",
        name: "bash",
        arguments: {
          command: `git push https://x:${github}@github.com/o/r`,
          password: "hunter22",
          "db.pass word": "x",
        },
      },
    ],
  };

  it("redacts strings at any depth and names where each redaction is", () => {
    const { value, redactions } = redactValue([user, assistant], { skipKeys: NON_TEXT_KEYS });
    expect(redactions.map((x) => [x.path, x.kind])).toEqual([
      ["[0].content[0].text", "github-token"],
      ["[1].content[1].arguments.command", "github-token"],
      ["[1].content[1].arguments.password", "secret-assignment"],
    ]);
    expect(value[0]!.content[0]).toEqual({
      type: "text",
      text: "push with [REDACTED github-token …" + github.slice(-4) + "] please",
    });
    expect((value[1]!.content[1] as { arguments: { password: string } }).arguments.password).toBe(
      "[REDACTED secret-assignment]",
    );
  });

  it("shares every unchanged subtree and leaves skipped keys untouched", () => {
    const { value } = redactValue([user, assistant], { skipKeys: NON_TEXT_KEYS });
    expect(value[0]!.content[1]).toBe(user.content[1]);
    expect(value[1]!.content[0]).toBe(assistant.content[0]);
    expect(value[0]).not.toBe(user);
    expect(user.content[0]!.text).toContain(github);
  });

  it("does not look inside skipped keys at all", () => {
    const block = { type: "image", data: `ghp_${r(36)}`, mimeType: "image/png" };
    expect(redactValue(block, { skipKeys: NON_TEXT_KEYS }).redactions).toEqual([]);
    expect(redactValue(block).redactions.map((x) => x.path)).toEqual(["data"]);
  });

  it("returns the value itself when nothing is found", () => {
    const plain = { a: ["b", { c: "d" }], n: 1, z: null };
    const result = redactValue(plain);
    expect(result.value).toBe(plain);
    expect(result.redactions).toEqual([]);
  });

  it("restores chosen redactions inside the value", () => {
    const { value, redactions } = redactValue([user, assistant], { skipKeys: NON_TEXT_KEYS });
    expect(restoreValue(value, redactions)).toEqual([user, assistant]);
    const partly = restoreValue(value, redactions, (x) => x.kind === "secret-assignment");
    expect((partly[1]!.content[1] as { arguments: { password: string } }).arguments.password).toBe("hunter22");
    expect(JSON.stringify(partly)).not.toContain(github);
  });

  it("quotes keys that are not identifiers in paths", () => {
    const { redactions } = redactValue({ "odd key": { "a.b": [`token ${github}`] } });
    expect(redactions.map((x) => x.path)).toEqual(['["odd key"]["a.b"][0]']);
  });

  it("redacts echoes across strings, a bare string, and survives deep nesting", () => {
    const { redactions } = redactValue({ env: "DB_PASSWORD=Zq9!kL2#mPw", later: "mysql -pZq9!kL2#mPw" });
    expect(redactions.map((x) => x.path)).toEqual(["env", "later"]);
    expect(redactValue(`key ${github}`).value).toBe(`key [REDACTED github-token …${github.slice(-4)}]`);
    let deep: unknown = `deep ${github}`;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(redactValue(deep).redactions).toHaveLength(1);
  });

  it("refuses a value that contains itself", () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop["self"] = loop;
    expect(() => redactValue(loop)).toThrow(/contains itself \(at self\)/);
  });
});

// ── Robustness and properties ──────────────────────────────────────────────────────────────────────────────────

const NOISE: readonly string[] = [
  "The build passed.",
  "const x = 1;",
  '{"role":"user","content":"hi"}',
  "max_tokens: 4096",
  "see https://example.com/docs",
  "sha 3f786850e387550fdab836ed7e6dc881de23001b",
  "export PATH=$HOME/bin:$PATH",
  "token: string",
  "Bearer",
  "-----BEGIN PRIVATE KEY-----",
  "eyJ",
  "sk-",
  "password=",
  "ünïcödé ✓ 🎉",
];
const SEPARATORS = [" ", "\n", "\t", ", ", "; ", " = ", ": ", "\n\n", " | "];

/** A secret of a random kind in its usual setting, and the string that must not survive redaction. */
const plantedSecret = fc.tuple(fc.nat(SAMPLES.length - 1), fc.nat()).map(([i, seed]) => {
  const [kind, index] = SAMPLES[i]!;
  return sample(kind, index, seed);
});

const realisticText = fc
  .array(
    fc.oneof(
      plantedSecret.map((s) => s.text),
      fc.constantFrom(...NOISE),
      fc.string({ maxLength: 30 }),
    ),
    { maxLength: 25 },
  )
  .chain((parts) =>
    fc
      .array(fc.constantFrom(...SEPARATORS), { minLength: parts.length, maxLength: parts.length })
      .map((seps) => parts.map((p, i) => p + seps[i]).join("")),
  );

describe("properties", () => {
  it("never throws on arbitrary text, keeps its invariants and restores to the input", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 600 }), (text) => {
        const { text: redacted, redactions } = redactText(text);
        checkInvariants(text, redactions);
        expect(restore(redacted, redactions)).toBe(text);
      }),
      { numRuns: 1500 },
    );
  });

  it("leaves none of the secrets it found in realistic text, and restoring all gives the input back", () => {
    fc.assert(
      fc.property(realisticText, (text) => {
        const { text: redacted, redactions } = redactText(text);
        checkInvariants(text, redactions);
        for (const r of redactions) expect(redacted).not.toContain(r.original);
        expect(restore(redacted, redactions)).toBe(text);
      }),
      { numRuns: 1500 },
    );
  });

  it("finds a token whose random tail happens to repeat few characters (found by the property below)", () => {
    const token = "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"; // its last 16 characters hold only 5 different ones
    expect(redactText(`${token}\nThe build passed.`).redactions.map((r) => r.kind)).toEqual(["shopify-token"]);
  });

  it("finds every planted secret in realistic text", () => {
    fc.assert(
      fc.property(
        fc.array(plantedSecret, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...NOISE),
        (planted, noise) => {
          const text = planted.map((p) => p.text).join(`\n${noise}\n`);
          const redacted = redactText(text).text;
          for (const p of planted) expect(redacted).not.toContain(p.secret);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("large and hostile input", () => {
  it("finds every secret planted in 5 MB of session-like text", () => {
    const r = randFrom(51);
    const chunk = [
      "Ran `npm test`\n```\n PASS  tests/unit/a.test.ts (12 tests)\n```\n",
      '{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"Done."}]}}\n',
      "const config = { apiKey: process.env.API_KEY, retries: 3, key: item.id };\n",
      `data:image/png;base64,${r(400, B64)}\n`,
    ].join("");
    const planted: string[] = [];
    let text = "";
    while (text.length < 5 * 1024 * 1024) {
      text += chunk;
      if (planted.length < 200 && text.length % 7 < 3) {
        const { text: secretText, secret } = sample(...SAMPLES[planted.length % SAMPLES.length]!, planted.length);
        planted.push(secret);
        text += `${secretText}\n`;
      }
    }
    const found = findSecrets(text);
    checkInvariants(text, found);
    expect(found.map((x) => x.original)).toEqual(planted);
  });

  it("gets through long runs of one character or one trigger", () => {
    for (const unit of ["a", " ", "-", "0", "=", ":", "/", "x", "\\", '"', "k", "sk-", "eyJ", "key="]) {
      expect(findSecrets(unit.repeat(Math.ceil(1_000_000 / unit.length))), unit).toEqual([]);
    }
    for (const unit of [
      "key: ",
      "token='",
      "Bearer ",
      "Basic ",
      "://a:b@",
      "-----BEGIN PRIVATE KEY-----\n",
      "12345678:AA",
    ]) {
      expect(findSecrets(unit.repeat(Math.ceil(200_000 / unit.length))), unit).toEqual([]);
    }
    const r = randFrom(52);
    const longToken = `ghp_${r(500_000)}`;
    expect(findSecrets(longToken)).toEqual([]);
    const unclosed = `password="${r(100_000)}`;
    expect(() => findSecrets(unclosed)).not.toThrow();
  });
});

describe.skipIf(!HAS_CORPUS)("real sessions", () => {
  it("redacts every line of every corpus session without breaking restore or finding anything twice", () => {
    for (const file of corpusFiles()) {
      for (const line of readFileSync(file, "utf8").split("\n")) {
        if (line.trim() === "") continue;
        let entry: unknown;
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        const { value, redactions } = redactValue(entry, { skipKeys: NON_TEXT_KEYS });
        if (redactions.length === 0) continue;
        expect(restoreValue(value, redactions)).toEqual(entry);
        expect(redactValue(value, { skipKeys: NON_TEXT_KEYS }).redactions).toEqual([]);
      }
    }
  });
});
