/**
 * A session client whose loads of the files `which` names wait until a test releases them (`held`, oldest first)
 * or cancels them (`cancelled()` counts those): what the page does while files are still being read.
 */
import type { SessionClient } from "../../src/worker/client.ts";

export function holdLoads(client: SessionClient, which: (name: string) => boolean) {
  const held: (() => void)[] = [];
  let cancels = 0;
  const holding: SessionClient = Object.create(client, {
    load: {
      value: (...args: Parameters<SessionClient["load"]>) => {
        const handle = client.load(...args);
        if (!which(args[2])) return handle;
        let fail = (_: Error) => {};
        const gate = new Promise<void>((resolve, reject) => {
          held.push(resolve);
          fail = reject;
        });
        return {
          done: gate.then(() => handle.done),
          cancel: () => {
            cancels += 1;
            fail(new Error("cancelled"));
          },
        };
      },
    },
  });
  return { client: holding, held, cancelled: () => cancels };
}
