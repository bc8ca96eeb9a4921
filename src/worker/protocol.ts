/**
 * The one message protocol at the worker seam, imported by both sides (STYLE.md §7).
 * The worker holds the parsed sessions; the UI holds only what it draws: summaries, details on demand.
 */
import type { Diagnostic } from "../core/session/diagnostics.ts";
import type { TreeFilter } from "../core/session/filter.ts";
import type { FileKind } from "../core/session/types.ts";
import type { RuleSettings } from "../core/project/rules.ts";
import type { ProjectionAnswer, RuleEffect } from "./projection.ts";
import type { PageTokenCount, SessionTokenAccuracy } from "./tokens-engine.ts";
import type { Result } from "../core/result.ts";
import type { ModelInfo } from "../core/llm/types.ts";
import type { ExportChoices } from "../core/snapshot/export.ts";
import type { ShareOutput, ShareStart } from "../core/snapshot/share.ts";
import type { SnapshotSource } from "../core/snapshot/read.ts";
import type { CompareSide } from "../core/diff/sides.ts";
import type { IndexedChange, PageComparison } from "./page-compare.ts";
import type { CacheSeries, CacheTurn } from "../core/diff/cache-series.ts";
import type { CodedStrings } from "./coded-strings.ts";
import type { PackedStrings } from "./packed-strings.ts";
import type { PageSnapshot } from "./page-snapshot.ts";

export type { TreeFilter };

/** What a models.json changed: the custom models it defines, and how many built-in models it overrides. */
export interface ModelsInUse {
  readonly custom: readonly ModelInfo[];
  readonly overridden: number;
}

/** Everything the session list and the tree need about one session, in compact arrays indexed by entry. */
export interface SessionSummary {
  /** Stable key of this session in the library (not the pi session id: two files may share one). */
  readonly key: string;
  readonly fileName: string;
  readonly bytes: number;
  readonly kind: FileKind;
  readonly kindDescription: string;
  readonly sessionId: string | undefined;
  readonly parentSession: string | undefined;
  readonly cwd: string | undefined;
  readonly timestamp: string | undefined;
  /** session_info name, else the first user message. */
  readonly title: string;
  readonly version: number;
  readonly models: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  readonly entries: EntryColumns;
  readonly defaultLeaf: number | undefined;
}

/** Per-entry columns (index = entry index). Parallel arrays keep 100k entries cheap to clone. */
export interface EntryColumns {
  readonly count: number;
  readonly ids: readonly (string | undefined)[];
  /** 1-based line of each entry in its file. */
  readonly lines: Int32Array;
  /** Parent entry index, or -1 for a root. */
  readonly parents: Int32Array;
  /** "user", "assistant", "toolResult", "bashExecution", "custom", "compaction", "model_change", … (`codedString`) */
  readonly kinds: CodedStrings;
  /** One-line text preview of each entry, packed (`unpackString`): the page reads only the ones it draws. */
  readonly previews: PackedStrings;
  /** Current label of each labelled entry (a few among thousands: a full column cost 30 ms to clone at 300,000). */
  readonly labels: ReadonlyMap<number, string>;
  /** Entries on a parent cycle (pi would loop on them). */
  readonly inCycle: readonly number[];
}

