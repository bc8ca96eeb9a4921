/** Stages 5–9: every path entry's fate, and the entries behind every LLM message and payload item. */
import { describe, expect, it } from "vitest";
import { findModel } from "../../src/core/models/registry.ts";
import { projectLeaf, type Projection } from "../../src/core/project/project.ts";
import { VARIANTS } from "../fixtures/variants.ts";
import { ourSession } from "../support/ours.ts";

function project(
  name: string,
  leafId?: string,
  model?: string,
): { projection: Projection; id: (i: number) => string | undefined } {
  const tree = ourSession(VARIANTS[name]!);
  const leaf = leafId === undefined ? tree.defaultLeaf! : tree.byId.get(leafId)!;
  const [provider, ...rest] = (model ?? "").split("/");
  const result = projectLeaf(tree, leaf, model ? { model: findModel(provider!, rest.join("/"))! } : {});
  if (!result.ok) throw new Error(result.error);
  return { projection: result.value, id: (i) => tree.entries[i]!.id };
}

const fates = (p: Projection, id: (i: number) => string | undefined) =>
  Object.fromEntries(
    [...p.fates].map(([i, f]) => [id(i), f.kind === "summarised" ? `summarised by ${id(f.compaction)}` : f.kind]),
  );

describe("fates and provenance", () => {
  it("applies only the latest compaction and says what it summarised", () => {
    const { projection, id } = project("compaction");
    expect(fates(projection, id)).toEqual({
      m1: "summarised by c2",
      t1: "summarised by c2",
      u1: "summarised by c2",
      a1: "summarised by c2",
      r1: "summarised by c2",
      a2: "summarised by c2",
      u2: "summarised by c2",
      a3: "summarised by c2",
      r2: "summarised by c2",
      c1: "summarised by c2",
      u3: "in-context",
      a4: "in-context",
      c2: "compaction-summary",
      u4: "in-context",
    });
    expect(projection.llmSources.map(id)).toEqual(["c2", "u3", "a4", "u4"]);
  });

  it("marks bash !! commands excluded, settings as settings, custom entries as not reaching the model", () => {
    const { projection, id } = project("bash-and-custom");
    const f = fates(projection, id);
    expect(f["x2"]).toBe("excluded");
    expect(f["m1"]).toBe("setting");
    expect(f["ce1"]).toBe("no-message");
    expect(f["cm1"]).toBe("in-context");
    expect([...projection.fates].find(([i]) => id(i) === "x2")![1]).toMatchObject({ rule: "exclude-from-context" });
  });

  it("marks errored and aborted turns dropped by the transform, and synthetic results have no source", () => {
    const { projection, id } = project("failed-turns");
    const f = fates(projection, id);
    expect([f["a3"], f["a4"]]).toEqual(["dropped", "dropped"]);
    const reasons = [...projection.fates]
      .filter(([, x]) => x.kind === "dropped")
      .map(([, x]) => (x as { reason: string }).reason);
    expect(reasons).toEqual(["errored turn", "aborted turn"]);
    const body = projection.payload.body as { messages: { role: string; content: unknown }[] };
    expect(projection.itemSources).toHaveLength(body.messages.length);
    // a5 called two tools, r5 answers one: anthropic merges the real and the synthetic result into one user message
    const merged = body.messages.findIndex((m) => JSON.stringify(m.content).includes("No result provided"));
    expect(projection.itemSources[merged]!.map(id)).toEqual(["r5"]);
  });

  it("maps every openai-responses input item back to its entries", () => {
    const { projection, id } = project("cross-provider", undefined, "openai/gpt-5.1-codex");
    const input = (projection.payload.body as { input: unknown[] }).input;
    expect(projection.payload.listKey).toBe("input");
    expect(projection.itemSources).toHaveLength(input.length);
    expect(projection.itemSources.flat().map(id)).toEqual(expect.arrayContaining(["u1", "a1", "r1", "a2", "u2"]));
  });

  it("reads the thinking level and model from the path", () => {
    const { projection } = project("cross-provider");
    expect(projection.model.id).toBe("claude-sonnet-4-5");
    expect(projection.context.thinkingLevel).toBe("high");
    expect(projection.reasoning).toBe("high");
  });
});
