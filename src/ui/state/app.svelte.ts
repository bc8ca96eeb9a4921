/**
 * App state: the library plus what the person is looking at — a session, a leaf, a filter, a search.
 * State lives here; components read it through context and call its methods. `$effect` is used only in
 * App.svelte to reach the outside world (the URL, saved selection).
 */
import type { TreeFilter } from "../../core/session/filter.ts";
import type { SessionClient } from "../../worker/client.ts";
import type { EntryDetail, SessionSummary } from "../../worker/protocol.ts";
import type { WorkerRestart } from "../../worker/worker-client.ts";
import { inDisplayOrder } from "../tree/forest.ts";
import type { PickedFile } from "../files/drop.ts";
import { LibraryState } from "./library.svelte.ts";
import { ProjectionState } from "./projection.svelte.ts";
import { formatFragment, parseFragment, type DeepLink } from "./url.ts";

/** The entry index for an id (the last entry with it, as pi) or "line:N". */
export function resolveLeafRef(summary: SessionSummary, ref: string): number | undefined {
  const { ids, lines, count } = summary.entries;
  const byLine = /^line:(\d+)$/.exec(ref);
  for (let i = count - 1; i >= 0; i -= 1) {
    if (byLine ? lines[i] === Number(byLine[1]) : ids[i] === ref) return i;
  }
  return undefined;
}

/** How to name an entry in a link: its id when that id is unique, else its line. */
export function leafRef(summary: SessionSummary, index: number): string {
  const id = summary.entries.ids[index];
  if (id !== undefined && resolveLeafRef(summary, id) === index && summary.entries.ids.indexOf(id) === index) return id;
  return `line:${summary.entries.lines[index]}`;
}

export class AppState {
  readonly library: LibraryState;
  selectedKey: string | undefined = $state(undefined);
  leaf: number | undefined = $state(undefined);
  filter: TreeFilter = $state("default");
  query = $state("");
  visible: Int32Array | undefined = $state.raw(undefined);
  detail: EntryDetail | undefined = $state.raw(undefined);
  focusRequest: number | undefined = $state(undefined);
  /** Entries matching the search query, in the tree's display order; undefined without a query. */
  hits: Int32Array | undefined = $state.raw(undefined);
  /** Index in `hits` of the hit the tree is showing. */
  hit = $state(0);
  /** The tree centres on this entry whenever it is replaced (a search hit; the leaf after a filter change). */
  centreRequest: { readonly entry: number } | undefined = $state.raw(undefined);

  readonly projection: ProjectionState;
  /** The details tab beside the tree; it stays when another session is chosen. */
  tab: "inspector" | "payload" | "compare" | "diagnostics" = $state("inspector");

  /**
   * The session shown. Derived, not a getter: what reads it (the whole session view) must hear of a new session
   * only, not of every session listed beside it, or each file of a folder being opened redraws the view.
   */
  readonly selected: SessionSummary | undefined = $derived.by(() =>
    this.library.sessions.find((s) => s.key === this.selectedKey),
  );

  constructor(client: SessionClient) {
    this.library = new LibraryState(client);
    this.projection = new ProjectionState(client, (level, message) => this.library.notify(level, message));
  }

