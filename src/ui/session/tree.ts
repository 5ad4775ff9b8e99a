// The session tree as indented lines, for `awl sessions tree` and /tree: the
// active path from the root to the leaf (●), each branch point's other paths
// indented under it, labels in brackets, compactions and branch summaries by
// name, and under the leaf an answer a kill cut off (read from its partials,
// docs/session-format.md), marked interrupted. `all` draws every path in full; `prompts` shows the person's prompts
// (and compactions, summaries, labels, the leaf) with each abandoned path
// folded into one line: its first prompt and its size; `labelled` only what
// has a label.

import { isTargetKind } from "../../session";
import type { SessionTree, TreeNode } from "../../session/tree";
import type { Colors } from "../render/colors";
import { fitWidth, oneLine } from "../render/format";
import { safeText } from "../render/safe-text";

export const TREE_FILTERS = ["prompts", "all", "labelled"] as const;
export type TreeFilter = (typeof TREE_FILTERS)[number];

export interface TreeRow {
  /** The entry the row stands for (for a folded path: its newest entry that can be gone to), if any. */
  node?: TreeNode;
  text: string;
}

/** The rows of the tree, in drawing order. */
export function treeRows(tree: SessionTree, filter: TreeFilter, width: number, c?: Colors): TreeRow[] {
  const children = new Map<TreeNode | undefined, TreeNode[]>();
  for (const node of tree.nodes) {
    if (node.bookkeeping) continue;
    const list = children.get(node.parent);
    if (list) list.push(node);
    else children.set(node.parent, [node]);
  }
  const rows: TreeRow[] = [];
  const clock = clockOf(new Date());
  const shows = (n: TreeNode) => filter === "all" || n.id === tree.leafId || n.label !== undefined || (filter === "prompts" && (n.prompt || (n.kind !== "message" && isTargetKind(n.kind))));
  // Iterative: a session is one long chain, thousands deep; along a chain (one child) nothing is allocated.
  const stack: { node: TreeNode; depth: number }[] = (children.get(undefined) ?? []).map((node) => ({ node, depth: 0 })).reverse();
  while (stack.length) {
    let { node, depth } = stack.pop()!;
    for (;;) {
      if (shows(node)) rows.push({ node, text: line(node, depth, tree.leafId, width, clock, c) });
      if (node.id === tree.leafId && tree.interrupted) rows.push({ text: killedLine(tree.interrupted, depth, width, clock, c) });
      const next = children.get(node);
      if (!next) break;
      const main = next.length === 1 ? next[0]! : (next.find((n) => n.active) ?? next[0]!);
      if (next.length > 1) {
        // The other paths come right under the branch point, before the main one goes on: in full (indented), or folded.
        const others = next.filter((n) => n !== main).reverse();
        if (filter === "all") {
          stack.push({ node: main, depth }, ...others.map((other) => ({ node: other, depth: depth + 1 })));
          break;
        }
        for (const other of others) rows.push(folded(other, children, depth + 1, width, c));
      }
      node = main;
    }
  }
  return rows;
}

/** Below this many columns a row has no time (a select at 40 columns leaves a row 24). */
const NARROW = 40;

/** `○ 3da774e8 17:41 you  Why is the offset ignored?  [before the refactor]` */
function line(n: TreeNode, depth: number, leafId: string | null, width: number, clock: (iso: string) => string, c?: Colors): string {
  const mark = n.id === leafId ? "◉" : n.active ? "●" : "○";
  const label = n.label === undefined ? "" : `  [${oneLine(n.label, width >= NARROW ? 40 : 12)}]`;
  // Ids and kinds come from the file like any text: shown safe (oneLine's text already is).
  const text = row({ depth, mark, id: safeText(n.id), time: clock(n.time), who: safeText(who(n)), words: n.text, after: label }, width);
  if (!c) return text;
  return n.active ? (n.id === leafId ? c.bold(text) : text) : c.dim(text);
}

/**
 * `◌          17:41 awl     number 1, number 2, …  (interrupted)`: the answer
 * a kill cut off after the leaf, read from its partials. It is no entry (the
 * next prompt writes it), so it has no id and cannot be gone to.
 */
