/// <reference lib="webworker" />
/**
 * The layout worker: places the nodes of large trees (placement.ts) away from the page's main thread, so that
 * opening a 50,000-entry session or unfolding a run never freezes a frame. Answers in order, one request at a time.
 */
import type { LayoutRequest, LayoutResponse } from "./layout-protocol.ts";
import { placementBuffers, placeNodes, type LayoutSource } from "./placement.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const sources = new Map<number, LayoutSource>();

scope.onmessage = (event: MessageEvent<LayoutRequest>) => {
  const request = event.data;
  switch (request.type) {
    case "source":
      sources.set(request.source, request.data);
      return;
    case "drop":
      sources.delete(request.source);
      return;
    case "place":
      try {
        const source = sources.get(request.source);
        if (!source) throw new Error(`The layout worker has no session ${request.source}.`);
        const placement = placeNodes(source, request.options);
        const placed: LayoutResponse = { type: "placed", requestId: request.requestId, placement };
        scope.postMessage(placed, { transfer: placementBuffers(placement) });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        scope.postMessage({ type: "error", requestId: request.requestId, message } satisfies LayoutResponse);
      }
  }
};
