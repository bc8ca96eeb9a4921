/** Numbers of a comparison as people read them. */
import { describe, expect, it } from "vitest";
import { formatTokenDelta, formatTokens, formatTokensShort } from "../../src/core/diff/format.ts";

describe("formatTokensShort", () => {
  it("keeps three significant figures or so, from units to billions", () => {
    expect(
      [0, 950, 999, 1000, 64_154, 999_949, 999_950, 1_381_940, 67_926_600, 5_037_500_000].map(formatTokensShort),
    ).toEqual(["0", "950", "999", "1k", "64.2k", "999.9k", "1M", "1.4M", "67.9M", "5B"]);
  });

  it("writes a negative number with a minus sign, and never −0", () => {
    expect(formatTokensShort(-426_144)).toBe("−426.1k");
    expect(formatTokensShort(-0.2)).toBe("0");
  });
});

describe("formatTokens and formatTokenDelta", () => {
  it("group thousands and sign a delta", () => {
    expect(formatTokens(1_234_567.4)).toBe("1,234,567");
    expect([1234, -567, 0.3].map(formatTokenDelta)).toEqual(["+1,234", "−567", "±0"]);
  });
});
