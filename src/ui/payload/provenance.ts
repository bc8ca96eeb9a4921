/** Between payload items and session entries: list i of `itemSources` holds the entries item i came from. */
import { firstListHolding, type PackedLists } from "../../worker/packed-lists.ts";
import { formatCount } from "./format.ts";

/** The first item of the main list that came from `entry`, or undefined when none did. */
export const firstItemFrom = (itemSources: PackedLists, entry: number): number | undefined =>
  firstListHolding(itemSources, entry);

export type TokenKind = "exact" | "calibrated" | "estimated";

/** The mark before a count that says what kind of number it is: none for exact, ≈ calibrated, ~ estimated. */
export const TOKEN_MARKS: Readonly<Record<TokenKind, string>> = { exact: "", calibrated: "≈", estimated: "~" };

/** `~1,234 tok`: an item's token count with the mark of its kind. */
export function formatItemTokens(count: number, kind: TokenKind): string {
  return `${TOKEN_MARKS[kind]}${formatCount(count)} tok`;
}

/** The legend for the marks in use: "~ estimated token counts". */
export function tokenLegend(kind: TokenKind): string {
  return kind === "exact" ? "exact token counts (provider-reported)" : `${TOKEN_MARKS[kind]} ${kind} token counts`;
}
