/** The cache series: prompt size and cache-reusable prefix of every request on a path, under a preset. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cacheSeries, requestsOnPath, type CacheTurn } from "../../src/core/diff/cache-series.ts";
import { PI_DEFAULTS, projectionOptions, type RuleSettings } from "../../src/core/project/rules.ts";
import { BUILT_IN_PRESETS } from "../../src/core/project/presets.ts";
import { assistant, compaction, header, modelChange, session, user } from "../support/build.ts";
import { fixture, type Fixture } from "./diff-fixtures.ts";
import { usage } from "./tokens-fixtures.ts";

const claude = { provider: "anthropic", model: "claude-sonnet-4-5", api: "anthropic-messages" };

/** (model change →) u1 → a1 → u2 → a2 → compaction (keeps u2 on) → u3 → a3 → u4 → a4, every turn with recorded usage. */
function compacted(): Fixture {
  return fixture(
    session(
      header({ id: "series-1" }),
      modelChange("m1", null, "anthropic", "claude-sonnet-4-5"),
      user("u1", "m1", "Explain the build. ".repeat(40)),
      assistant("a1", "u1", "It uses vite. ".repeat(30), { ...claude, usage: usage(1000, 100) }),
      user("u2", "a1", "And the tests?"),
      assistant("a2", "u2", "Vitest and Playwright.", { ...claude, usage: usage(1200, 20) }),
      compaction("c1", "a2", "u2", "The user asked about the build (vite)."),
      user("u3", "c1", "How do I run one spec?"),
      assistant("a3", "u3", "npx playwright test tests/e2e/x.spec.ts", { ...claude, usage: usage(700, 30) }),
      user("u4", "a3", "Thanks."),
      assistant("a4", "u4", "You're welcome.", { ...claude, usage: usage(760, 10) }),
    ),
  );
}

async function seriesOf(f: Fixture, settings: RuleSettings = PI_DEFAULTS) {
  return cacheSeries(f.tree, f.tree.defaultLeaf!, projectionOptions(settings), (p) => f.count(p, settings));
}

describe("cacheSeries", () => {
  const f = compacted();
  const id = (entry: number) => f.tree.entries[entry]!.id;

  it("has one request per assistant turn on the path, each at the entry before it", () => {
    expect(requestsOnPath(f.tree, f.tree.defaultLeaf!).map((r) => [id(r.entry), id(r.leaf)])).toEqual([
      ["a1", "u1"],
      ["a2", "u2"],
      ["a3", "u3"],
      ["a4", "u4"],
    ]);
  });

  it("shows the compaction breaking the cache once, and nothing breaking it without compaction", async () => {
    const pi = await seriesOf(f);
    expect(pi.turns.map((t) => [id(t.entry), t.breaks?.at ?? "-"])).toEqual([
      ["a1", "-"],
      ["a2", "-"],
      ["a3", "item"],
      ["a4", "-"],
    ]);
    expect(pi.breaks).toBe(1);
    // The summary replaced the start of the conversation: only the system prompt and tools before it are reusable.
    const broken = pi.turns[2]!;
    expect(broken.breaks).toMatchObject({ itemA: 0, itemB: 0 });
    const tokens = f.count(f.project({ leaf: broken.leaf }));
    const items = tokens.items.reduce((sum, i) => sum + i.tokens, 0);
    expect(broken.reusable).toBe(Math.round(tokens.total.value) - Math.round(items));
    expect(broken.reusable).toBeLessThan(pi.turns[1]!.prompt!.value);
    const whole = await seriesOf(f, BUILT_IN_PRESETS[1]!.settings);
    expect(whole.breaks).toBe(0);
    expect(whole.turns.every((t, k) => k === 0 || t.reusable! > 0)).toBe(true);
  });

  it("counts as reusable exactly the prompt less the items added since the previous request", async () => {
    const pi = await seriesOf(f);
    const turn = pi.turns[1]!; // a2: [u1] → [u1, a1, u2]
    const tokens = f.count(f.project({ leaf: turn.leaf }));
    const added = tokens.items.filter((i) => i.index >= 1).reduce((sum, i) => sum + i.tokens, 0);
    expect(turn.reusable).toBe(Math.round(tokens.total.value) - Math.round(added));
    expect(pi.turns[0]!.reusable).toBe(0);
    expect(pi.promptTokens).toBe(pi.turns.reduce((sum, t) => sum + Math.round(t.prompt!.value), 0));
    expect(pi.uncachedTokens).toBe(pi.turns.reduce((sum, t) => sum + Math.round(t.prompt!.value) - t.reusable!, 0));
  });

  it("carries what the session recorded for each turn", async () => {
    const pi = await seriesOf(f);
    expect(pi.turns[1]!.recorded).toEqual({ prompt: 1200, cacheRead: 1200 - 3 - 100, cacheWrite: 100 });
  });

  it("reports a model switch as a break at the model, with nothing reusable", async () => {
    const sample = fixture(readFileSync("src/ui/sample/sample-session.jsonl", "utf8"));
    const series = await seriesOf(sample);
    const line = (t: { entry: number }) => sample.tree.entries[t.entry]!.line;
    expect(series.turns.filter((t) => t.breaks).map((t) => [line(t), t.breaks!.at, t.reusable])).toEqual([
      [39, "model", 0],
    ]);
    expect(series.turns.find((t) => line(t) === 39)!.breaks!.description).toMatch(/another model/);
  });

  it("says why a request could not be projected, and goes on", async () => {
    const noModel = fixture(
      session(
        header(),
        user("u1", null, "hi"),
        assistant("a1", "u1", "hello"),
        user("u2", "a1"),
        assistant("a2", "u2"),
      ),
    );
    const series = await seriesOf(noModel);
    expect(series.turns).toHaveLength(2);
    expect(series.turns[0]!.error).toMatch(/no model on this path/);
    expect(series.turns[1]).toMatchObject({ reusable: 0 }); // nothing to compare with
  });

  it("goes on after turns measured before as if it had measured them itself", async () => {
    const settings = BUILT_IN_PRESETS[1]!.settings;
    const run = (measured?: readonly CacheTurn[]) =>
      cacheSeries(
        f.tree,
        f.tree.defaultLeaf!,
        projectionOptions(settings),
        (p) => f.count(p, settings),
        undefined,
        measured,
      );
    const whole = await run();
    for (let k = 0; k <= whole.turns.length; k += 1) expect(await run(whole.turns.slice(0, k))).toEqual(whole);
    // Turns of another path are not this series': it starts over.
    const other = await cacheSeries(f.tree, f.tree.byId.get("a2")!, projectionOptions(settings), (p) =>
      f.count(p, settings),
    );
    expect(await run([...other.turns].reverse())).toEqual(whole);
  });
});
