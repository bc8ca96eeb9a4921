/**
 * Keeping keyboard focus when the focused control goes away (a dismissed message, a removed session, a deleted
 * preset): focus moves to a control that makes sense there instead of falling back to <body>, where a keyboard or
 * screen-reader user would have to start the page over.
 */
import { tick } from "svelte";

const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

/** Whether `element` can take focus from Tab now: in the document, rendered, enabled, not inert. */
export function isTabbable(element: Element | null | undefined): element is HTMLElement {
  if (!(element instanceof HTMLElement) || !element.isConnected || element.tabIndex < 0) return false;
  if ((element as HTMLButtonElement).disabled || element.closest("[inert]")) return false;
  return element.getClientRects().length > 0;
}

/** The nearest tabbable elements after and before `element` (outside it), in document order. */
export function tabNeighbours(element: Element): { after: HTMLElement | undefined; before: HTMLElement | undefined } {
  const all = [...document.querySelectorAll(FOCUSABLE)].filter(isTabbable);
  const outside = all.filter((e) => !element.contains(e));
  const after = outside.find((e) => element.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING);
  const before = outside.findLast((e) => element.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_PRECEDING);
  return { after, before };
}

/**
 * Call just before the state change that removes or hides `leaving` (an element holding focus, or containing it).
 * Once the DOM has updated, if focus was lost, it moves to the first of `preferred()` that can take it, else to
 * the control that followed `leaving` in tab order, else to the one before it. Does nothing when focus was
 * elsewhere.
 */
export async function keepFocus(
  leaving: Element | null | undefined,
  preferred: () => readonly (Element | null | undefined)[] = () => [],
): Promise<void> {
  if (!leaving || !leaving.contains(document.activeElement)) return;
  const { after, before } = tabNeighbours(leaving);
  await tick();
  // Focus is still on a control (nothing was removed after all, or something else took it): leave it there.
  if (isTabbable(document.activeElement)) return;
  const target = [...preferred(), after, before].find(isTabbable);
  target?.focus();
}
