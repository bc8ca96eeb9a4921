/**
 * The tree view's state: what the person changed (expanded runs, focus, transform) in `$state`, everything else
 * `$derived` — the layout from the session; the cards, boxes and lines to draw from the transform, snapped to a grid.
 *
 * Large sessions are laid out in the layout worker (layout-client.ts): until the first placement arrives `ready` is
 * false, and while a newer one is computed the previous layout stays on screen (`settled()` waits for it).
 */
import { untrack } from "svelte";
import { codedString } from "../../worker/coded-strings.ts";
import type { SessionSummary } from "../../worker/protocol.ts";
import { buildMore, CARD_BUDGET, cardsNow, isSettled, NO_CARDS } from "./cards.ts";
import { keyAction } from "./keyboard.ts";
import { kindLook } from "./kinds.ts";
import { NONE_EXPANDED, toggled } from "./runs.ts";
import { EMPTY_LAYOUT, layoutTree, nodeKey, nodesOfPaced, type TreeLayout, type TreeNode } from "./layout.ts";
import { hasLayoutWorker, openLayoutChannel, type LayoutChannel } from "./layout-client.ts";
import { layoutSource } from "./placement.ts";
import { bandsIn } from "./bands.ts";
import {
  centreOn,
  fitTransform,
  nodesIn,
  openingTransform,
  revealTransform,
  viewWindow,
  type ViewTransform,
} from "./viewport.ts";
import { ZoomController } from "./zoom.ts";

export interface TreeInput {
  readonly summary: SessionSummary;
  readonly leaf: number | undefined;
  readonly visible: Int32Array | undefined;
  /** The current search hit (highlighted, always drawn). */
  readonly hit: number | undefined;
}

const SCALE_EXTENT = [0.001, 2.5] as const;
/**
 * Cards (treeitems, with text) are drawn from this scale up (below it their text is under 10 px). At most CARD_CAP
 * are in view then, short of a very large screen: the cap only keeps such a screen's DOM small.
 */
const CARD_SCALE = 0.8;
const CARD_CAP = 600;
/** Nodes are also drawn as boxes in the SVG (under the cards), when at most BOX_CAP are in view; beyond, lines only. */
const BOX_CAP = 800;
/**
 * Sessions from this many entries are laid out in the layout worker; smaller ones here, at once (a few ms: no
 * worker start-up to wait for, and the first frame already shows the tree).
 */
export const WORKER_LAYOUT_FROM = 2_000;

/** Resolves in a task of its own: the page draws and answers input in between. */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** What a layout is computed from; a new object whenever any of it changes. */
interface LayoutInput {
  readonly visible: Int32Array | undefined;
  readonly expanded: ReadonlySet<number>;
  readonly leaf: number | undefined;
}

