/**
 * `snapshot FILE [--leaf ID|line:N] [--model PROVIDER/ID] [--rules …] [--keep-images] [--no-redact] [--no-tokens]`
 * writes a context snapshot to stdout — reviewed as the app reviews it: images stubbed and secrets redacted
 * unless asked otherwise, with what was hidden listed on stderr.
 * `snapshot --open SNAP.json [--payload | --jsonl]` prints a snapshot for people, or its payload.
 */
import { readFile } from "node:fs/promises";
import { findModel, parseModelRef } from "../core/models/registry.ts";
import { projectLeaf } from "../core/project/project.ts";
import { projectionOptions, type RuleSettings } from "../core/project/rules.ts";
import { resolveEntryRef, type EntryTree } from "../core/session/tree.ts";
import { snapshotFromProjection } from "../core/snapshot/create.ts";
import { exportWith, reviewSnapshot, snapshotJson, type Review } from "../core/snapshot/export.ts";
import { parseSnapshot } from "../core/snapshot/parse.ts";
import { snapshotReport } from "../core/snapshot/report.ts";
import type { Snapshot } from "../core/snapshot/schema.ts";
import type { CountedTokens } from "../core/snapshot/tokens.ts";
import { TokenCounter } from "../core/tokens/count.ts";
import { sessionAccuracy } from "../core/tokens/accuracy.ts";
import { projectionTokens } from "../core/tokens/projection.ts";
import type { Projection } from "../core/project/project.ts";
import { loadTokenizers } from "../tokens/load.ts";
import { parse } from "./args.ts";
import { reportLoad, type Output } from "./output.ts";
import { readSession } from "./read-session.ts";
import { readRuleSettings, RULE_OPTIONS, RULES_USAGE } from "./rules.ts";

export const SNAPSHOT_USAGE = `snapshot FILE [--leaf ID|line:N] [--model PROVIDER/ID] ${RULES_USAGE} [--keep-images] [--no-redact] [--no-tokens] > SNAP.json\n  snapshot --open SNAP.json [--payload | --jsonl]`;

async function countTokens(
  tree: EntryTree,
  projection: Projection,
  settings: RuleSettings,
  asPiSends: boolean,
): Promise<CountedTokens> {
  const counter = new TokenCounter(await loadTokenizers());
  const options = projectionOptions(settings);
  const accuracy = sessionAccuracy(tree, counter).anchored;
  return projectionTokens(tree, projection, counter, { options, asPiSends, accuracy });
}

/** Tells stderr what the export hides (or, with --no-redact / --keep-images, what it does not). */
function reportReview(review: Review, values: Record<string, unknown>, out: Output): void {
  const secrets = review.redactions;
  if (secrets.length > 0) {
    const list = secrets.map((r) => `  ${r.label} → ${r.replacement} at ${r.where}`).join("\n");
    if (values["no-redact"])
      out.warn(`${secrets.length} secret(s) found and NOT redacted (--no-redact); they are in the snapshot:\n${list}`);
    else out.diagnostic(`snapshot: redacted ${secrets.length} secret(s) (--no-redact keeps them):\n${list}`);
  }
  const images = review.images;
  if (images.length > 0 && !values["keep-images"]) {
    const list = images.map((i) => `  ${i.mimeType}, ${i.bytes} bytes at ${i.where}`).join("\n");
    out.diagnostic(`snapshot: left out ${images.length} image(s) (--keep-images keeps them):\n${list}`);
  }
}