  /** Restores the library, then the deep link (if any) or the saved selection; opens the sample on a first visit. */
  async start(hash: string, loadSample: () => Promise<{ file: Blob; name: string }>): Promise<void> {
    await this.projection.restore();
    const link = parseFragment(hash);
    // The session shown last time is read before the others: when the link names it (the page was reloaded) or
    // there is no link, it is shown while they are read, which for a folder of sessions takes seconds.
    const { firstVisit, rest } = await this.library.restore();
    const early = link.session ? this.#linked(link) : this.#savedSelection();
    const shownEarly = early !== undefined && this.#opening === 0 && this.selectedKey === undefined;
    if (shownEarly) await this.#showFromStart(early, link);
    await rest;
    // The sample opens by itself on a first visit, unless the person opened a file first: it never takes their view.
    if (firstVisit && this.library.sessions.length === 0 && this.#opening === 0) {
      const sample = await loadSample();
      if (this.#opening === 0) await this.open([sample], true);
    }
    const target = this.#linked(link);
    if (link.session && !target)
      this.library.notify(
        "warning",
        `The link names session ${link.session}, which is not open here. Open its file to follow the link.`,
      );
    // Files the person opened while the library was being restored are what they want to see.
    if (this.#opening > 0 || shownEarly) return;
    const session =
      target ?? (this.selectedKey === undefined ? (this.#savedSelection() ?? this.library.sessions[0]) : undefined);
    if (session) await this.#showFromStart(session, link);
  }

  /** The open session a deep link names, by its id or file name. */
  #linked(link: DeepLink): SessionSummary | undefined {
    const named = link.session;
    return named ? this.library.sessions.find((s) => s.sessionId === named || s.fileName === named) : undefined;
  }

  #savedSelection(): SessionSummary | undefined {
    return this.library.sessions.find((s) => s.key === this.library.selection.key);
  }

  /** Shows a session as the page opens: at the link's entry when the link names it, else where it was left. */
  async #showFromStart(session: SessionSummary, link: DeepLink): Promise<void> {
    const ref = this.#linked(link)?.key === session.key ? link.leaf : undefined;
    const leaf =
      ref !== undefined
        ? resolveLeafRef(session, ref)
        : session.key === this.library.selection.key
          ? this.library.selection.leaf
          : undefined;
    if (ref !== undefined && leaf === undefined)
      this.library.notify("warning", `The link's entry ${ref} is not in ${session.fileName}; showing its last entry.`);
    await this.select(session.key, leaf);
  }

  /** Rises with every open the person makes: when two overlap, the later one is shown. */
  #opening = 0;
  /** Rises with every selection and every leaf chosen: when they overlap, the later one wins. */
  #selecting = 0;
  /** Searches on their way, and hit steps asked for meanwhile (see `stepHit`). */
  #searching = 0;
  #stepsWaiting = 0;

  /**
   * Opens files and shows the first. `automatic` (the first-visit sample) is shown only if the person has not
   * opened anything since the page loaded and nothing else is shown.
   */
  async open(files: readonly PickedFile[], automatic = false, atOnce?: number): Promise<void> {
    const ticket = automatic ? 0 : ++this.#opening;
    const opened = await this.library.open(files, atOnce);
    if (ticket !== this.#opening) return; // something newer was opened meanwhile: listed, not shown
    if (automatic && (this.selectedKey !== undefined || this.#selecting > 0)) return;
    const first = opened[0];
    if (first) await this.select(first.key);
  }

  async select(key: string, leaf?: number): Promise<void> {
    const summary = this.library.sessions.find((s) => s.key === key);
    if (!summary) return;
    const chosen = leaf ?? summary.defaultLeaf;
    const ticket = ++this.#selecting;
    this.query = "";
    this.hits = undefined;
    this.detail = undefined;
    // The tree is laid out once, with the filter already applied, so it opens centred on the leaf.
    const found = await this.#search(key, chosen);
    if (ticket !== this.#selecting) return; // a newer selection was made meanwhile
    this.visible = found?.visible;
    this.selectedKey = key;
    await this.chooseLeaf(chosen);
  }

  async chooseLeaf(index: number | undefined): Promise<void> {
    // A leaf chosen now wins over a selection still on its way, which would show its own leaf when it lands.
    this.#selecting += 1;
    this.leaf = index;
    this.focusRequest = index;
    const key = this.selectedKey;
    if (key === undefined || index === undefined) return this.projection.clear();
    void this.projection.refresh(key, index);
    try {
      const detail = await this.library.client.entry(key, index);
      if (detail) this.detail = detail;
    } catch (error) {
      this.library.notify("error", error instanceof Error ? error.message : String(error));
    }
  }

  async setSearch(query: string, filter: TreeFilter): Promise<void> {
    this.query = query;
    this.filter = filter;
    await this.refreshSearch();
  }

  async refreshSearch(): Promise<void> {
    const key = this.selectedKey;
    if (key === undefined) return;
    this.#searching += 1;
    let found: { readonly visible: Int32Array | undefined } | undefined;
    try {
      found = await this.#search(key, this.leaf);
    } finally {
      this.#searching -= 1;
    }
    // Overtaken by a newer search (typing sends one per key), which shows its own hits when it lands.
    if (found === undefined || this.selectedKey !== key) return;
    const visible = found.visible;
    this.visible = visible;
    const columns = this.selected?.entries;
    const previous = this.hits;
    this.hits = this.query.trim() && visible && columns ? inDisplayOrder(columns, visible) : undefined;
    // Typing on without changing what is found keeps the hit the person stepped to; new hits start at the first.
    const same = previous?.length === this.hits?.length && this.hits?.every((e, i) => e === previous?.[i]);
    if (!same) this.hit = 0;
    // Steps asked for while the hits of what was typed were on their way are taken on those hits.
    if (this.#searching === 0 && this.#stepsWaiting !== 0) {
      const steps = this.#stepsWaiting;
      this.#stepsWaiting = 0;
      this.hit = this.#stepped(steps) ?? this.hit;
    }
    // The layout changed: show the current hit, else the leaf again (the leaf itself stays).
    const entry = this.hits?.[this.hit] ?? this.leaf;
    if (entry !== undefined) this.centreRequest = { entry };
  }

  /**
   * Moves the tree to the next (1) or previous (-1) search hit, round the end; the leaf stays. Asked while a search
   * is on its way (Enter pressed right after typing), the step waits for its hits.
   */
  stepHit(delta: number): void {
    if (this.#searching > 0) {
      this.#stepsWaiting += delta;
      return;
    }
    const hit = this.#stepped(delta);
    if (hit === undefined) return;
    this.hit = hit;
    this.centreRequest = { entry: this.hits![hit]! };
  }

  #stepped(delta: number): number | undefined {
    const hits = this.hits;
    if (!hits || hits.length === 0) return undefined;
    return (((this.hit + delta) % hits.length) + hits.length) % hits.length;
  }

  /**
   * The entries the filter and search show (`visible` undefined when they show everything); undefined when a newer
   * search overtook this one.
   */
  async #search(
    key: string,
    leaf: number | undefined,
  ): Promise<{ readonly visible: Int32Array | undefined } | undefined> {
    try {
      const matches = await this.library.client.search(key, this.query, this.filter, leaf);
      if (matches === undefined) return undefined;
      return { visible: this.filter === "all" && !this.query ? undefined : matches };
    } catch (error) {
      this.library.notify("error", error instanceof Error ? error.message : String(error));
      return { visible: undefined };
    }
  }

  async remove(key: string): Promise<void> {
    await this.library.remove(key);
    if (this.selectedKey === key) await this.#selectAnother();
  }

  async #selectAnother(): Promise<void> {
    const next = this.library.sessions[0];
    if (next) return this.select(next.key);
    this.selectedKey = undefined;
    this.detail = undefined;
    this.projection.clear();
  }

  /**
   * A new session worker holds the sessions again: the library says what happened, and the view is asked for
   * again — unless asking for it is what stopped the worker twice. Interrupted files are retried one at a time.
   */
  async workerRestarted(restart: WorkerRestart): Promise<void> {
    this.library.workerRestarted(restart, (files) => void this.open(files, false, 1));
    const key = this.selectedKey;
    if (key === undefined) return;
    if (!this.library.sessions.some((s) => s.key === key)) return this.#selectAnother();
    if (restart.repeated) return this.projection.clear();
    await this.refreshSearch();
    const leaf = this.leaf;
    if (leaf === undefined || this.selectedKey !== key) return;
    void this.projection.refresh(key, leaf); // not chooseLeaf: the focus stays where the person left it
    try {
      const detail = await this.library.client.entry(key, leaf);
      if (detail && this.selectedKey === key && this.leaf === leaf) this.detail = detail;
    } catch (error) {
      this.library.notify("error", error instanceof Error ? error.message : String(error));
    }
  }

  /** The fragment that deep-links to the current view. */
  get fragment(): string {
    const s = this.selected;
    if (!s) return "";
    return formatFragment({
      session: s.sessionId ?? s.fileName,
      ...(this.leaf !== undefined ? { leaf: leafRef(s, this.leaf) } : {}),
    });
  }
}
