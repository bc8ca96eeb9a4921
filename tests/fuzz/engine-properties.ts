/**
 * The session engine on damaged sessions, asked what the app asks through its client: the summary that lists the
 * file, the inspector's details of entries, searches, and at a few leaves the projection with its token count, rule
 * effects, payload pages and copies, a comparison, the cache series and a share review, opened again. Every question
 * is answered (an error the engine sends back is the app's error message, so it fails the property like a throw
 * would); an answer that is a refusal says why. The page's own pure views of the answers are made too: the tree's
 * layout, the inspector's view, text, markdown and raw JSON of each entry, and the payload view's rows.
 */
import fc from "fast-check";
import { PI_DEFAULTS, type RuleSettings } from "../../src/core/project/rules.ts";
import { DEFAULT_CHOICES } from "../../src/core/snapshot/export.ts";
import { TREE_FILTERS } from "../../src/core/session/filter.ts";
import type { Tokenizer, TokenizerName } from "../../src/core/tokens/tokenizer.ts";
import type { SessionClient } from "../../src/worker/client.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import type { ProjectionView } from "../../src/worker/projection.ts";
import type { EntryDetail, SessionSummary } from "../../src/worker/protocol.ts";
import { entryText, toEntryView } from "../../src/ui/inspector/entry-view.ts";
import { markdownToUnsafeHtml } from "../../src/ui/inspector/markdown.ts";
import { formatRawJson } from "../../src/ui/inspector/raw-json.ts";
import { buildRows } from "../../src/ui/payload/json-rows.ts";
import { nodeText } from "../../src/ui/payload/row-text.ts";
import { layoutTree } from "../../src/ui/tree/layout.ts";
import { expectNoPollution, expectStatedError, expectThat, noReject, noThrow, tally } from "./check.ts";
import { damagedText } from "./import-properties.ts";
import { damagedSession, valueMutation } from "./mutate.ts";
import { hostileSessionText, hostileString } from "./inputs.ts";
import { FUZZ_MODELS, pipelineModel } from "./pipeline-properties.ts";

export interface EngineInput {
  readonly text: string;
  readonly model: (typeof FUZZ_MODELS)[number];
  readonly query: string;
  /** One more leaf besides the branch tips and the default leaf (any entry can be a leaf). */
  readonly extraLeaf: number;
  /** A models.json put in use before the projections (damaged, or not), or none. */
  readonly modelsJson: string | null;
}

export const engineInput: fc.Arbitrary<EngineInput> = fc.record({
  text: fc.oneof(
    { weight: 4, arbitrary: damagedSession({ values: 2, tree: 1, lines: 1 }) },
    { weight: 1, arbitrary: hostileSessionText },
  ),
  model: pipelineModel,
  query: hostileString,
  extraLeaf: fc.nat(),
  modelsJson: fc.option(
    fc
      .array(fc.tuple(fc.nat(), valueMutation), { maxLength: 2 })
      .map((mutations) => damagedText({ kind: "models.json", mutations, cutAt: 0 })),
    { freq: 4 },
  ),
});

/** A stand-in tokenizer: a token per 4 characters (the real BPE ones are slow and tested elsewhere). */
const quarter = async (name: TokenizerName): Promise<Tokenizer> => ({
  name,
  count: (text) => Math.ceil(text.length / 4),
});

/** Entries whose details are read (the inspector shows one at a time; a damaged session has a few dozen). */
const DETAILS_READ = 40;

/** Leaves asked about: the tips of the branches (a few), the default leaf and one more entry. */
function leavesToAsk(summary: SessionSummary, extra: number): number[] {
  const { parents, count } = summary.entries;
  const hasChild = new Uint8Array(count);
  for (let i = 0; i < count; i += 1) if (parents[i]! >= 0) hasChild[parents[i]!] = 1;
  const leaves = new Set<number>();
  for (let i = 0; i < count && leaves.size < 3; i += 1) if (!hasChild[i]) leaves.add(i);
  if (summary.defaultLeaf !== undefined) leaves.add(summary.defaultLeaf);
  if (count > 0) leaves.add(extra % count);
  return [...leaves];
}

export async function checkEngine(input: EngineInput): Promise<void> {
  const client = createInProcessClient({}, quarter);
  try {
    await askEverything(client, input);
  } finally {
    await client.models(undefined); // the registry is the thread's: the next case starts with pi-ai's own
  }
}

