/// <reference lib="webworker" />
/** The worker entry: one engine, messages in and out through the protocol. */
import { loadTokenizer } from "../tokens/load.ts";
import { SessionEngine } from "./engine.ts";
import type { Request, Response } from "./protocol.ts";

const scope = self as unknown as DedicatedWorkerGlobalScope;
const engine = new SessionEngine((response: Response) => scope.postMessage(response), loadTokenizer);
scope.onmessage = (event: MessageEvent<Request>) => void engine.handle(event.data);
