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
 * What counts as a secret, and the judgement calls behind it, are in `secret-detectors.ts`.
 */
import {
  assignmentDetector,
  DETECTORS,
  FREE_FORM_KINDS,
  isDistinctive,
  KIND_SPECS,
  secretByKey,
  SPEC_BY_ID,
  type Detector,
  type Found,
  type KindSpec,
  type Scan,
} from "./secret-detectors.ts";
import { mapStrings } from "./map-strings.ts";

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

/** Every kind the redactor reports. */
export const SECRET_KINDS: readonly SecretKind[] = KIND_SPECS.map(({ id, label }) => ({ id, label }));

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
      ?.filter((f) => scan.allowed.has(f.kind) && f.end > f.start && f.start >= done);
    if (found && found.length > 0) return found;
  }
  return [];
}

/** Every secret in `text`, sorted and non-overlapping (echoes not included). */
function scanText(text: string, compiled: Compiled): Found[] {
  const table = trigramTable();
  const scan: Scan = {
    text,
    allowed: compiled.allowed,
    scanInner: (inner) => scanText(inner, compiled.inner ?? compiled),
    pemFrom: -1,
    pemAt: -1,
    runFrom: -1,
    runEnd: -1,
    runColon: -1,
  };
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
    for (const secret of found) out.push(secret);
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
    const found = scanned.length > 0 ? scanned : secretByKey(text, key, compiled.allowed);
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
    for (const r of list) redactions.push({ ...r, path });
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