async function askEverything(client: SessionClient, { text, model, query, extraLeaf, modelsJson }: EngineInput) {
  let custom: string | undefined;
  if (modelsJson !== null) {
    const used = await noReject("models", () => client.models(modelsJson));
    if (!used.ok) expectStatedError("models", used.error);
    const first = used.ok ? used.value.custom[0] : undefined;
    custom = first && `${first.provider}/${first.id}`;
    tally(used.ok ? "models.json in use" : "models.json refused");
  }
  const summary = await noReject("load", () => client.load("s", new Blob([text]), "fuzz.jsonl", () => undefined).done);
  tally(`loaded: ${summary.kind}`);
  for (const d of summary.diagnostics) expectStatedError(`diagnostic ${d.code}`, d.message);
  noThrow("layoutTree", () => layoutTree(summary.entries, { leaf: summary.defaultLeaf, expanded: new Set() }));
  for (let i = 0; i < Math.min(summary.entries.count, DETAILS_READ); i += 1) {
    const detail = await noReject(`entry ${i}`, () => client.entry("s", i));
    expectThat(detail?.index === i, `entry ${i} answered with ${detail?.index}`);
    inspectorViews(detail);
  }
  for (const filter of TREE_FILTERS) await noReject(`search (${filter})`, () => client.search("s", query, filter, 0));
  const ref = model === "session" ? undefined : model;
  const leaves = leavesToAsk(summary, extraLeaf);
  for (const leaf of leaves) await checkLeaf(client, leaf, PI_DEFAULTS, ref);
  if (custom !== undefined && leaves.length > 0) await checkLeaf(client, leaves[0]!, PI_DEFAULTS, custom);
  if (leaves.length >= 2) {
    const [a, b] = [leaves[0]!, leaves.at(-1)!];
    const side = (leaf: number) => ({ leaf, settings: PI_DEFAULTS, model: ref });
    const compared = await noReject("compare", () => client.compare("s", side(a), side(b), true));
    if (compared && !compared.ok) expectStatedError("compare", compared.error);
    if (compared?.ok) {
      await noReject("compareChanges", () =>
        client.compareChanges("s", side(a), side(b), true, { unchanged: true, start: 0, end: 50 }),
      );
    }
    const series = await noReject("cacheSeries", () => client.cacheSeries("s", side(b), "A"));
    if (series && !series.ok) expectStatedError("cacheSeries", series.error);
  }
  await noReject("accuracy", () => client.accuracy("s"));
  await noReject("remove", () => client.remove("s"));
  expectNoPollution();
}

async function checkLeaf(client: SessionClient, leaf: number, settings: RuleSettings, model: string | undefined) {
  const answer = await noReject(`project ${leaf}`, () => client.project("s", leaf, settings, model));
  expectThat(answer !== undefined, `project ${leaf} was not answered`);
  if (!answer.ok) {
    expectStatedError(`project ${leaf}`, answer.error);
    tally("refused");
    return;
  }
  tally("projected");
  payloadRows(answer.view);
  const listLength = answer.view.payload.listLength;
  await noReject("tokens", () => client.tokens("s", leaf, settings, model));
  await noReject("ruleEffects", () => client.ruleEffects("s", leaf, settings, model));
  await noReject("payloadJson", () => client.payloadJson("s", leaf, settings, model, undefined));
  if (listLength > 0) await noReject("payloadJson item", () => client.payloadJson("s", leaf, settings, model, 0));
  const items = await noReject("payloadItems", () =>
    client.payloadItems("s", leaf, settings, model, 0, Math.min(listLength, 50)),
  );
  expectThat(items.length === Math.min(listLength, 50), `payloadItems gave ${items.length} items`);
  await noReject("payloadFile", () => client.payloadFile("s", leaf, settings, model));
  const share = await noReject("snapshot", () => client.snapshot("s", leaf, settings, model, undefined));
  if (!share.ok) {
    expectStatedError("snapshot", share.error);
    return;
  }
  const output = await noReject("shareOutput", () =>
    client.shareOutput(share.value.shareId, { ...DEFAULT_CHOICES, keepImages: true }),
  );
  await noReject("shareEnd", () => client.shareEnd(share.value.shareId));
  if (!output.ok) {
    expectStatedError("shareOutput", output.error);
    return;
  }
  // Opened again, as whoever it is shared with opens it: the file, and the link.
  const { file, fileName, linkFragment } = output.value;
  for (const source of [{ file, name: fileName }, { link: `https://lens.example/${linkFragment}` }]) {
    const how = "file" in source ? "file" : "link";
    const opened = await noReject(`openSnapshot (${how})`, () => client.openSnapshot(source));
    expectThat(opened.ok, `the shared ${how} does not open: ${opened.ok ? "" : opened.error}`);
    tally(`shared ${how} opened`);
    const { id, listLength } = opened.value;
    await noReject("snapshotItems", () => client.snapshotItems(id, 0, Math.min(listLength, 50)));
    await noReject("snapshotJson", () => client.snapshotJson(id, undefined));
    await noReject("snapshotFile", () => client.snapshotFile(id));
    await noReject("closeSnapshot", () => client.closeSnapshot(id));
  }
}

/** What the inspector makes of an entry's details. */
function inspectorViews(detail: EntryDetail): void {
  const view = noThrow("toEntryView", () => toEntryView(detail.type, detail.raw));
  const text = noThrow("entryText", () => entryText(view));
  noThrow("markdownToUnsafeHtml", () => markdownToUnsafeHtml(text));
  noThrow("formatRawJson", () => formatRawJson(detail.raw));
}

/** The payload view's rows, every one of them, with the text each node row shows. */
function payloadRows(view: ProjectionView): void {
  const { body, listKey } = view.payload;
  const rows = noThrow("buildRows", () => buildRows(body, { listKey, folds: new Map(), fullStrings: new Set() }));
  for (const row of noThrow("rows", () => rows.slice()))
    if (row.kind === "node") noThrow("nodeText", () => nodeText(row));
}
