/**
 * Which JSON containers are unfolded. Every container has a default (`isOpenByDefault`); a person's clicks are
 * overrides kept by the node's JSON pointer, so they survive a new payload of the same shape (a rule toggled).
 */

/** Arrays with more elements than this start with their container elements folded (the main list included). */
export const MANY_ITEMS = 10;

/** The place of a container in the body, which is all its default depends on. */
export interface ContainerPlace {
  /** 0 for the body, 1 for its top-level values, 2 for the items of the main list, … */
  readonly depth: number;
  /** The length of the array holding it, when it is an array element. */
  readonly arrayLength?: number;
}

/** Top-level values are open; an element of a long array is folded to a one-line summary; the rest is open. */
export function isOpenByDefault(place: ContainerPlace): boolean {
  if (place.depth <= 1) return true;
  return place.arrayLength === undefined || place.arrayLength <= MANY_ITEMS;
}

/** Fold overrides: JSON pointer → open. Replaced, never changed in place (it is `$state.raw` in the view). */
export type FoldOverrides = ReadonlyMap<string, boolean>;

export const isOpen = (folds: FoldOverrides, id: string, byDefault: boolean): boolean =>
  folds.size === 0 ? byDefault : (folds.get(id) ?? byDefault); // no lookup (no hashing of a fresh pointer) unless overridden

/** `folds` with the node `id` set open or folded. */
export function withFold(folds: FoldOverrides, id: string, open: boolean): FoldOverrides {
  if (folds.get(id) === open) return folds;
  const next = new Map(folds);
  next.set(id, open);
  return next;
}

/** No overrides: every container as `isOpenByDefault` says. */
export const NO_FOLDS: FoldOverrides = new Map();

/** No long string shown in full. */
export const NO_STRINGS: ReadonlySet<string> = new Set();

/** `set` with `id` in it or not: a new set (the view keeps these as `$state.raw`). */
export function withMember(set: ReadonlySet<string>, id: string, member: boolean): ReadonlySet<string> {
  if (set.has(id) === member) return set;
  const next = new Set(set);
  if (member) next.add(id);
  else next.delete(id);
  return next;
}

/** A JSON pointer (RFC 6901) one step below `parent`. */
export const childPointer = (parent: string, key: string | number): string =>
  typeof key === "number" ? `${parent}/${key}` : `${parent}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
