/**
 * The Compare tab: side A is what the person is looking at (leaf, rules, model); side B differs from it in one
 * thing — a preset, a model or a leaf. The comparison and both sides' cache series are asked of the worker
 * whenever a side changes (the latest request wins).
 */
import type { CacheSeries, CacheTurn } from "../../core/diff/cache-series.ts";
import { seriesOf } from "../../core/diff/series-totals.ts";
import type { CompareSide } from "../../core/diff/sides.ts";
import type { RuleSettings } from "../../core/project/rules.ts";
import type { Preset } from "../../core/project/presets.ts";
import type { Result } from "../../core/result.ts";
import type { SessionClient } from "../../worker/client.ts";
import type { ChangeRange, IndexedChange, PageComparison } from "../../worker/page-compare.ts";

export type CompareBy = "preset" | "model" | "leaf";

/** Side A as the app holds it. */
export interface CurrentView {
  readonly key: string;
  readonly leaf: number;
  readonly settings: RuleSettings;
  readonly model: string | undefined;
  /** The preset the settings started from, and whether they were changed since. */
  readonly preset: string;
  readonly modified: boolean;
}

export interface SeriesState {
  readonly pending: boolean;
  /** While pending: requests measured so far, of how many (once the worker has said). */
  readonly progress?: { readonly done: number; readonly total: number };
  /** While pending: the part of the series measured so far, drawn until the whole of it comes. */
  readonly measured?: CacheSeries;
  readonly answer?: Result<CacheSeries>;
  readonly error?: string;
}

const sideKey = (key: string, side: CompareSide) => JSON.stringify([key, side.leaf, side.model ?? null, side.settings]);

export class CompareState {
  by: CompareBy = $state("preset");
  /** B's preset (compare by preset). */
  preset: string = $state("Lean");
  /** B's model, "PROVIDER/ID" (compare by model); undefined = the session's. */
  model: string | undefined = $state(undefined);
  /** B's leaf (compare by leaf), and the session it belongs to. */
  leaf: { readonly key: string; readonly index: number } | undefined = $state.raw(undefined);
  /** The next entry chosen in the tree becomes B's leaf. */
  picking = $state(false);
  showJson = $state(false);

  comparison: Result<PageComparison> | undefined = $state.raw(undefined);
  pending = $state(false);
  error: string | undefined = $state(undefined);
  seriesA: SeriesState = $state.raw({ pending: false });
  seriesB: SeriesState = $state.raw({ pending: false });

  readonly #client: SessionClient;
  #asked = "";
  /** What the comparison shown was asked with: more of its changes are read with the same. */
  #shown:
    { readonly key: string; readonly a: CompareSide; readonly b: CompareSide; readonly json: boolean } | undefined;
  readonly #seriesAsked: Record<"A" | "B", string> = { A: "", B: "" };

  constructor(client: SessionClient) {
    this.#client = client;
  }

  /** Side B for this view of A, or why there is none yet. */
  sideB(a: CurrentView, presets: readonly Preset[]): CompareSide | string {
    const base: CompareSide = { leaf: a.leaf, settings: a.settings, model: a.model };
    switch (this.by) {
      case "preset": {
        const preset = presets.find((p) => p.name === this.preset);
        return preset ? { ...base, settings: preset.settings } : `There is no preset named “${this.preset}”.`;
      }
      case "model":
        return { ...base, model: this.model };
      case "leaf":
        return this.leaf?.key === a.key
          ? { ...base, leaf: this.leaf.index }
          : "Choose B's leaf: type an entry id or line, or pick it in the tree.";
    }
  }

  /** Called by the tree while picking: the entry becomes B's leaf instead of the view's. */
  pickLeaf(key: string, index: number): void {
    this.leaf = { key, index };
    this.by = "leaf";
    this.picking = false;
  }

  /** Compares A with B, and measures both sides' cache series when they changed. */
  async refresh(key: string, a: CompareSide, b: CompareSide): Promise<void> {
    const asked = JSON.stringify([sideKey(key, a), sideKey(key, b), this.showJson]);
    if (asked !== this.#asked) {
      this.#asked = asked;
      void this.#compare(key, a, b);
    }
    void this.#series("A", key, a);
    void this.#series("B", key, b);
  }

  async #compare(key: string, a: CompareSide, b: CompareSide): Promise<void> {
    this.pending = true;
    const json = this.showJson;
    try {
      const answer = await this.#client.compare(key, a, b, json);
      if (answer === undefined) return; // a newer comparison is on its way
      this.#shown = { key, a, b, json };
      this.comparison = answer;
      this.error = undefined;
      this.pending = false;
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
      this.pending = false;
    }
  }

  /** More changes of the comparison shown (its answer carries the first ones). */
  readChanges(range: ChangeRange): Promise<readonly IndexedChange[]> {
    const shown = this.#shown;
    if (!shown) return Promise.reject(new Error("no comparison is shown"));
    return this.#client.compareChanges(shown.key, shown.a, shown.b, shown.json, range);
  }

  async #series(slot: "A" | "B", key: string, side: CompareSide): Promise<void> {
    const asked = sideKey(key, side);
    if (this.#seriesAsked[slot] === asked) return;
    this.#seriesAsked[slot] = asked;
    const set = (state: SeriesState) => (slot === "A" ? (this.seriesA = state) : (this.seriesB = state));
    set({ pending: true });
    let turns: readonly CacheTurn[] = [];
    try {
      const answer = await this.#client.cacheSeries(key, side, slot, ({ done, total, turns: more }) => {
        if (this.#seriesAsked[slot] !== asked) return;
        if (more.length > 0) turns = [...turns, ...more];
        set({ pending: true, progress: { done, total }, measured: seriesOf(turns) });
      });
      if (answer !== undefined) set({ pending: false, answer });
    } catch (error) {
      if (this.#seriesAsked[slot] === asked)
        set({ pending: false, error: error instanceof Error ? error.message : String(error) });
    }
  }

  /**
   * The comparison is no longer shown: a series still being measured is stopped (on a long session it takes the
   * worker minutes) and asked for again by the next refresh.
   */
  stop(): void {
    for (const slot of ["A", "B"] as const) {
      if (!(slot === "A" ? this.seriesA : this.seriesB).pending) continue;
      this.#client.stopSeries(slot);
      this.#seriesAsked[slot] = "";
      if (slot === "A") this.seriesA = { pending: false };
      else this.seriesB = { pending: false };
    }
  }

  /** Forget what was asked (a session was closed): the next refresh asks again. */
  reset(): void {
    this.#asked = "";
    this.#seriesAsked.A = "";
    this.#seriesAsked.B = "";
    this.comparison = undefined;
    this.#shown = undefined;
    this.seriesA = { pending: false };
    this.seriesB = { pending: false };
  }
}
