/** Number formatting for the payload view, without `Intl` (whose first use costs tens of ms on a cold page). */

/** `12345` → `12,345`: an integer with thousands separators. */
export function formatCount(n: number): string {
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `2 blocks`, `1 block`, `12,000 items`. */
export const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;
