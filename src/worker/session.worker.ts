/// <reference lib="webworker" />
/** The worker entry: one engine, messages in and out through the protocol. */
import { loadTokenizer } from "../tokens/load.ts";
import { SessionEngine } from "./engine.ts";
import { packedListBuffers } from "./packed-lists.ts";
import { packedBuffers } from "./packed-strings.ts";
import type { Gesture, Ping, Pong, Request, Response } from "./protocol.ts";

/** Buffers a response owns alone, moved to the page rather than copied: the engine keeps no reference to them. */
const transferred = (response: Response): Transferable[] => {
  if (response.type === "loaded")
    return [
      ...packedBuffers(response.summary.entries.previews),
      response.summary.entries.lines.buffer as ArrayBuffer,
      response.summary.entries.parents.buffer as ArrayBuffer,
      response.summary.entries.kinds.codes.buffer as ArrayBuffer,
    ];
  if (response.type === "project" && response.answer.ok) {
    const { view } = response.answer;
    return [...packedListBuffers(view.itemSources), view.path.buffer as ArrayBuffer];
  }
  if (response.type === "tokens") return [response.result.tokens.itemTokens.buffer as ArrayBuffer];
  return [];
};

const scope = self as unknown as DedicatedWorkerGlobalScope;
const engine = new SessionEngine(
  (response: Response) => scope.postMessage(response, transferred(response)),
  loadTokenizer,
);
scope.onmessage = (event: MessageEvent<Request | Ping | Gesture>) => {
  if (event.data.type === "ping") return scope.postMessage({ type: "pong" } satisfies Pong);
  if (event.data.type === "gesture") return engine.gesture();
  void engine.handle(event.data);
};
