/**
 * Every string inside a JSON-like value, mapped without recursion (values can be 100,000 deep) and copy-on-write:
 * the walk the redaction rule and the share review's restore both make, apart from what they do to each string.
 */

type Container = unknown[] | Record<string, unknown>;

function isContainer(v: unknown): v is Container {
  if (Array.isArray(v)) return true;
  if (typeof v !== "object" || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}

interface Frame {
  readonly node: Container;
  readonly keys: readonly string[] | undefined;
  readonly parent: Frame | undefined;
  /** Its key in the parent. */
  readonly key: string | number;
  i: number;
  copy: Container | undefined;
  /** Its path, once asked for. */
  path: string | undefined;
}

/** The frame's path, built from the nearest ancestor that knows its own (a loop: values can be 100,000 deep). */
function framePath(frame: Frame): string {
  const unknown: Frame[] = [];
  let f: Frame | undefined = frame;
  while (f && f.path === undefined) {
    unknown.push(f);
    f = f.parent;
  }
  let path = f?.path ?? "";
  for (let i = unknown.length - 1; i >= 0; i--) {
    const g = unknown[i]!;
    g.path = path = g.parent ? childPath(path, g.key) : "";
  }
  return frame.path!;
}

function setChild(frame: Frame, key: string | number, value: unknown): void {
  frame.copy ??= Array.isArray(frame.node) ? frame.node.slice() : { ...frame.node };
  Object.defineProperty(frame.copy, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Maps every string inside a JSON-like value (plain objects and arrays, however deep: no recursion), in a fixed
 * order, sharing every subtree in which nothing changed. `key` is the object key holding the string (undefined in
 * arrays and at the root); `path()` its path, built only when asked for.
 */
export function mapStrings(
  root: unknown,
  skipKeys: ReadonlySet<string>,
  fn: (text: string, key: string | undefined, path: () => string) => string,
): unknown {
  if (typeof root === "string") return fn(root, undefined, () => "");
  if (!isContainer(root)) return root;
  const frame = (node: Container, parent: Frame | undefined, key: string | number): Frame => ({
    node,
    keys: Array.isArray(node) ? undefined : Object.keys(node),
    parent,
    key,
    i: 0,
    copy: undefined,
    path: undefined,
  });
  const stack: Frame[] = [frame(root, undefined, "")];
  const open = new Set<unknown>([root]);
  for (;;) {
    const f = stack.at(-1)!;
    const size = f.keys ? f.keys.length : (f.node as unknown[]).length;
    if (f.i >= size) {
      stack.pop();
      open.delete(f.node);
      const done = f.copy ?? f.node;
      const parent = stack.at(-1);
      if (!parent) return done;
      if (done !== f.node) setChild(parent, f.key, done);
      parent.i++;
      continue;
    }
    const key = f.keys ? f.keys[f.i]! : f.i;
    const child = (f.node as Record<string | number, unknown>)[key];
    if (typeof key === "string" && skipKeys.has(key)) {
      f.i++;
    } else if (typeof child === "string") {
      const mapped = fn(child, typeof key === "string" ? key : undefined, () => childPath(framePath(f), key));
      if (mapped !== child) setChild(f, key, mapped);
      f.i++;
    } else if (isContainer(child)) {
      if (open.has(child)) {
        throw new Error(`Cannot go through a value that contains itself (at ${childPath(framePath(f), key)}).`);
      }
      open.add(child);
      stack.push(frame(child, f, key));
    } else {
      f.i++;
    }
  }
}
