/**
 * A column of strings from a small vocabulary (entry kinds: "user", "assistant", "toolResult", …) sent across the
 * worker seam as one code per value, into a table of the distinct values: structured clone copies every string of
 * an array on its own, and the 300,000 kinds of an 800 MB session cost about 110 ms to read as strings.
 */
export interface CodedStrings {
  /** The distinct values, in order of first appearance. */
  readonly names: readonly string[];
  /** Per value, its index in `names`. */
  readonly codes: Int32Array;
}

export function codeStrings(values: readonly string[]): CodedStrings {
  const names: string[] = [];
  const codeOf = new Map<string, number>();
  const codes = new Int32Array(values.length);
  values.forEach((value, i) => {
    let code = codeOf.get(value);
    if (code === undefined) codeOf.set(value, (code = names.push(value) - 1));
    codes[i] = code;
  });
  return { names, codes };
}

/** Value `i`, or undefined past the end. */
export const codedString = (coded: CodedStrings, i: number): string | undefined =>
  i >= 0 && i < coded.codes.length ? coded.names[coded.codes[i] as number] : undefined;
