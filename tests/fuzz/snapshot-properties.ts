/**
 * The snapshot decoder: any text, JSON value or link gives a snapshot or a message saying what is wrong, never an
 * exception; snapshots made from (damaged) sessions read back as they were written, as files and as links; a
 * snapshot cut short never reads as one, and one with flipped bits reads as a valid snapshot or not at all.
 */
import { deflateRawSync } from "node:zlib";
import fc from "fast-check";
import { findModel, parseModelRef } from "../../src/core/models/registry.ts";
import { BUILT_IN_PRESETS } from "../../src/core/project/presets.ts";
import { loadSessionText } from "../../src/core/session/load.ts";
import { indexTree } from "../../src/core/session/tree.ts";
import { bytesToBase64Url, base64UrlToBytes } from "../../src/core/snapshot/base64.ts";
import { createSnapshot } from "../../src/core/snapshot/create.ts";
import { prepareExport, snapshotJson } from "../../src/core/snapshot/export.ts";
import { decodeSnapshotLink, encodeSnapshotLink, snapshotParam } from "../../src/core/snapshot/link.ts";
import { checkSnapshot, looksLikeSnapshot, parseSnapshot } from "../../src/core/snapshot/parse.ts";
import { itemPositions, type Snapshot } from "../../src/core/snapshot/schema.ts";
import type { Result } from "../../src/core/result.ts";
import { expectNoPollution, expectStatedError, expectThat, noReject, noThrow, tally, unlessKnown } from "./check.ts";
import { hostileKey, hostileString, hostileValue } from "./inputs.ts";
import { jsonDifference, objectOf, toJsonText } from "./json.ts";
import { damagedSession, mutateValue, valueMutation } from "./mutate.ts";
import { FUZZ_MODELS } from "./pipeline-properties.ts";

/** Models a snapshot can be made for: not the two whose base URL pi-ai cannot fill in (always refused). */
const SNAPSHOT_MODELS = FUZZ_MODELS.filter(
  (m) => m !== "session" && m !== "cloudflare-ai-gateway/gpt-4" && m !== "azure-openai-responses/gpt-4",
);

/** A snapshot of a projection of a lightly damaged session, as created and as exported (images and secrets hidden). */
export interface SnapshotCase {
  readonly created: Snapshot;
  readonly exported: Snapshot;
}

/** What to make a snapshot of: a session, some entry of it, a built-in preset and a model of some API. */
export interface SnapshotSpec {
  readonly text: string;
  readonly leaf: number;
  readonly preset: number;
  readonly model: string;
  readonly createdAt: string;
}

export const snapshotSpec: fc.Arbitrary<SnapshotSpec> = fc.record({
  text: damagedSession({ values: 2, tree: 1, lines: 1 }),
  leaf: fc.nat(),
  preset: fc.nat({ max: BUILT_IN_PRESETS.length - 1 }),
  model: fc.constantFrom(...SNAPSHOT_MODELS),
  createdAt: fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
});

/** The snapshot the spec describes, or undefined when the projection is refused (the reason is tallied). */
function snapshotOf({ text, leaf, preset, model, createdAt }: SnapshotSpec): SnapshotCase | undefined {
  const tree = indexTree(loadSessionText("fuzz.jsonl", text));
  if (tree.entries.length === 0) return undefined;
  const ref = parseModelRef(model)!;
  const settings = BUILT_IN_PRESETS[preset]!.settings;
  const at = leaf % tree.entries.length;
  const made = createSnapshot(tree, at, settings, findModel(ref.provider, ref.id), { createdAt });
  if (!made.ok) tally(`no snapshot: ${made.error.replace(/[:;,(].*$/s, "").replace(/\d+/g, "N")}`);
  return made.ok ? { created: made.value, exported: prepareExport(made.value) } : undefined;
}

/** The spec's snapshot, made under the same checks as everything else (a known issue is counted, not failed). */
function madeCase(spec: SnapshotSpec): SnapshotCase | undefined {
  let made: SnapshotCase | undefined;
  unlessKnown(() => (made = noThrow("createSnapshot and prepareExport", () => snapshotOf(spec))));
  return made;
}

/** What a Result holds: a snapshot that passes its own checks again, or an error that says something. */
function checkOutcome(stage: string, result: Result<Snapshot>): void {
  if (!result.ok) {
    expectStatedError(stage, result.error);
    tally(`${stage}: refused`);
    return;
  }
  tally(`${stage}: read`);
  const written = JSON.parse(JSON.stringify(result.value)) as unknown; // as JSON has it: 1e400 read as Infinity is null
  const again = noThrow("checkSnapshot", () => checkSnapshot(written));
  expectThat(again.ok, `${stage} accepted what checkSnapshot then refuses: ${again.ok ? "" : again.error}`);
  const difference = jsonDifference(again.value, written, false);
  expectThat(difference === undefined, `${stage}: reading an accepted snapshot again differs at ${difference}`);
  noThrow("itemPositions", () => itemPositions(result.value));
}

/** `read` gives back exactly what was written (as JSON has it). */
function expectSame(stage: string, read: Result<Snapshot>, written: Snapshot): void {
  expectThat(read.ok, `${stage} refused a snapshot it wrote: ${read.ok ? "" : read.error}`);
  const difference = jsonDifference(read.value, JSON.parse(JSON.stringify(written)), false);
  expectThat(difference === undefined, `${stage} does not round-trip: ${difference}`);
}

