/** The main list's items for a payload view: all in the body, or read from the worker as they are shown. */
import { HeldItems, RemoteItems, type ItemsSignal, type PayloadItems } from "./items.ts";

/** Makes whatever reads `RemoteItems` (the rows, the rendered rows) read again when items arrive. */
class ItemsVersion implements ItemsSignal {
  #version = $state(0);

  track(): void {
    void this.#version;
  }

  changed(): void {
    this.#version += 1;
  }
}

/**
 * The items of `body[listKey]`, which holds the first `listLength` of them or all; `read` reads the others.
 * Undefined when the body has no main list.
 */
export function listItems(
  body: Record<string, unknown>,
  listKey: string,
  listLength: number | undefined,
  read: ((start: number, end: number) => Promise<readonly unknown[]>) | undefined,
): PayloadItems | undefined {
  const list = body[listKey];
  if (!Array.isArray(list)) return undefined;
  if (listLength === undefined || listLength <= list.length) return new HeldItems(list);
  const reader = read ?? (() => Promise.reject(new Error("only the first items came with this payload")));
  return new RemoteItems(listLength, list, reader, new ItemsVersion());
}
