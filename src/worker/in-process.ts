/**
 * The session client's twin: the same engine in this thread, for tests and environments without workers.
 * Its own module so the page's bundle never carries the engine (and with it the core and the model registry).
 */
import { ProtocolClient, type SessionClient } from "./client.ts";
import { loadTokenizer } from "../tokens/load.ts";
import { SessionEngine, type EngineOptions } from "./engine.ts";
import type { TokenizerLoader } from "./tokens-engine.ts";

/**
 * The twin: the same engine in this thread (tests, and environments without workers). Tests may pace it in
 * smaller steps than the worker's defaults (`options`) and load vocabularies their own way.
 */
export function createInProcessClient(
  options: EngineOptions = {},
  load: TokenizerLoader = loadTokenizer,
): SessionClient {
  let client: ProtocolClient | undefined = undefined;
  const engine = new SessionEngine((response) => queueMicrotask(() => client?.receive(response)), load, options);
  client = new ProtocolClient((request) => void engine.handle(request));
  return client;
}