export class TreeViewState {
  expanded: ReadonlySet<number> = $state.raw(NONE_EXPANDED);
  /** The focused entry (its node is focused: a run when the entry is folded into one). */
  focusEntry: number | undefined = $state(undefined);
  transform: ViewTransform = $state.raw({ x: 0, y: 0, k: 1 });
  /** Why the tree could not be laid out, if it could not. */
  error: string | undefined = $state(undefined);
  readonly zoomer: ZoomController;
  #width = $state(0);
  #height = $state(0);
  // Replaced in the constructor; initialised here so that the derived fields below may refer to it (they run lazily).
  #input: () => TreeInput = () => {
    throw new Error("TreeViewState read before construction");
  };
  /** The latest placement from the worker, with the input it answers. */
  #placed: { readonly input: LayoutInput; readonly layout: TreeLayout } | undefined = $state.raw(undefined);
  #channel: LayoutChannel | undefined;
  #waiters: (() => void)[] = [];
  #disposed = false;

  constructor(input: () => TreeInput) {
    this.#input = input;
    this.zoomer = new ZoomController({
      scaleExtent: SCALE_EXTENT,
      onzoom: (t) => (this.transform = t),
      onready: (element) => {
        this.#width = element.clientWidth;
        this.#height = element.clientHeight;
        const t = openingTransform(this.layout, this.focused, this.#width, this.#height, this.transform.k);
        this.zoomer.transformTo(t);
      },
    });
    // The worker is the outside world: each new layout input is sent there, and the answer kept if still wanted.
    $effect(() => {
      if (!this.#inWorker) return;
      const wanted = this.#layoutInput;
      untrack(() => void this.#place(wanted));
    });
  }

  readonly columns = $derived(this.#input().summary.entries);
  readonly leaf = $derived(this.#input().leaf);
  readonly hit = $derived(this.#input().hit);
  readonly #layoutInput: LayoutInput = $derived({
    visible: this.#input().visible,
    expanded: this.expanded,
    leaf: this.leaf,
  });
  readonly #inWorker = $derived(this.columns.count >= WORKER_LAYOUT_FROM && hasLayoutWorker());
  readonly layout: TreeLayout = $derived(
    this.#inWorker ? (this.#placed?.layout ?? EMPTY_LAYOUT) : layoutTree(this.columns, this.#layoutInput),
  );
  /** A layout is there to draw (false only until the worker's first answer). */
  readonly ready = $derived(!this.#inWorker || this.#placed !== undefined);
  /** The layout drawn is the one for the current input. */
  readonly current = $derived(!this.#inWorker || this.#placed?.input === this.#layoutInput);
  /** Index of the focused node: the focused entry's, else the leaf's, else the first. */
  readonly focused: number = $derived(Math.max(0, this.#nodeOf(this.focusEntry ?? this.leaf)));

  // The window as separate numbers: each pan frame recomputes them, but what reads them reruns only when one changes.
  readonly #window = $derived(viewWindow(this.transform, this.#width, this.#height));
  readonly #x0 = $derived(this.#window.x0);
  readonly #y0 = $derived(this.#window.y0);
  readonly #x1 = $derived(this.#window.x1);
  readonly #y1 = $derived(this.#window.y1);
  readonly #rect = $derived({ x0: this.#x0, y0: this.#y0, x1: this.#x1, y1: this.#y1 });
  readonly #inView = $derived(nodesIn(this.layout, this.#rect, BOX_CAP));
  readonly #cardScale = $derived(this.transform.k >= CARD_SCALE);
  readonly #cards = $derived(this.#cardScale && !this.#inView.overflow && this.#inView.nodes.length <= CARD_CAP);

  /** Cards that should be drawn: those in view, when cards are drawn at all. */
  readonly #wanted: readonly number[] = $derived(this.#cards ? this.#inView.nodes : []);
  /** Keys of the cards built so far (grown by `buildMore`, a budget a frame). */
  #built: ReadonlySet<string> = $state.raw(NO_CARDS);
  readonly #keyOf = (i: number) => nodeKey(this.layout.nodes[i]!);

  /** Node index of the current search hit, or -1. */
  readonly hitNode = $derived(this.hit === undefined ? -1 : this.#nodeOf(this.hit));
  /** Node indices to draw as cards (in index order): see cards.ts; always the focused node, the leaf and the hit. */
  readonly rendered: readonly number[] = $derived(
    cardsNow(
      this.#wanted,
      [this.focused, this.#nodeOf(this.leaf), this.hitNode].filter((i) => i < this.layout.nodes.length),
      this.#built,
      this.#keyOf,
    ),
  );
  /** More cards are to be built on the next frames. */
  readonly pending = $derived(!isSettled(this.#wanted, this.rendered, this.#built, this.#keyOf));
  /** The SVG bands in view, and whether they draw node boxes (not when zoomed out over too many nodes). */
  readonly bands = $derived(
    bandsIn(this.layout, this.#y0, this.#y1, (entry) => kindLook(codedString(this.columns.kinds, entry)).colour),
  );
  readonly boxes = $derived(!this.#inView.overflow);

  #frame = 0;

  /** Viewport size in px. A new size keeps the point at the centre of the view where it is. */
  get width(): number {
    return this.#width;
  }
  set width(value: number) {
    this.#resize(value, this.#height);
  }
  get height(): number {
    return this.#height;
  }
  set height(value: number) {
    this.#resize(this.#width, value);
  }

  #resize(width: number, height: number): void {
    const dx = (width - this.#width) / 2;
    const dy = (height - this.#height) / 2;
    const sized = this.#width > 0 && this.#height > 0;
    this.#width = width;
    this.#height = height;
    const t = this.transform;
    if (sized && (dx !== 0 || dy !== 0)) this.zoomer.transformTo({ k: t.k, x: t.x + dx, y: t.y + dy });
  }

  async #place(input: LayoutInput): Promise<void> {
    const columns = this.columns;
    if (!this.#channel) {
      // A task of its own for the layout source and the worker's start, away from the one mounting the view.
      await nextTask();
      if (this.#disposed) return;
      this.#channel ??= openLayoutChannel(layoutSource(columns));
    }
    try {
      const placement = await this.#channel.place(input);
      const wanted = () => !this.#disposed && input === untrack(() => this.#layoutInput);
      if (!placement || !wanted()) return;
      const pause = async (): Promise<boolean> => {
        await nextTask();
        return wanted();
      };
      const layout = await nodesOfPaced(placement, columns, pause);
      if (!layout || !wanted()) return;
      this.#placed = { input, layout };
      this.error = undefined;
      if (untrack(() => this.current)) this.#wake();
    } catch (error) {
      this.error = `The tree could not be laid out: ${error instanceof Error ? error.message : String(error)}`;
      this.#wake();
    }
  }

  #wake(): void {
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /** Resolves once the layout drawn is the one for the current input (at once when it is), or layout failed. */
  settled(): Promise<void> {
    if (untrack(() => this.current)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #nodeOf(entry: number | undefined): number {
    return entry === undefined || entry < 0 || entry >= this.layout.nodeOfEntry.length
      ? -1
      : this.layout.nodeOfEntry[entry]!;
  }

  /**
   * Builds the missing cards, `CARD_BUDGET` per animation frame, until none is missing (see cards.ts). Building only
   * ever happens in the frame callback, never in an input handler, so that input and building never add up.
   */
  buildCards(): void {
    if (this.#frame !== 0) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      const { x, y, k } = this.transform;
      const centre = { x: (this.#width / 2 - x) / k, y: (this.#height / 2 - y) / k };
      const position = (i: number) => this.layout.nodes[i]!;
      this.#built = buildMore(this.#wanted, this.rendered, position, this.#keyOf, centre, CARD_BUDGET).built;
      if (this.pending) this.buildCards();
    });
  }

  dispose(): void {
    this.#disposed = true;
    cancelAnimationFrame(this.#frame);
    this.#channel?.close();
    this.#wake();
  }

  node(index: number): TreeNode | undefined {
    return this.layout.nodes[index];
  }

  /** Applies a key; returns the action taken (the caller moves DOM focus and calls onchoose). */
  press(key: string): ReturnType<typeof keyAction> {
    const action = keyAction(this.layout, this.focused, key);
    if (action?.type === "focus") this.focusNode(action.node);
    else if (action?.type === "expand") this.setExpanded(action.run, true);
    else if (action?.type === "collapse") this.setExpanded(action.run, false);
    return action;
  }

  focusNode(index: number): void {
    const node = this.layout.nodes[index];
    if (!node) return;
    this.focusEntry = node.entry;
    this.reveal(node);
  }

  setExpanded(run: number, open: boolean): void {
    this.expanded = toggled(this.expanded, run, open);
    this.focusEntry = run;
  }

  /**
   * Focuses `entry` (opening the run that hides it) and, once laid out, moves the view to it: the smallest pan
   * that shows it (`reveal`), or centred on it (`centre`).
   */
  async request(entry: number, move: "reveal" | "centre" = "reveal"): Promise<void> {
    const node = this.layout.nodes[this.#nodeOf(entry)];
    if (node?.kind === "run") this.setExpanded(node.entry, true);
    this.focusEntry = entry;
    await this.settled();
    const target = this.layout.nodes[this.#nodeOf(entry)];
    if (!target) return;
    if (move === "reveal") this.reveal(target);
    else this.zoomer.transformTo(centreOn(this.transform, target.x, target.y, this.#width, this.#height));
  }

  reveal(node: TreeNode): void {
    const next = revealTransform(this.transform, node.x, node.y, this.#width, this.#height);
    if (next !== this.transform) this.zoomer.transformTo(next);
  }

  fit(): void {
    this.zoomer.transformTo(fitTransform(this.layout.bounds, this.#width, this.#height, SCALE_EXTENT));
  }
}
