/**
 * `projectInParts`: the projection made a part of the messages at a time (so the worker can let other requests in
 * between) is the projection `projectLeaf` makes, whatever the parts left remembered.
 */
import { describe, expect, it } from "vitest";
import { findModel } from "../../src/core/models/registry.ts";
import { projectInParts, projectLeaf, type ProjectionOptions } from "../../src/core/project/project.ts";
import { assistant, compaction, header, session, toolCall, toolResult, user } from "../support/build.ts";
import { ourSession } from "../support/ours.ts";

/** 30 turns of a question, a tool call, its result and an answer, compacted after the 20th. */
function long(): string {
  const lines = [header({ id: "in-parts" })];
  let parent: string | null = null;
  for (let i = 0; i < 30; i++) {
    lines.push(
      user(`u${i}`, parent, `question ${i}`),
      assistant(`c${i}`, `u${i}`, [toolCall(`call_${i}|item_${i}`, "read", { path: `f${i}.ts` })]),
      toolResult(`r${i}`, `c${i}`, `call_${i}|item_${i}`, `contents of f${i}`),
      assistant(`a${i}`, `r${i}`, `answer ${i}`),
    );
    parent = `a${i}`;
    if (i === 20) {
      lines.push(compaction("k", parent, "u18", "the first twenty questions"));
      parent = "k";
    }
  }
  return session(...lines);
}

function run(steps: Generator<void, ReturnType<typeof projectLeaf>, void>) {
  let yields = 0;
  for (;;) {
    const step = steps.next();
    if (step.done) return { result: step.value, yields };
    yields += 1;
  }
}

describe("projectInParts", () => {
  const text = long();

  it.each([undefined, "google/gemini-2.5-pro", "openai/gpt-5.1-codex", "anthropic/claude-sonnet-4-5"])(
    "makes projectLeaf's projection, a part at a time (%s)",
    (ref) => {
      const [provider, ...id] = (ref ?? "").split("/");
      const options: ProjectionOptions = {
        applyCompaction: false,
        ...(ref ? { model: findModel(provider!, id.join("/"))! } : {}),
      };
      const tree = ourSession(text);
      const { result, yields } = run(projectInParts(tree, tree.defaultLeaf!, options, 7));
      if (!result.ok) throw new Error(result.error);
      // A session read afresh, so nothing the parts remembered is in its way.
      const fresh = ourSession(text);
      const whole = projectLeaf(fresh, fresh.defaultLeaf!, options);
      if (!whole.ok) throw new Error(whole.error);
      expect(result.value.payload).toEqual(whole.value.payload);
      expect(result.value.itemSources).toEqual(whole.value.itemSources);
      const messages = whole.value.llm.messages.length;
      expect(messages).toBeGreaterThan(100);
      expect(yields).toBe(Math.ceil(messages / 7) + 1);
    },
  );

  it("makes a short path in one step, and fails as projectLeaf fails", () => {
    const tree = ourSession(text);
    expect(run(projectInParts(tree, tree.defaultLeaf!, {}, 10_000)).yields).toBe(0);
    const noModel = ourSession(session(header(), user("u1", null, "hi")));
    const failed = run(projectInParts(noModel, noModel.defaultLeaf!, {}, 1));
    expect(failed.result).toEqual(projectLeaf(noModel, noModel.defaultLeaf!, {}));
    expect(failed.result.ok).toBe(false);
  });
});