async function makeSnapshot(path: string, values: Record<string, unknown>, out: Output): Promise<number> {
  const settings = await readRuleSettings(values);
  if (!settings.ok) return out.fail(settings.error);
  const modelRef = typeof values["model"] === "string" && values["model"] !== "session" ? values["model"] : undefined;
  const parsedRef = modelRef === undefined ? undefined : parseModelRef(modelRef);
  const model = parsedRef ? findModel(parsedRef.provider, parsedRef.id) : undefined;
  if (modelRef !== undefined && !model)
    return out.fail(
      `--model ${modelRef}: not a model in pi-ai's registry (write PROVIDER/ID; \`npm run cli -- models\` lists them)`,
    );
  const tree = await readSession(path);
  if (!reportLoad(tree.ok ? tree.value : undefined, path, out, tree.ok ? undefined : tree.error) || !tree.ok) return 1;
  const leafRef = typeof values["leaf"] === "string" ? values["leaf"] : undefined;
  const leaf = leafRef === undefined ? tree.value.defaultLeaf : resolveEntryRef(tree.value, leafRef);
  if (typeof leaf === "object" && !leaf.ok) return out.fail(`${path}: --leaf ${leafRef}: ${leaf.error}`);
  const index = typeof leaf === "object" ? leaf.value : leaf;
  if (index === undefined)
    return out.fail(`${path}: the session has no entries (only its header), so there is nothing to snapshot`);
  const options = projectionOptions(settings.value);
  const projection = projectLeaf(tree.value, index, model ? { ...options, model } : options);
  if (!projection.ok) return out.fail(`${path}: line ${tree.value.entries[index]?.line}: ${projection.error}`);
  let tokens: CountedTokens | undefined;
  if (!values["no-tokens"]) {
    const ruleFlags = ["rules", "block-images", "system", "tools"].some((k) => values[k] !== undefined);
    try {
      tokens = await countTokens(tree.value, projection.value, settings.value, !ruleFlags);
    } catch (error) {
      out.warn(`tokens were not counted (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  const preset = typeof values["rules"] === "string" ? values["rules"] : undefined;
  const snapshot = snapshotFromProjection(tree.value, projection.value, settings.value, {
    ...(tokens ? { tokens } : {}),
    ...(preset !== undefined ? { preset } : {}),
  });
  const review = reviewSnapshot(snapshot);
  reportReview(review, values, out);
  const exported = exportWith(review, {
    reveal: values["no-redact"] ? review.redactions.map((r) => r.id) : [],
    keepImages: Boolean(values["keep-images"]),
  });
  out.line(snapshotJson(exported).trimEnd());
  return 0;
}

async function openSnapshot(path: string, values: Record<string, unknown>, out: Output): Promise<number> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return out.fail(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const parsed = parseSnapshot(text, path);
  if (!parsed.ok) return out.fail(parsed.error);
  const snapshot: Snapshot = parsed.value;
  if (values["payload"]) out.line(JSON.stringify(snapshot.payload.body, null, 2));
  else if (values["jsonl"])
    out.line(
      JSON.stringify({
        file: snapshot.session.fileName,
        leaf: snapshot.leaf.id ?? null,
        line: snapshot.leaf.line,
        model: `${snapshot.model.provider}/${snapshot.model.id}`,
        payload: snapshot.payload.body,
      }),
    );
  else for (const line of snapshotReport(snapshot)) out.line(line);
  return 0;
}

export async function snapshotCommand(args: readonly string[], out: Output): Promise<number> {
  const parsed = parse(args, {
    leaf: { type: "string" },
    model: { type: "string" },
    ...RULE_OPTIONS,
    "keep-images": { type: "boolean" },
    "no-redact": { type: "boolean" },
    "no-tokens": { type: "boolean" },
    open: { type: "string" },
    payload: { type: "boolean" },
    jsonl: { type: "boolean" },
  });
  if (!parsed.ok) return out.usage(parsed.error, SNAPSHOT_USAGE);
  const { values, positionals } = parsed.value;
  const making = ["leaf", "model", "rules", "block-images", "system", "tools", "keep-images", "no-redact", "no-tokens"];
  if (typeof values["open"] === "string") {
    const extra = [...making.filter((k) => values[k] !== undefined).map((k) => `--${k}`), ...positionals];
    if (extra.length > 0) return out.usage(`--open reads a snapshot; it takes no ${extra[0]}`, SNAPSHOT_USAGE);
    if (values["payload"] && values["jsonl"]) return out.usage("choose one of --payload and --jsonl", SNAPSHOT_USAGE);
    return openSnapshot(values["open"], values, out);
  }
  if (values["payload"] || values["jsonl"])
    return out.usage(`--${values["payload"] ? "payload" : "jsonl"} goes with --open SNAP.json`, SNAPSHOT_USAGE);
  if (positionals.length !== 1) return out.usage("name one session file (or --open SNAP.json)", SNAPSHOT_USAGE);
  return makeSnapshot(positionals[0]!, values, out);
}
