/** Numbers of a comparison as people read them, the same in the CLI and the app. */

const MINUS = "−";

/** 12,345 */
export function formatTokens(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** 950, 64.2k, 1.4M, 5B: chart ticks, and the totals of a series that may add up to billions of tokens. */
export function formatTokensShort(value: number): string {
  const rounded = Math.round(Math.abs(value));
  const sign = value < 0 && rounded > 0 ? MINUS : "";
  if (rounded >= 999_950_000) return `${sign}${Math.round(rounded / 100_000_000) / 10}B`;
  if (rounded >= 999_950) return `${sign}${Math.round(rounded / 100_000) / 10}M`;
  if (rounded >= 1000) return `${sign}${Math.round(rounded / 100) / 10}k`;
  return `${sign}${rounded}`;
}

/** +1,234 / −567 / ±0 */
export function formatTokenDelta(value: number): string {
  const rounded = Math.round(value);
  if (rounded === 0) return "±0";
  return `${rounded > 0 ? "+" : MINUS}${Math.abs(rounded).toLocaleString("en-US")}`;
}

/** Dollars with as many decimals as a small amount needs: $12.34, $0.123, $0.00046. */
export function formatUsd(value: number): string {
  const abs = Math.abs(value);
  const digits = abs >= 1 ? 2 : abs >= 0.01 ? 3 : abs === 0 ? 2 : Math.min(8, 1 - Math.floor(Math.log10(abs)));
  return `$${abs.toFixed(digits)}`;
}

/** +$0.012 / −$0.00046 / ±$0 */
export function formatUsdDelta(value: number): string {
  if (value === 0) return "±$0";
  return `${value > 0 ? "+" : MINUS}${formatUsd(value)}`;
}
