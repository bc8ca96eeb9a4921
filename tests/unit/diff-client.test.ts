/** Comparisons and cache series through the session client (its in-process twin runs the worker's engine). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PI_DEFAULTS } from "../../src/core/project/rules.ts";
import { builtInPreset } from "../../src/core/project/presets.ts";
import { loadTokenizer } from "../../src/tokens/load.ts";
import { createInProcessClient } from "../../src/worker/in-process.ts";
import type { SeriesProgress } from "../../src/worker/protocol.ts";
import { seriesOf } from "../../src/core/diff/series-totals.ts";
import { compareSides } from "../../src/core/diff/session.ts";
import { diffText } from "../../src/core/diff/text-diff.ts";
import { changeCount, FIRST_CHANGES, pageTextDiff } from "../../src/worker/page-compare.ts";
import { ourSession } from "../support/ours.ts";
import { assistant, header, session, toolCall, toolResult, user } from "../support/build.ts";

const SAMPLE = readFileSync("src/ui/sample/sample-session.jsonl", "utf8");

async function client() {
  const sessions = createInProcessClient({}, loadTokenizer);
  const summary = await sessions.load("s1", new Blob([SAMPLE]), "sample.jsonl", () => undefined).done;
  return { sessions, leaf: summary.defaultLeaf! };
}

describe("pageTextDiff", () => {
  it("keeps the ends of long runs and says how much it left out; the figures count every character", () => {
    const kept = "kept line\n".repeat(100);
    const gone = "0123456789".repeat(100_000);
    const diff = diffText(`${kept}${gone}`, `${kept}[cut]`);
    const page = pageTextDiff(diff);
    expect(page).toMatchObject({ removedChars: diff.removedChars, addedChars: diff.addedChars, exact: diff.exact });
    const [same, removed, added] = page.runs;
    expect(same).toEqual({ op: "same", head: kept.slice(0, 160), skipped: kept.length - 320, tail: kept.slice(-160) });
    expect(removed).toMatchObject({ op: "removed", skipped: diff.removedChars - 2000 });
    expect(removed!.head.length + removed!.skipped + removed!.tail.length).toBe(diff.removedChars);
    expect(added).toEqual({ op: "added", head: "[cut]", skipped: 0, tail: "" });
  });

  it("never cuts a surrogate pair in two", () => {
    const emoji = `a${"😀".repeat(2000)}`; // a pair across character 1,000
    const { runs } = pageTextDiff({
      unit: "line",
      parts: [{ op: "removed", text: emoji }],
      exact: true,
      addedChars: 0,
      removedChars: 4000,
    });
    const run = runs[0]!;
    expect(run.head.length).toBe(999);
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    expect(lone.test(run.head) || lone.test(run.tail)).toBe(false);
    expect(run.head.length + run.skipped + run.tail.length).toBe(4001);
  });
});

describe("compare and cacheSeries requests", () => {
  it("compares two presets with token counts, and the JSON diff only when asked", async () => {
    const { sessions, leaf } = await client();
    const lean = builtInPreset("lean")!.settings;
    const a = { leaf, settings: PI_DEFAULTS, model: undefined };
    const b = { leaf, settings: lean, model: undefined };
    const answer = (await sessions.compare("s1", a, b, false))!;
    if (!answer.ok) throw new Error(answer.error);
    expect(answer.value.tokenDelta).toBeLessThan(0);
    // The answer brings the changes that differ; the whole list, unchanged items too, is read on asking.
    const differing = answer.value.firstChanges.map(({ change }) => change);
    expect(differing.every((c) => c.kind !== "unchanged")).toBe(true);
    expect(differing.filter((c) => c.kind === "changed").every((c) => c.tokenDelta! < 0)).toBe(true);
    const all = await sessions.compareChanges("s1", a, b, false, { unchanged: true, start: 0, end: 1_000 });
    expect(all[0]!.change.description).toBe("compaction summary on line 35 unchanged");
    expect(all.filter(({ change }) => change.kind !== "unchanged")).toEqual(answer.value.firstChanges);
    expect(answer.value.json).toBeUndefined();
    const withJson = (await sessions.compare("s1", a, b, true))!;
    expect(withJson.ok && withJson.value.json!.changes.length).toBeGreaterThan(0);
  });

  it("sends a long comparison's first changes, and the rest in any range asked for", async () => {
    // 600 tool calls and results; cut to 5 characters, most results change (more than the answer brings).
    const text = session(
      header(),
      user("u1", null, "Read every log"),
      ...Array.from({ length: 600 }, (_, i) => i + 1).flatMap((n) => [
        assistant(`a${n}`, n === 1 ? "u1" : `r${n - 1}`, [toolCall(`call_${n}`, "read", { path: `log${n}.txt` })]),
        toolResult(`r${n}`, `a${n}`, `call_${n}`, [{ type: "text", text: n % 10 === 0 ? "same" : `log ${n}` }]),
      ]),
      assistant("a_last", "r600", "All logs read."),
    );
    const sessions = createInProcessClient({}, loadTokenizer);
    const leaf = (await sessions.load("s2", new Blob([text]), "logs.jsonl", () => undefined).done).defaultLeaf!;
    const a = { leaf, settings: PI_DEFAULTS, model: undefined };
    const b = { leaf, settings: { ...PI_DEFAULTS, truncateToolResults: 5 }, model: undefined };
    const whole = await compareSides(ourSession(text), a, b);
    if (!whole.ok) throw new Error(whole.error);
    const changes = whole.value.changes;
    expect(changes.filter((c) => c.kind === "changed").length).toBeGreaterThan(FIRST_CHANGES);
    expect(changes.filter((c) => c.kind === "unchanged").length).toBeGreaterThan(600);
    const answer = (await sessions.compare("s2", a, b, false))!;
    if (!answer.ok) throw new Error(answer.error);
    expect(answer.value).not.toHaveProperty("changes");
    const indexed = (unchanged: boolean) =>
      changes
        .map((change, index) => ({ index, change }))
        .filter(({ change }) => unchanged || change.kind !== "unchanged");
    expect(answer.value.firstChanges.map(({ index, change }) => [index, change.description])).toEqual(
      indexed(false)
        .slice(0, FIRST_CHANGES)
        .map(({ index, change }) => [index, change.description]),
    );
    for (const unchanged of [false, true]) {
      const list = indexed(unchanged);
      expect(changeCount(answer.value, unchanged)).toBe(list.length);
      for (const [start, end] of [
        [0, 3],
        [2, 7],
        [list.length - 2, list.length + 5],
        [list.length, list.length + 1],
      ]) {
        const read = await sessions.compareChanges("s2", a, b, false, { unchanged, start: start!, end: end! });
        expect(read.map(({ index, change }) => [index, change.description])).toEqual(
          list.slice(start, end).map(({ index, change }) => [index, change.description]),
        );
      }
    }
  });

  it("forgets the comparison it keeps once a models.json changes the models", async () => {
    const { sessions, leaf } = await client();
    const a = { leaf, settings: PI_DEFAULTS, model: undefined };
    const b = { leaf, settings: PI_DEFAULTS, model: "anthropic/claude-sonnet-4-5" };
    try {
      const before = (await sessions.compare("s1", a, b, false))!;
      if (!before.ok) throw new Error(before.error);
      const models = `{"providers": {"anthropic": {"modelOverrides": {"claude-sonnet-4-5": {"cost": {"input": 300}}}}}}`;
      expect(await sessions.models(models)).toMatchObject({ ok: true, value: { overridden: 1 } });
      const after = (await sessions.compare("s1", a, b, false))!;
      if (!after.ok) throw new Error(after.error);
      expect([before.value.b.inputPrice, after.value.b.inputPrice]).toEqual([3, 300]);
    } finally {
      await sessions.models(undefined); // the registry is shared by this file's clients
    }
  });

  it("answers a side that cannot be projected with the reason, naming the side", async () => {
    const { sessions, leaf } = await client();
    const answer = await sessions.compare(
      "s1",
      { leaf, settings: PI_DEFAULTS, model: undefined },
      { leaf, settings: PI_DEFAULTS, model: "nowhere/none" },
      false,
    );
    expect(answer).toEqual({
      ok: false,
      error: "B: nowhere/none is not a model in pi-ai's registry (nor in a models.json in use)",
    });
  });

  it("measures a cache series, and a newer one in the same slot replaces the older", async () => {
    const { sessions, leaf } = await client();
    const side = { leaf, settings: PI_DEFAULTS, model: undefined };
    const older = sessions.cacheSeries("s1", side, "A");
    const newer = sessions.cacheSeries("s1", { ...side, model: "anthropic/claude-sonnet-4-5" }, "A");
    const other = sessions.cacheSeries("s1", side, "B");
    expect(await older).toBeUndefined();
    const series = (await newer)!;
    if (!series.ok) throw new Error(series.error);
    expect(series.value.turns.every((t) => t.model === "anthropic/claude-sonnet-4-5")).toBe(true);
    const pi = (await other)!;
    if (!pi.ok) throw new Error(pi.error);
    expect(pi.value.turns).toHaveLength(16);
    // pi's own requests: every prompt is the recorded one.
    expect(pi.value.turns.filter((t) => t.recorded).every((t) => t.prompt?.kind === "exact")).toBe(true);
    expect(pi.value.breaks).toBe(1);
  });

  it("says how far a series is, and stops one nobody looks at any more", async () => {
    const { sessions, leaf } = await client();
    const side = { leaf, settings: PI_DEFAULTS, model: undefined };
    const steps: SeriesProgress[] = [];
    const series = (await sessions.cacheSeries("s1", side, "A", (progress) => steps.push(progress)))!;
    if (!series.ok) throw new Error(series.error);
    expect(steps[0]).toEqual({ done: 0, total: 16, turns: [] }); // at the start, with the number of requests
    expect(steps.every(({ done, total }) => done < total && total === 16)).toBe(true);
    // Stopped: it resolves undefined (not an error), and the slot measures the next series as usual.
    const stopped = sessions.cacheSeries("s1", side, "B");
    sessions.stopSeries("B");
    expect(await stopped).toBeUndefined();
    const again = (await sessions.cacheSeries("s1", side, "B"))!;
    expect(again.ok && again.value.turns).toHaveLength(16);
  });

  it("sends the turns measured since it last said, so the part measured so far can be drawn", async () => {
    // Told before every request here (the worker says it a few times a second).
    const sessions = createInProcessClient({ seriesProgressMs: 0 }, loadTokenizer);
    const summary = await sessions.load("s1", new Blob([SAMPLE]), "sample.jsonl", () => undefined).done;
    const side = { leaf: summary.defaultLeaf!, settings: PI_DEFAULTS, model: undefined };
    const steps: SeriesProgress[] = [];
    const series = (await sessions.cacheSeries("s1", side, "A", (progress) => steps.push(progress)))!;
    if (!series.ok) throw new Error(series.error);
    expect(steps.map(({ done, turns }) => [done, turns.length])).toEqual(
      Array.from({ length: 16 }, (_, done) => [done, done === 0 ? 0 : 1]),
    );
    // What was told adds up to the series as far as it went: its turns, and its totals over them.
    const told = steps.flatMap(({ turns }) => turns);
    expect(told).toEqual(series.value.turns.slice(0, 15));
    expect(seriesOf(series.value.turns)).toEqual(series.value);
    const soFar = seriesOf(told);
    const last = series.value.turns[15]!;
    expect(soFar.breaks).toBe(series.value.breaks - (last.breaks ? 1 : 0));
    expect(soFar.promptTokens).toBe(series.value.promptTokens - Math.round(last.prompt!.value));
    expect(soFar.uncachedTokens).toBe(series.value.uncachedTokens - (Math.round(last.prompt!.value) - last.reusable!));
  });

  it("goes on with a series stopped part way when asked again, and answers one measured whole at once", async () => {
    // Long enough, with a tokenizer taking 1 ms a text, that the series pauses for other requests (and its stop).
    const slow = async (name: Parameters<typeof loadTokenizer>[0]) => {
      const real = await loadTokenizer(name);
      return {
        ...real,
        count: (text: string) => {
          const until = performance.now() + 1;
          while (performance.now() < until);
          return real.count(text);
        },
      };
    };
    const lines = [header({ id: "long-series" })];
    let parent: string | null = null;
    for (let i = 0; i < 120; i++) {
      lines.push(user(`u${i}`, parent, `question ${i}`), assistant(`a${i}`, `u${i}`, `answer ${i}`));
      parent = `a${i}`;
    }
    const text = session(...lines);
    const whole = async () => {
      const fresh = createInProcessClient({}, loadTokenizer);
      const summary = await fresh.load("s", new Blob([text]), "long.jsonl", () => undefined).done;
      const side = { leaf: summary.defaultLeaf!, settings: PI_DEFAULTS, model: undefined };
      const answer = (await fresh.cacheSeries("s", side, "A"))!;
      if (!answer.ok) throw new Error(answer.error);
      return answer.value;
    };
    const sessions = createInProcessClient({ seriesProgressMs: 0 }, slow);
    const summary = await sessions.load("s", new Blob([text]), "long.jsonl", () => undefined).done;
    const side = { leaf: summary.defaultLeaf!, settings: PI_DEFAULTS, model: undefined };
    const stopped = sessions.cacheSeries("s", side, "A", ({ done }) => {
      if (done >= 20) sessions.stopSeries("A");
    });
    expect(await stopped).toBeUndefined();
    const steps: SeriesProgress[] = [];
    const again = (await sessions.cacheSeries("s", side, "B", (progress) => steps.push(progress)))!;
    const expected = await whole();
    expect(again).toEqual({ ok: true, value: expected });
    // It started where the first stopped, with every turn measured then (the page draws from them).
    const first = steps[0]!;
    expect(first.done).toBeGreaterThanOrEqual(20);
    expect(first.done).toBeLessThan(120);
    expect(first.turns).toEqual(expected.turns.slice(0, first.done));
    const third: SeriesProgress[] = [];
    expect(await sessions.cacheSeries("s", side, "A", (progress) => third.push(progress))).toEqual(again);
    expect(third).toEqual([]);
  });

  it("counts again the turns a tokenizer that failed to load could not count", async () => {
    let broken = true;
    const flaky = async (name: Parameters<typeof loadTokenizer>[0]) => {
      if (broken) throw new Error("the tokenizer's chunk did not load");
      return loadTokenizer(name);
    };
    const sessions = createInProcessClient({}, flaky);
    const summary = await sessions.load("s1", new Blob([SAMPLE]), "sample.jsonl", () => undefined).done;
    const side = { leaf: summary.defaultLeaf!, settings: PI_DEFAULTS, model: undefined };
    const failed = (await sessions.cacheSeries("s1", side, "A"))!;
    expect(failed.ok && failed.value.turns.every((t) => t.error?.includes("did not load"))).toBe(true);
    broken = false;
    const again = (await sessions.cacheSeries("s1", side, "A"))!;
    expect(again).toEqual((await client().then(({ sessions: fresh }) => fresh.cacheSeries("s1", side, "A")))!);
    expect(again.ok && again.value.turns.some((t) => t.error)).toBe(false);
  });
});
