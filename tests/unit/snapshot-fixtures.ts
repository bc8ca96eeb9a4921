/**
 * Sessions for the snapshot tests, and a planted list of fake secrets in every format the redactor covers. Every
 * secret is generated at run time from a seeded PRNG in the right shape; none is real and none appears literally.
 */
import {
  assistant,
  bash,
  branchSummary,
  compaction,
  customMessage,
  header,
  image,
  modelChange,
  session,
  text,
  thinking,
  toolCall,
  toolResult,
  user,
} from "../support/build.ts";

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;
const B64URL = ALNUM + "-_";
const B64 = ALNUM + "+/";

/** mulberry32, so every run plants the same secrets. */
function random(seed: number): (n: number, alphabet?: string) => string {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (n, alphabet = ALNUM) =>
    Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
}

const b64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString("base64url");

export interface Planted {
  readonly name: string;
  /** The text as it stands in the session. */
  readonly text: string;
  /** What must not survive an export (the secret itself, or its distinctive parts). */
  readonly secrets: readonly string[];
}

/** One of each format redact.ts covers: provider keys, tokens, private keys, `.env` assignments, URL credentials. */
export function plantedSecrets(seed = 7): Planted[] {
  const r = random(seed);
  const openai = `sk-proj-${r(120, B64URL)}`;
  const anthropic = `sk-ant-api03-${r(93, B64URL)}AA`;
  const github = `ghp_${r(36)}`;
  const awsId = `AKIA${r(16, UPPER + "234567")}`;
  const awsSecret = r(40, B64);
  const slack = `xoxb-${r(12, DIGITS)}-${r(13, DIGITS)}-${r(24)}`;
  const stripe = `sk_live_${r(40)}`;
  const jwt = `${b64url({ alg: "HS256", typ: "JWT" })}.${b64url({ sub: r(12, DIGITS), iat: 1_700_000_000 })}.${r(43, B64URL)}`;
  const bearer = r(40);
  const pemLines = Array.from({ length: 5 }, () => r(64, B64));
  const pem = `-----BEGIN RSA PRIVATE KEY-----\n${pemLines.join("\n")}\n-----END RSA PRIVATE KEY-----`;
  const envPassword = `${r(8, LOWER)}${r(3, DIGITS)}!${r(4, UPPER)}`;
  const envToken = r(32);
  const urlPassword = r(18);
  const dbPassword = r(20);
  return [
    { name: "OpenAI key", text: `OPENAI key is ${openai} (rotate it)`, secrets: [openai] },
    { name: "Anthropic key", text: `export ANTHROPIC_API_KEY=${anthropic}`, secrets: [anthropic] },
    { name: "GitHub token", text: `git push https://${github}@github.com/acme/app.git`, secrets: [github] },
    {
      name: "AWS keys",
      text: `[default]\naws_access_key_id = ${awsId}\naws_secret_access_key = ${awsSecret}`,
      secrets: [awsId, awsSecret],
    },
    { name: "Slack token", text: `SLACK_BOT=${slack}`, secrets: [slack] },
    { name: "Stripe key", text: `stripe.api_key = "${stripe}"`, secrets: [stripe] },
    { name: "JWT", text: `token: ${jwt}`, secrets: [jwt, jwt.split(".")[2]!] },
    {
      name: "Bearer token",
      text: `curl -H "Authorization: Bearer ${bearer}" https://api.example.com/v1`,
      secrets: [bearer],
    },
    { name: "PEM private key", text: `id_rsa:\n${pem}`, secrets: pemLines },
    {
      name: ".env assignments",
      text: `DB_PASSWORD="${envPassword}"\nDEPLOY_TOKEN=${envToken}\nDEBUG=1`,
      secrets: [envPassword, envToken],
    },
    {
      name: "URLs with credentials",
      text: `git remote add origin https://alice:${urlPassword}@git.example.com/x.git\nDATABASE_URL=postgres://app:${dbPassword}@db:5432/app`,
      secrets: [urlPassword, dbPassword],
    },
  ];
}

/** A small PNG (8×8), base64. */
export const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAL0lEQVR42mOQk1O5Y2MjJ6cCRxAuAzIHmcGArBBZKyEJ7EbhsxwTMQTsS0FDEAkAYNcp3VdXZfUAAAAASUVORK5CYII=";

/**
 * A session whose payload holds each planted secret in a different place: user text, tool arguments (under a
 * `data` key too), tool results, bash output, thinking, assistant text, an extension message, a compaction
 * summary, a branch summary — plus an image in a user message and one in a tool result.
 */
export function secretSession(planted: readonly Planted[]): string {
  const at = (i: number) => planted[i % planted.length]!.text;
  return session(
    header({ id: "sess-secret" }),
    modelChange("m1", null, "anthropic", "claude-sonnet-4-5"),
    user("u1", "m1", [text(`Please help.\n${at(0)}`), image(PNG)]),
    assistant("a1", "u1", [
      thinking(`I see ${at(1)}`),
      text(`Noted: ${at(2)}`),
      toolCall("t1", "bash", { command: at(3) }),
    ]),
    toolResult("r1", "a1", "t1", [text(at(4)), image(PNG, "image/jpeg")]),
    bash("b1", "r1", "cat .env", at(5)),
    customMessage("x1", "b1", "memo", at(6)),
    assistant("a2", "x1", [toolCall("t2", "write", { path: "k.pem", data: at(8) })]),
    toolResult("r2", "a2", "t2", at(7)),
    branchSummary("s1", "r2", "gone", `Earlier branch: ${at(9)}`),
    compaction("c1", "s1", "u1", `Summary: ${at(10)}`),
    user("u2", "c1", "What now?"),
  );
}
