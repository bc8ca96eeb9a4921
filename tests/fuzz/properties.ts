/**
 * The fuzz targets: each pairs an input arbitrary with a check that throws when the property fails. The unit
 * suite (tests/unit/fuzz.test.ts) runs each a few hundred times, `npm run fuzz` (scripts/fuzz.ts) ten thousand.
 */
import fc from "fast-check";
import { checkCli, cliInput } from "./cli-properties.ts";
import { checkEngine, engineInput } from "./engine-properties.ts";
import { checkImport, importInput } from "./import-properties.ts";
import { damagedSession } from "./mutate.ts";
import { hostileSessionText, hostileString } from "./inputs.ts";
import { checkPipeline, pipelineModel, type PipelineInput } from "./pipeline-properties.ts";
import { checkLoadBytes, checkLoadText, checkTree, type ChunkedBytes, type TreeInput } from "./session-properties.ts";
import {
  checkLink,
  checkSnapshotRoundTrip,
  checkSnapshotText,
  damage,
  linkJunk,
  snapshotSpec,
  snapshotText,
  type LinkInput,
} from "./snapshot-properties.ts";

export interface FuzzTarget<T = never> {
  readonly name: string;
  /** What the property asserts, in one line. */
  readonly asserts: string;
  readonly input: fc.Arbitrary<T>;
  /** Throws when the property fails for `input`. */
  readonly check: (input: T) => void | Promise<void>;
  /** True when `check` returns a promise. */
  readonly async?: boolean;
  /** Cases in the unit suite (its share of a few thousand, by how long one case takes). */
  readonly suiteRuns: number;
}

const target = <T>(t: FuzzTarget<T>): FuzzTarget<unknown> => t as unknown as FuzzTarget<unknown>;

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Byte sequences that test a UTF-8 reader: a BOM, an encoded U+FFFD, NUL, truncated and invalid sequences. */
const SPECIAL_BYTES = [
  [0xef, 0xbb, 0xbf],
  [0xef, 0xbf, 0xbd],
  [0],
  [0xc3],
  [0xe2, 0x82],
  [0xf0, 0x9f],
  [0xff],
  [0x0d, 0x0a],
];

const bytesInput: fc.Arbitrary<ChunkedBytes> = fc.record({
  bytes: fc.oneof(
    fc.uint8Array({ maxLength: 200 }),
    hostileSessionText.map(utf8),
    fc
      .tuple(
        fc.oneof(hostileSessionText, damagedSession({ values: 1, tree: 0, lines: 1 })),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SPECIAL_BYTES)), { maxLength: 4 }),
      )
      .map(([text, inserts]) => {
        const bytes = [...utf8(text)];
        for (const [at, insert] of inserts) bytes.splice(at % (bytes.length + 1), 0, ...insert);
        return Uint8Array.from(bytes);
      }),
  ),
  chunks: fc.array(fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 400 })), {
    minLength: 1,
    maxLength: 6,
  }),
});

const sessionInput = fc.oneof(
  { weight: 3, arbitrary: hostileSessionText },
  { weight: 3, arbitrary: damagedSession({ values: 3, tree: 2, lines: 2 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 80 }) },
);

const treeInput: fc.Arbitrary<TreeInput> = fc.record({
  text: fc.oneof(
    { weight: 3, arbitrary: damagedSession({ values: 1, tree: 4, lines: 1 }) },
    { weight: 1, arbitrary: hostileSessionText },
  ),
  query: hostileString,
});

const pipelineInput: fc.Arbitrary<PipelineInput> = fc.record({
  text: fc.oneof(
    { weight: 1, arbitrary: damagedSession({ values: 0, tree: 0, lines: 0 }) },
    { weight: 4, arbitrary: damagedSession({ values: 2, tree: 1, lines: 1 }) },
    { weight: 1, arbitrary: hostileSessionText },
  ),
  model: pipelineModel,
  extraLeaf: fc.nat(),
});

export const FUZZ_TARGETS: readonly FuzzTarget<unknown>[] = [
  target({
    name: "load-text",
    asserts: "loading any text never throws; every non-blank line is the header, an entry or diagnosed; twice the same",
    input: sessionInput,
    check: checkLoadText,
    suiteRuns: 800,
  }),
  target({
    name: "load-bytes",
    asserts: "loading bytes in chunks of any size equals loading them whole; BOM, NUL and UTF-8 statistics are true",
    input: bytesInput,
    check: checkLoadBytes,
    suiteRuns: 500,
  }),
  target({
    name: "tree",
    asserts:
      "indexing never throws; parents, duplicates, cycles as the entries say; every entry reachable or diagnosed",
    input: treeInput,
    check: checkTree,
    suiteRuns: 600,
  }),
  target({
    name: "pipeline",
    asserts: "every leaf x preset x model projects to a JSON payload with consistent sources, or a stated error",
    input: pipelineInput,
    check: checkPipeline,
    suiteRuns: 400,
  }),
  target({
    name: "engine",
    asserts: "the session engine answers every question the app asks of a damaged session, or says why it cannot",
    input: engineInput,
    check: checkEngine,
    async: true,
    suiteRuns: 100,
  }),
  target({
    name: "cli",
    asserts: "every CLI command on a damaged session prints its result or why not, and exits 0 or 1",
    input: cliInput,
    check: checkCli,
    async: true,
    suiteRuns: 60,
  }),
  target({
    name: "imports",
    asserts: "a damaged models.json, preset or tool list is read or refused with why; what is read projects",
    input: importInput,
    check: checkImport,
    suiteRuns: 300,
  }),
  target({
    name: "snapshot-text",
    asserts: "any text, JSON or damaged snapshot reads as a snapshot that checks out again, or a stated error",
    input: snapshotText,
    check: checkSnapshotText,
    suiteRuns: 600,
  }),
  target({
    name: "snapshot-round-trip",
    asserts: "created and exported snapshots read back as written; cut short refused; a flipped bit never throws",
    input: fc.tuple(snapshotSpec, damage),
    check: checkSnapshotRoundTrip,
    suiteRuns: 300,
  }),
  target({
    name: "snapshot-link",
    asserts: "links round-trip; cut links are refused; flipped bits and junk fragments give a result, never throw",
    input: fc.record({ snapshot: snapshotSpec, damage, junk: linkJunk }) as fc.Arbitrary<LinkInput>,
    check: checkLink,
    async: true,
    suiteRuns: 200,
  }),
];

export interface RunOptions {
  readonly runs: number;
  readonly seed?: number;
  /** fast-check's replay path (printed with a failure). */
  readonly path?: string;
  /** Called before every run of the check, with the input (the fuzz script's watchdog counts them). */
  readonly beforeEach?: (input: unknown) => void;
}

/** Runs one target: fast-check's report, with the counterexample shrunk when the property failed. */
export async function runTarget(t: FuzzTarget<unknown>, options: RunOptions): Promise<fc.RunDetails<[unknown]>> {
  const parameters: fc.Parameters<[unknown]> = {
    numRuns: options.runs,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.path !== undefined ? { path: options.path } : {}),
  };
  const before = options.beforeEach ?? (() => undefined);
  if (t.async) {
    const property = fc.asyncProperty(t.input, async (input) => {
      before(input);
      await t.check(input);
    });
    return fc.check(property, parameters);
  }
  const property = fc.property(t.input, (input) => {
    before(input);
    void t.check(input);
  });
  return fc.check(property, parameters);
}
