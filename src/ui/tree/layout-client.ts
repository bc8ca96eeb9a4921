/**
 * The page's side of the layout worker: one worker for the whole app, started on first use, and per tree view a
 * `LayoutChannel` where the latest request wins — at most one request is in the worker, and one waiting request is
 * replaced by a newer one. Where there is no `Worker` (Vitest, Node) the same placement runs in this thread.
 */
import type { LayoutRequest, LayoutResponse } from "./layout-protocol.ts";
import { placeNodes, type LayoutSource, type Placement, type PlacementOptions } from "./placement.ts";

export type PlaceOptions = Omit<PlacementOptions, "path">;

export interface LayoutChannel {
  /** The placement for `options`; undefined when a newer request replaced this one before it was sent. */
  place(options: PlaceOptions): Promise<Placement | undefined>;
  /** Forgets the session (the view is gone). */
  close(): void;
}

/** Where placements are computed: the worker, or this thread. */
interface Placer {
  addSource(id: number, source: LayoutSource): void;
  place(id: number, options: PlaceOptions): Promise<Placement>;
  dropSource(id: number): void;
}

class WorkerPlacer implements Placer {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (p: Placement) => void; reject: (e: Error) => void }>();
  #nextRequest = 1;
  #failed: Error | undefined;

  constructor() {
    this.#worker = new Worker(new URL("./layout.worker.ts", import.meta.url), { type: "module", name: "tree layout" });
    this.#worker.onmessage = (event: MessageEvent<LayoutResponse>) => {
      const response = event.data;
      const pending = this.#pending.get(response.requestId);
      this.#pending.delete(response.requestId);
      if (response.type === "placed") pending?.resolve(response.placement);
      else pending?.reject(new Error(response.message));
    };
    this.#worker.onerror = (event) => {
      this.#failed = new Error(`the layout worker stopped (${event.message || "unknown error"}); reload the page`);
      for (const pending of this.#pending.values()) pending.reject(this.#failed);
      this.#pending.clear();
    };
  }

  #send(request: LayoutRequest, transfer: Transferable[] = []): void {
    this.#worker.postMessage(request, transfer);
  }

  addSource(id: number, source: LayoutSource): void {
    // Copies: the session's own parents stay with the page.
    const data = { count: source.count, parents: source.parents.slice(), flags: source.flags.slice() };
    this.#send({ type: "source", source: id, data }, [data.parents.buffer, data.flags.buffer]);
  }

  place(id: number, options: PlaceOptions): Promise<Placement> {
    const requestId = this.#nextRequest++;
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise((resolve, reject) => {
      this.#pending.set(requestId, { resolve, reject });
      this.#send({ type: "place", requestId, source: id, options });
    });
  }

  dropSource(id: number): void {
    this.#send({ type: "drop", source: id });
  }
}

class InProcessPlacer implements Placer {
  readonly #sources = new Map<number, LayoutSource>();

  addSource(id: number, source: LayoutSource): void {
    this.#sources.set(id, source);
  }

  async place(id: number, options: PlaceOptions): Promise<Placement> {
    await Promise.resolve();
    const source = this.#sources.get(id);
    if (!source) throw new Error(`No layout source ${id}.`);
    return placeNodes(source, options);
  }

  dropSource(id: number): void {
    this.#sources.delete(id);
  }
}

interface Job {
  readonly options: PlaceOptions;
  readonly resolve: (placement: Placement | undefined) => void;
  readonly reject: (error: Error) => void;
}

let placer: Placer | undefined;
let nextSource = 1;

function sharedPlacer(): Placer {
  return (placer ??= typeof Worker === "undefined" ? new InProcessPlacer() : new WorkerPlacer());
}

/** Whether placements run in a worker here (else in this thread, and a synchronous layout is just as good). */
export const hasLayoutWorker = (): boolean => typeof Worker !== "undefined";

/** A channel for one session's layouts. */
export function openLayoutChannel(source: LayoutSource): LayoutChannel {
  const target = sharedPlacer();
  const id = nextSource++;
  target.addSource(id, source);
  let busy = false;
  let queued: Job | undefined;
  const pump = async (): Promise<void> => {
    if (busy || !queued) return;
    const job = queued;
    queued = undefined;
    busy = true;
    try {
      job.resolve(await target.place(id, job.options));
    } catch (error) {
      job.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      busy = false;
      void pump();
    }
  };
  return {
    place(options) {
      return new Promise((resolve, reject) => {
        queued?.resolve(undefined);
        queued = { options, resolve, reject };
        void pump();
      });
    },
    close() {
      queued?.resolve(undefined);
      queued = undefined;
      target.dropSource(id);
    },
  };
}
