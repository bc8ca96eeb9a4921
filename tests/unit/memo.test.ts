/** Work remembered per object (src/core/project/memo.ts): what is found again, and how much is kept. */
import { describe, expect, it } from "vitest";
import { PerObject } from "../../src/core/project/memo.ts";

describe("PerObject", () => {
  const counter = () => {
    let made = 0;
    return (key: unknown) => `${String(key)}:${++made}`;
  };

  it("computes once per object and key, and again when the key changes", () => {
    const memo = new PerObject<object, string>();
    const object = {};
    const make = counter();
    expect(memo.get(object, 1, () => make(1))).toBe("1:1");
    expect(memo.get(object, 1, () => make(1))).toBe("1:1");
    expect(memo.get(object, 2, () => make(2))).toBe("2:2");
    expect(memo.get(object, 1, () => make(1))).toBe("1:3"); // one result kept: the key's turn came back too late
    expect(memo.get({}, 2, () => "another object")).toBe("another object");
  });

  it("keeps the last few results when told to, the newest, for keys that take turns", () => {
    const memo = new PerObject<object, string, string>(3);
    const object = {};
    const make = counter();
    const get = (key: string) => memo.get(object, key, () => make(key));
    expect(["a", "b", "c", "a", "b", "c"].map(get)).toEqual(["a:1", "b:2", "c:3", "a:1", "b:2", "c:3"]);
    expect(get("d")).toBe("d:4"); // the oldest, "a", goes
    expect([get("b"), get("c"), get("d")]).toEqual(["b:2", "c:3", "d:4"]);
    expect(get("a")).toBe("a:5");
  });

  it("compares keys with the function it is given", () => {
    const memo = new PerObject<object, string, readonly number[]>(2, (a, b) => a.join() === b.join());
    const object = {};
    expect(memo.get(object, [1, 2], () => "first")).toBe("first");
    expect(memo.get(object, [1, 2], () => "second")).toBe("first");
    expect(memo.get(object, [2, 1], () => "third")).toBe("third");
  });
});
