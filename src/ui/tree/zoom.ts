/**
 * d3-zoom behind a Svelte attachment: `<div {@attach zoomer.attach}>`. d3 owns the gestures; the transform it
 * produces is handed to `onzoom` (the view keeps it in `$state`), and the buttons drive it through this class.
 *
 * Gestures: drag pans; ctrl/⌘ + wheel and trackpad pinch (a wheel event with ctrlKey) zoom at the pointer; touch
 * pinch zooms; a plain wheel pans (vertically; horizontally with shift or a horizontal wheel), as in a document.
 */
import { select, type Selection } from "d3-selection";
import { zoom, zoomIdentity, zoomTransform, type D3ZoomEvent, type ZoomBehavior } from "d3-zoom";
import { untrack } from "svelte";
import type { Attachment } from "svelte/attachments";
import type { ViewTransform } from "./viewport.ts";

export interface ZoomOptions {
  readonly scaleExtent: readonly [number, number];
  readonly onzoom: (transform: ViewTransform) => void;
  /** Called once the element is attached, with its size known. */
  readonly onready?: (element: HTMLElement) => void;
}

/** d3-zoom only starts on a ctrl/⌘ wheel (the plain wheel pans instead) or an unmodified primary press or touch. */
function startsZoom(event: Event): boolean {
  if (event instanceof WheelEvent) return event.ctrlKey || event.metaKey;
  const e = event as MouseEvent;
  return !e.ctrlKey && !e.button;
}

export class ZoomController {
  readonly #behavior: ZoomBehavior<HTMLElement, unknown>;
  readonly #options: ZoomOptions;
  #selection: Selection<HTMLElement, unknown, null, undefined> | undefined;

  constructor(options: ZoomOptions) {
    this.#options = options;
    this.#behavior = zoom<HTMLElement, unknown>()
      .scaleExtent([options.scaleExtent[0], options.scaleExtent[1]])
      .filter(startsZoom)
      .clickDistance(4)
      .on("zoom", (event: D3ZoomEvent<HTMLElement, unknown>) => {
        const { x, y, k } = event.transform;
        options.onzoom({ x, y, k });
      });
  }

  readonly attach: Attachment<HTMLElement> = (element) => {
    const selection = select(element);
    selection.call(this.#behavior).on("dblclick.zoom", null);
    const onwheel = (event: WheelEvent) => this.#panByWheel(element, event);
    element.addEventListener("wheel", onwheel, { passive: false });
    this.#selection = selection;
    // The attachment must not depend on what onready reads (the transform, the layout): it would re-attach on every zoom.
    untrack(() => this.#options.onready?.(element));
    return () => {
      element.removeEventListener("wheel", onwheel);
      selection.on(".zoom", null);
      this.#selection = undefined;
    };
  };

  get attached(): boolean {
    return this.#selection !== undefined;
  }

  #panByWheel(element: HTMLElement, event: WheelEvent): void {
    if (event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? element.clientHeight : 1;
    let dx = event.deltaX * unit;
    let dy = event.deltaY * unit;
    if (event.shiftKey && dx === 0) [dx, dy] = [dy, 0];
    const k = zoomTransform(element).k;
    this.#behavior.translateBy(select(element), -dx / k, -dy / k);
  }

  /** Zooms by `factor` about the centre of the view. */
  scaleBy(factor: number): void {
    if (this.#selection) this.#behavior.scaleBy(this.#selection, factor);
  }

  transformTo(t: ViewTransform): void {
    if (this.#selection) this.#behavior.transform(this.#selection, zoomIdentity.translate(t.x, t.y).scale(t.k));
  }
}