/** One entry in full for the inspector: the migrated JSON plus what it pairs with. */
export interface EntryDetail {
  readonly index: number;
  readonly line: number;
  readonly id: string | undefined;
  readonly parentId: string | null | undefined;
  readonly type: string;
  readonly raw: Readonly<Record<string, unknown>>;
  readonly label: string | undefined;
  /** For an assistant entry: each tool call and the entry holding its result (if any). */
  readonly toolCalls: readonly {
    readonly callId: string;
    readonly name: string;
    readonly result: number | undefined;
  }[];
  /** For a tool result: the entry whose assistant message made the call (if any). */
  readonly callEntry: number | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

export type LoadProgress = {
  readonly file: string;
  readonly bytesRead: number;
  readonly bytesTotal: number;
  readonly entries: number;
};

export type Request =
  | {
      readonly type: "load";
      readonly requestId: number;
      readonly key: string;
      readonly file: Blob;
      readonly name: string;
    }
  | { readonly type: "cancel"; readonly requestId: number }
  | { readonly type: "remove"; readonly requestId: number; readonly key: string }
  | { readonly type: "entry"; readonly requestId: number; readonly key: string; readonly index: number }
  | {
      readonly type: "search";
      readonly requestId: number;
      readonly key: string;
      readonly query: string;
      readonly filter: TreeFilter;
      /** pi always shows the current leaf, whatever the filter. */
      readonly leaf: number | undefined;
    }
  | {
      /**
       * The payload, fates and findings at this leaf under these rules; model undefined = the session's. Or what
       * depends on them: each rule's effect, the token count, and ("payloadFile") the whole request body as a JSON
       * file, made here (a Blob of a long path's body, tens of MB, took the page's thread most of a second to make).
       */
      readonly type: "project" | "ruleEffects" | "tokens" | "payloadFile";
      readonly requestId: number;
      readonly key: string;
      readonly leaf: number;
      readonly settings: RuleSettings;
      readonly model: string | undefined;
    }
  | {
      /**
       * A context snapshot of this leaf under these rules, reviewed for sharing (secrets and images found) and
       * exported with everything hidden; model as for "project".
       */
      readonly type: "snapshot";
      readonly requestId: number;
      readonly key: string;
      readonly leaf: number;
      readonly settings: RuleSettings;
      readonly model: string | undefined;
      /** The preset the settings started from, recorded in the snapshot. */
      readonly preset: string | undefined;
    }
  | {
      /** The share review `shareId` is closed: the worker lets go of its snapshot (answered "done"). */
      readonly type: "shareEnd";
      readonly requestId: number;
      readonly shareId: number;
    }
  | {
      /** The file and link of the share review `shareId` (the latest "snapshot" answered) under these choices. */
      readonly type: "shareOutput";
      readonly requestId: number;
      readonly shareId: number;
      readonly choices: ExportChoices;
    }
  | {
      /**
       * The projection's request body as pretty JSON (`JSON.stringify(body, null, 2)`), or one item of its main
       * list: what the payload view copies and saves (the view itself holds stand-ins for images).
       */
      readonly type: "payloadJson";
      readonly requestId: number;
      readonly key: string;
      readonly leaf: number;
      readonly settings: RuleSettings;
      readonly model: string | undefined;
      readonly item: number | undefined;
    }
  | {
      /**
       * Items `[start, end)` of the projection's main list as the page holds them (see worker/page-payload.ts): a
       * long list's answer carries only its first items, and the payload view reads the rest as they come into view.
       */
      readonly type: "payloadItems";
      readonly requestId: number;
      readonly key: string;
      readonly leaf: number;
      readonly settings: RuleSettings;
      readonly model: string | undefined;
      readonly start: number;
      readonly end: number;
    }
  | {
      /**
       * The person's models.json (pi's ~/.pi/agent/models.json): every later lookup of a model sees its custom
       * models and overrides, as pi's model registry does. Undefined text: pi-ai's own models only again.
       */
      readonly type: "models";
      readonly requestId: number;
      readonly text: string | undefined;
    }
  | {
      /** Both token estimators on every recorded turn of the session (slow on long sessions: ask once). */
      readonly type: "accuracy";
      readonly requestId: number;
      readonly key: string;
    }
  | {
      /** Two projections of the session (leaf, rules, model each) compared item by item, with token deltas. */
      readonly type: "compare";
      readonly requestId: number;
      readonly key: string;
      readonly a: CompareSide;
      readonly b: CompareSide;
      /** Also diff the two request bodies as JSON. */
      readonly json: boolean;
    }
  | {
      /**
       * Changes `[start, end)` of a comparison (as asked with "compare"), of the list without the unchanged items or
       * (`unchanged`) of the whole list: the answer to "compare" carries only the first ones.
       */
      readonly type: "compareChanges";
      readonly requestId: number;
      readonly key: string;
      readonly a: CompareSide;
      readonly b: CompareSide;
      readonly json: boolean;
      readonly unchanged: boolean;
      readonly start: number;
      readonly end: number;
    }
  | {
      /** Prompt size and cache-reusable prefix of every request on the path to the side's leaf. */
      readonly type: "cacheSeries";
      readonly requestId: number;
      readonly key: string;
      readonly side: CompareSide;
    }
  | {
      /**
       * A snapshot read, checked and held here (see worker/page-snapshot.ts), not on the page's thread: a file that
       * keeps its images is tens of MB of JSON, and a link may unpack to as much. The page gets it as it gets a
       * projection, with stand-ins, and asks for the rest by its id.
       */
      readonly type: "openSnapshot";
      readonly requestId: number;
      readonly source: SnapshotSource;
    }
  | {
      /** Items `[start, end)` of the held snapshot's payload list, as the page holds them (as "payloadItems"). */
      readonly type: "snapshotItems";
      readonly requestId: number;
      readonly id: number;
      readonly start: number;
      readonly end: number;
    }
  | {
      /** The held snapshot's request body as pretty JSON, or one item of its main list (as "payloadJson"). */
      readonly type: "snapshotJson";
      readonly requestId: number;
      readonly id: number;
      readonly item: number | undefined;
    }
  | {
      /** The held snapshot's request body as a pretty JSON file, for its Download (as "payloadFile"). */
      readonly type: "snapshotFile";
      readonly requestId: number;
      readonly id: number;
    }
  | {
      /** The snapshot is no longer shown: it need not be held. Answered "done". */
      readonly type: "closeSnapshot";
      readonly requestId: number;
      readonly id: number;
    };

/**
 * How far a cache series is: requests measured of those on the path, and the turns measured since the worker last
 * said (first at 0, then a few times a second), so the chart can be drawn as the series is measured.
 */
export interface SeriesProgress {
  readonly done: number;
  readonly total: number;
  readonly turns: readonly CacheTurn[];
}

export type Response =
  | { readonly type: "progress"; readonly requestId: number; readonly progress: LoadProgress }
  | { readonly type: "loaded"; readonly requestId: number; readonly summary: SessionSummary }
  | { readonly type: "entry"; readonly requestId: number; readonly detail: EntryDetail }
  /** `superseded`: a newer search came while this one waited to start; it was not read, and `matches` is empty. */
  | { readonly type: "search"; readonly requestId: number; readonly matches: Int32Array; readonly superseded?: true }
  | { readonly type: "project"; readonly requestId: number; readonly answer: ProjectionAnswer }
  | { readonly type: "ruleEffects"; readonly requestId: number; readonly effects: readonly RuleEffect[] }
  | { readonly type: "tokens"; readonly requestId: number; readonly result: PageTokenCount }
  | { readonly type: "accuracy"; readonly requestId: number; readonly accuracy: SessionTokenAccuracy }
  | { readonly type: "payloadJson"; readonly requestId: number; readonly json: string }
  | { readonly type: "payloadFile"; readonly requestId: number; readonly file: Blob }
  | { readonly type: "payloadItems"; readonly requestId: number; readonly items: readonly unknown[] }
  | { readonly type: "snapshot"; readonly requestId: number; readonly answer: Result<ShareStart> }
  | { readonly type: "shareOutput"; readonly requestId: number; readonly answer: Result<ShareOutput> }
  | { readonly type: "compare"; readonly requestId: number; readonly answer: Result<PageComparison> }
  | { readonly type: "compareChanges"; readonly requestId: number; readonly changes: readonly IndexedChange[] }
  | { readonly type: "cacheSeries"; readonly requestId: number; readonly answer: Result<CacheSeries> }
  | { readonly type: "openSnapshot"; readonly requestId: number; readonly answer: Result<PageSnapshot> }
  | { readonly type: "snapshotItems"; readonly requestId: number; readonly items: readonly unknown[] }
  | { readonly type: "snapshotJson"; readonly requestId: number; readonly json: string }
  | { readonly type: "snapshotFile"; readonly requestId: number; readonly file: Blob }
  | ({ readonly type: "seriesProgress"; readonly requestId: number } & SeriesProgress)
  | { readonly type: "models"; readonly requestId: number; readonly answer: Result<ModelsInUse> }
  | { readonly type: "done"; readonly requestId: number }
  | {
      readonly type: "error";
      readonly requestId: number;
      readonly message: string;
      /** Set when the request named a snapshot this worker does not hold (`SnapshotNotHeldError`). */
      readonly notHeld?: true;
    };

/** Liveness check, answered by the worker entry itself (not the engine) whenever its event loop is free. */
export type Ping = { readonly type: "ping" };
export type Pong = { readonly type: "pong" };
/**
 * The person is panning, zooming or scrolling (sent a few times a second while they do): the worker's paced work
 * waits until they stop, so that the page's frames have a core to themselves. Not answered.
 */
export type Gesture = { readonly type: "gesture" };