/** Texts a snapshot file might hold instead: anything, any JSON, near-snapshots, damaged snapshots. */
export const snapshotText: fc.Arbitrary<string> = fc.oneof(
  hostileString,
  hostileValue.map(toJsonText),
  fc
    .tuple(fc.constantFrom(1, 2, 0, "1", 1.5), fc.array(fc.tuple(hostileKey, hostileValue), { maxLength: 6 }))
    .map(([version, rest]) =>
      toJsonText(objectOf([["format", "context-lens/snapshot"], ["version", version], ...rest])),
    ),
  fc
    .tuple(snapshotSpec, fc.array(fc.tuple(fc.nat(), valueMutation), { minLength: 1, maxLength: 3 }))
    .map(([spec, mutations]) => {
      let made: SnapshotCase | undefined;
      try {
        made = snapshotOf(spec);
      } catch {
        made = undefined; // a known issue of the projection; the round-trip target reports it
      }
      if (!made) return "";
      const value = JSON.parse(JSON.stringify(made.exported)) as Record<string, unknown>;
      for (const [place, m] of mutations) mutateValue(value, place, m);
      return toJsonText(value);
    }),
);

/** Reading any text as a snapshot file: a snapshot that checks out, or a stated error. */
export function checkSnapshotText(text: string): void {
  noThrow("looksLikeSnapshot", () => looksLikeSnapshot(text));
  noThrow("snapshotParam", () => snapshotParam(text));
  const read = noThrow("parseSnapshot", () => parseSnapshot(text, "fuzz.json"));
  checkOutcome("parseSnapshot", read);
  if (!read.ok) expectThat(read.error.startsWith("fuzz.json "), `the error does not name the file: ${read.error}`);
  expectNoPollution();
}

export interface Damage {
  /** Where to cut the text short, or to flip a bit. */
  readonly at: number;
  readonly bit: number;
}

/** Created and exported snapshots read back as written; cut short they are refused; a flipped bit never throws. */
export function checkSnapshotRoundTrip([spec, damage]: [SnapshotSpec, Damage]): void {
  const made = madeCase(spec);
  if (made) unlessKnown(() => checkFile(made, damage));
}

function checkFile({ created, exported }: SnapshotCase, damage: Damage): void {
  expectSame(
    "parseSnapshot (created)",
    noThrow("parseSnapshot", () => parseSnapshot(snapshotJson(created))),
    created,
  );
  const text = snapshotJson(exported);
  expectThat(looksLikeSnapshot(text.slice(0, 4096)), "the head of an exported snapshot does not look like one");
  expectSame(
    "parseSnapshot (exported)",
    noThrow("parseSnapshot", () => parseSnapshot(text)),
    exported,
  );
  const short = text.trimEnd().slice(0, damage.at % text.trimEnd().length);
  const cut = noThrow("parseSnapshot", () => parseSnapshot(short));
  expectThat(!cut.ok, `a snapshot cut to ${short.length} of ${text.length} characters was read`);
  expectStatedError("parseSnapshot (cut)", cut.error);
  const bytes = new TextEncoder().encode(text);
  bytes[damage.at % bytes.length]! ^= 1 << (damage.bit % 8);
  const flipped = new TextDecoder().decode(bytes);
  checkOutcome(
    "parseSnapshot (bit flipped)",
    noThrow("parseSnapshot", () => parseSnapshot(flipped)),
  );
}

export interface LinkInput {
  readonly snapshot: SnapshotSpec;
  readonly damage: Damage;
  /** A fragment that may or may not carry a snapshot. */
  readonly junk: string;
}

export const linkJunk: fc.Arbitrary<string> = fc.oneof(
  hostileString,
  hostileString.map((s) => `#snapshot=${s}`),
  fc
    .string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") })
    .map((s) => `#snapshot=${s}`),
  fc.uint8Array({ maxLength: 64 }).map((b) => `https://example.test/#a=1&snapshot=${bytesToBase64Url(b)}&b=2`),
  snapshotText.map((text) => `#snapshot=${bytesToBase64Url(deflateRawSync(text))}`),
);

/** Links round-trip; a link cut short is refused; a bit flipped in its compressed data never throws; junk is refused. */
export async function checkLink({ snapshot: spec, damage, junk }: LinkInput): Promise<void> {
  checkOutcome("decodeSnapshotLink (junk)", await noReject("decodeSnapshotLink", () => decodeSnapshotLink(junk)));
  const snapshot = madeCase(spec);
  if (!snapshot) return;
  const link = await noReject("encodeSnapshotLink", () => encodeSnapshotLink(snapshot.exported));
  const read = await noReject("decodeSnapshotLink", () => decodeSnapshotLink(link));
  if (!unlessKnown(() => expectSame("decodeSnapshotLink", read, snapshot.exported))) return;
  const short = link.slice(0, "#snapshot=".length + (damage.at % (link.length - "#snapshot=".length)));
  const cut = await noReject("decodeSnapshotLink", () => decodeSnapshotLink(short));
  expectThat(!cut.ok, `a link cut to ${short.length} of ${link.length} characters was read`);
  expectStatedError("decodeSnapshotLink (cut)", cut.error);
  const bytes = base64UrlToBytes(snapshotParam(link)!)!;
  bytes[damage.at % bytes.length]! ^= 1 << (damage.bit % 8);
  const flipped = `#snapshot=${bytesToBase64Url(bytes)}`;
  checkOutcome(
    "decodeSnapshotLink (bit flipped)",
    await noReject("decodeSnapshotLink", () => decodeSnapshotLink(flipped)),
  );
}

export const damage: fc.Arbitrary<Damage> = fc.record({ at: fc.nat(), bit: fc.nat({ max: 7 }) });