function killedLine(killed: NonNullable<SessionTree["interrupted"]>, depth: number, width: number, clock: (iso: string) => string, c?: Colors): string {
  const text = row({ depth, mark: "◌", id: "", time: clock(killed.time), who: "awl", words: killed.text, after: "  (interrupted)" }, width);
  return c ? c.dim(text) : text;
}

/** One row: mark, id, time, who, then the words in the room left beside what comes after them. */
function row(r: { depth: number; mark: string; id: string; time: string; who: string; words: string; after: string }, width: number): string {
  const indent = "  ".repeat(r.depth);
  // A narrow row keeps the words: the time and the column they line up in go first.
  const head = width >= NARROW ? `${indent}${r.mark} ${r.id.padEnd(ID_COLUMN)} ${r.time} ${r.who.padEnd(7)}` : `${indent}${r.mark} ${r.id ? `${r.id} ` : ""}${r.who}`;
  // On a narrow terminal the words give way, down to one column, and the row is cut to the width at last: a row
  // wider than the list would be broken onto a second row by the select, mid-word.
  const room = Math.max(1, width - Bun.stringWidth(head) - Bun.stringWidth(r.after) - 1);
  return fitWidth(`${head} ${oneLine(r.words, room)}${r.after}`, width);
}

/** An entry id's width: a row without one (a killed answer) keeps the columns of the rows around it. */
const ID_COLUMN = 8;

/** An abandoned path as one line: where it starts, its first prompt, how many entries; choosing it goes to its newest entry. */
function folded(start: TreeNode, children: Map<TreeNode | undefined, TreeNode[]>, depth: number, width: number, c?: Colors): TreeRow {
  let size = 0;
  let prompt: TreeNode | undefined;
  let newest: TreeNode | undefined;
  for (const stack = [start]; stack.length; ) {
    const node = stack.pop()!;
    size++;
    if (node.prompt && (!prompt || node.offset < prompt.offset)) prompt = node;
    if (isTargetKind(node.kind) && !node.toolCalls && (!newest || node.offset > newest.offset)) newest = node;
    stack.push(...(children.get(node) ?? []));
  }
  const entries = `${size} entr${size === 1 ? "y" : "ies"}`;
  const head = `${"  ".repeat(depth)}└ ${safeText(start.id)} ${width >= NARROW ? `branch of ${entries}` : entries}`;
  const room = Math.max(1, width - Bun.stringWidth(head) - 3);
  const text = fitWidth(`${head}${prompt ? `: ${oneLine(prompt.text, room)}` : ""}`, width); // one row, as line()'s
  return { node: newest, text: c ? c.dim(text) : text };
}

function who(n: TreeNode): string {
  if (n.kind === "message") return n.role === "assistant" ? "awl" : n.role === "system" ? "system" : n.prompt ? "you" : "tools";
  if (n.kind === "branch_summary") return "summary";
  return n.kind;
}

/**
 * `17:41`, local time; the date when it is not today. Local time needs the
 * time zone's rules (slow, for thousands of rows), and a UTC minute has one
 * local minute: what awl writes (toISOString) is remembered per minute.
 */
function clockOf(now: Date): (iso: string) => string {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const to = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime();
  const seen = new Map<string, string>();
  const clock = (iso: string) => {
    const d = new Date(iso);
    const at = d.getTime();
    if (Number.isNaN(at)) return "--:--";
    const time = `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
    return at >= from && at < to ? time : `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")} ${time}`;
  };
  return (iso) => {
    if (!UTC_ISO.test(iso)) return clock(iso);
    const minute = iso.slice(0, 16);
    let shown = seen.get(minute);
    if (shown === undefined) seen.set(minute, (shown = clock(iso)));
    return shown;
  };
}

const UTC_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;

/** One JSON array, file order: what `awl sessions tree --json` prints for scripts. */
export function treeJson(tree: SessionTree): string {
  return JSON.stringify(
    tree.nodes.map((n) => ({ id: n.id, parentId: n.parentId, kind: n.kind, role: n.role ?? null, text: n.text, label: n.label ?? null, time: n.time, active: n.active })),
    null,
    2,
  );
}
