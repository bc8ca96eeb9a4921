/// <reference lib="webworker" />
/** The worker entry: one engine, messages in and out through the protocol. */
import { loadTokenizer } from "../tokens/load.ts";
import { SessionEngine } from "./engine.ts";
import type { Ping, Pong, Request, Response } from "./protocol.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const engine = new SessionEngine((response: Response) => scope.postMessage(response), loadTokenizer);
scope.onmessage = (event: MessageEvent<Request | Ping>) => {
  if (event.data.type === "ping") return scope.postMessage({ type: "pong" } satisfies Pong);
  void engine.handle(event.data);
};
