/**
 * The tree's keys, as in the WAI-ARIA tree pattern, as a pure function from (layout, focused node, key) to an action.
 * Up/Down: previous/next in display order. Left: fold an expanded run at its first entry, else the parent.
 * Right: expand a run, else the first child. Home/End: first/last. Enter or Space: expand a run, else choose the leaf.
 */
import type { TreeLayout } from "./layout.ts";

export type TreeAction =
  | { readonly type: "focus"; readonly node: number }
  | { readonly type: "expand"; readonly run: number }
  | { readonly type: "collapse"; readonly run: number }
  | { readonly type: "choose"; readonly entry: number };

/** What `key` does with `focused` (a node index) focused; undefined when the key is not the tree's. */
export function keyAction(layout: TreeLayout, focused: number, key: string): TreeAction | undefined {
  const { nodes, order } = layout;
  const node = nodes[focused];
  if (!node) return nodes.length > 0 ? { type: "focus", node: order[0]! } : undefined;
  const position = order.indexOf(focused);
  const focus = (target: number | undefined): TreeAction | undefined =>
    target === undefined || target < 0 ? undefined : { type: "focus", node: target };
  switch (key) {
    case "ArrowDown":
      return focus(order[position + 1]);
    case "ArrowUp":
      return focus(order[position - 1]);
    case "Home":
      return focus(order[0]);
    case "End":
      return focus(order[order.length - 1]);
    case "ArrowLeft":
      return node.isRunStart ? { type: "collapse", run: node.entry } : focus(node.parent);
    case "ArrowRight":
      if (node.kind === "run") return { type: "expand", run: node.entry };
      return node.childCount > 0 ? focus(focused + 1) : undefined;
    case "Enter":
    case " ":
      return node.kind === "run" ? { type: "expand", run: node.entry } : { type: "choose", entry: node.entry };
    default:
      return undefined;
  }
}
