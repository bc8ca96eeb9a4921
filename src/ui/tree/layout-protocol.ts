/** The messages between the page and the layout worker (layout.worker.ts), imported by both sides. */
import type { LayoutSource, Placement, PlacementOptions } from "./placement.ts";

export type LayoutRequest =
  /** A session's layout source, sent once; later requests name it by `source`. */
  | { readonly type: "source"; readonly source: number; readonly data: LayoutSource }
  | {
      readonly type: "place";
      readonly requestId: number;
      readonly source: number;
      readonly options: Omit<PlacementOptions, "path">;
    }
  /** The session's view is gone: forget its source. */
  | { readonly type: "drop"; readonly source: number };

export type LayoutResponse =
  | { readonly type: "placed"; readonly requestId: number; readonly placement: Placement }
  | { readonly type: "error"; readonly requestId: number; readonly message: string };
