/**
 * Card budgeting. A long pan can bring a hundred cards into view at once, and building them all in one frame is
 * what makes a frame long. So new cards are built at most `CARD_BUDGET` a frame, nearest the centre of the view
 * first; until then the SVG layer shows them as boxes, as a map shows its tiles.
 */
export const CARD_BUDGET = 32;

/** No card built yet. */
export const NO_CARDS: ReadonlySet<string> = new Set();

/**
 * The cards to draw now: the wanted ones already built, and always `keep` (the focused node, the leaf). Sorted by
 * node index, so that a card never moves in the DOM (moving the focused element would blur it) and the DOM order
 * is the display order.
 */
export function cardsNow(
  wanted: readonly number[],
  keep: readonly number[],
  built: ReadonlySet<string>,
  keyOf: (node: number) => string,
): number[] {
  const out = wanted.filter((i) => built.has(keyOf(i)));
  for (const i of keep) if (i >= 0 && !out.includes(i)) out.push(i);
  return out.sort((a, b) => a - b);
}

/** Whether every wanted and every drawn card is built (nothing left for the next frames). */
export function isSettled(
  wanted: readonly number[],
  drawn: readonly number[],
  built: ReadonlySet<string>,
  keyOf: (node: number) => string,
): boolean {
  return wanted.every((i) => built.has(keyOf(i))) && drawn.every((i) => built.has(keyOf(i)));
}

/** What is drawn plus up to `budget` more wanted cards, nearest `centre` first; and how many were added. */
export function buildMore(
  wanted: readonly number[],
  drawn: readonly number[],
  position: (node: number) => { readonly x: number; readonly y: number },
  keyOf: (node: number) => string,
  centre: { readonly x: number; readonly y: number },
  budget: number,
): { built: Set<string>; added: number } {
  const built = new Set(drawn.map(keyOf));
  const distance = (i: number) => Math.hypot(position(i).x - centre.x, position(i).y - centre.y);
  const missing = wanted.filter((i) => !built.has(keyOf(i))).sort((a, b) => distance(a) - distance(b));
  const added = missing.slice(0, Math.max(0, budget));
  for (const i of added) built.add(keyOf(i));
  return { built, added: added.length };
}
