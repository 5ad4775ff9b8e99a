// The whole entry tree of a session file, for `awl sessions tree`, /tree,
// /rewind and targets named by an id prefix. Every line is read (in bounded
// blocks, judged by the same codec as open), but only what the tree shows is
// kept of each entry: its place, its kind and the first line of its text,
// so a 100 MB session costs a few MB here.
import { closeSync, fstatSync, openSync } from "node:fs";
import { UsageError } from "../../errors";
import { LineError, parseLine, isPrompt, readLineAt, saidWords, scanLines, answerFromPartials, applyLabel, decisionsOf, isBookkeeping, isTargetKind, kindOf, leafAfter, readsThrough, rowOf, slimEntry } from "../log";
import { firstLine as lineOf, messageHead } from "./heads";
import type { PartialEntry, SessionEntry, SessionHeader } from "../log";

export interface TreeNode {
  id: string;
  parentId: string | null;
  /** The entry's `type`, also for kinds this version does not know. */
  kind: string;
  role?: "system" | "user" | "assistant";
  /** The first line of what it says (a prompt, an answer, a tool call, a summary, a label). */
  text: string;
  label?: string;
  time: string;
  /** On the path from the root to the active leaf. */
  active: boolean;
  /** Bookkeeping (a leaf move, a label): hangs off the conversation, never part of a path. */
  bookkeeping: boolean;
  /** A user message with the person's words: a turn starts here. */
  prompt: boolean;
  /** An assistant message that calls tools: a path ending here leaves them unanswered (a fork cannot end here). */
  toolCalls: boolean;
  /** The provider/model a prompt or tool results were sent to (stamped user messages). */
  model?: { provider: string; model: string };
  /** Where its line starts in the file. */
  offset: number;
  /** Where its line ends (its newline, or the end of the file). */
  end: number;
  /** The entry its parentId names (the nearest earlier one with that id), when the file holds it; a partial's own parent when it names a partial (readsThrough). */
  parent?: TreeNode;
}

export interface SessionTree {
  header: SessionHeader;
  /** Every entry, in file order. */
  nodes: TreeNode[];
  leafId: string | null;
  /** Entries by id (the latest with each id, as a parentId names them). */
  byId: Map<string, TreeNode>;
  /** The answer a kill cut off after the leaf (its partials, with no message after them): its first line, and when its last partial was written. */
  interrupted?: { text: string; time: string };
}

/**
 * Reads the tree of the session file at `path`. Message lines in awl's own
 * key order are read by their head (heads.ts); every other line is parsed and
 * checked whole. A damaged line is an error naming it; a torn last line (what
 * a crash leaves, and the next open trims) is left out. Without `text`, only
 * what /tree draws unless asked for all has its words (prompts, the leaf,
 * labelled entries, compactions and summaries): a fork, a move or a drawing
 * of prompts needs places, not the first line of every tool result, and those
 * words are most of the reading.
 */
export function readSessionTree(path: string, { text = true }: { text?: boolean } = {}): SessionTree {
  const fd = openSync(path, "r");
  try {
    const labels = new Map<string, string>();
    // Nodes are made as lines are read, and finished (path, labels, parents) at the end: no second copy of 24,000 entries.
    const nodes: TreeNode[] = [];
    // The latest node with each id: a parentId or a leaf's target names the nearest earlier entry with that id.
    const byId = new Map<string, TreeNode>();
    let leafNode: TreeNode | undefined;
    /** The last stamp made a node's model: the next node with the same one shares it (most do). */
    let model: TreeNode["model"];
    let header: SessionHeader | undefined;
    const add = (entry: SessionEntry, offset: number, end: number, text: string, prompt: boolean, toolCalls: boolean) => {
      let parent = entry.parentId === null ? undefined : byId.get(entry.parentId);
      if (parent && readsThrough(parent.kind)) parent = parent.parent;
      applyLabel(labels, entry);
      const message = entry.type === "message";
      // One shape for every node (no spreads): 24,000 of them are made before the JIT has warmed up.
      const node: TreeNode = {
        id: entry.id,
        parentId: entry.parentId,
        kind: kindOf(entry),
        role: message ? entry.message.role : undefined,
        text,
        label: undefined,
        time: entry.timestamp,
        active: false,
        bookkeeping: isBookkeeping(entry),
        prompt,
        toolCalls,
        model: message && entry.provider && entry.model ? (model?.provider === entry.provider && model.model === entry.model ? model : (model = { provider: entry.provider, model: entry.model })) : undefined,
        offset,
        end,
        parent,
      };
      nodes.push(node);
      byId.set(node.id, node);
      const leaf = leafAfter(entry);
      if (leaf === "entry") leafNode = node;
      else if (leaf !== "unchanged") leafNode = byId.get(leaf.target) ?? leafNode;
    };
    const take = (bytes: Uint8Array, offset: number, number: number, last = false) => {
      // A last line with no newline may be torn (open trims it): only a whole parse tells.
      const head = header && !last && messageHead(bytes, text);
      if (head) return add(head.entry, offset, offset + bytes.length, head.text, head.prompt, head.toolCalls);
      let parsed: ReturnType<typeof parseLine>;
      try {
        parsed = parseLine(bytes);
      } catch (error) {
        if (error instanceof LineError) throw new UsageError(`${path}:${number}: ${error.reason}`);
        throw error;
      }
      if (!parsed) return;
      if (!header) {
        if (parsed.kind !== "header") throw new UsageError(`${path}:${number}: the first line is not a session header`);
        header = parsed.header;
      } else if (parsed.kind === "entry") {
        const entry = parsed.entry;
        const toolCalls = entry.type === "message" && entry.message.content.some((b) => b.type === "toolUse");
        add(slimEntry(entry), offset, offset + bytes.length, firstLine(entry), isPrompt(entry), toolCalls);
      } else throw new UsageError(`${path}:${number}: a second session header`);
    };
    const tooLong = (number: number): never => {
      throw new UsageError(`${path}:${number}: the line is longer than any session line awl writes`);
    };
    // A block of 1 MB, not the reader's 4: lines are a few KB, and a fork's peak memory is mostly this reading.
    const rest = scanLines(fd, 0, fstatSync(fd).size, (line) => take(line.bytes, line.offset, line.number), tooLong, Buffer.allocUnsafe(1 << 20));
    try {
      if (rest.bytes.length) take(rest.bytes, rest.offset, rest.number, true);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error; // a torn last line: left out
    }
    if (!header) throw new UsageError(`${path}: empty file, not a session (no header line)`);
    for (let node = leafNode; node; node = node.parent) node.active = true;
    for (const node of byId.values()) node.label = labels.get(node.id);
    const leafId = leafNode?.id ?? null;
    // Without text, the words a drawing shows besides prompts (the leaf's, a label's entry's) are read from their lines.
    if (!text) for (const node of nodes) if (node.kind === "message" && !node.prompt && (node.id === leafId || node.label !== undefined)) node.text = textAt(fd, node);
    const interrupted = leafNode && killedAnswer(fd, afterEnd(nodes, leafNode));
    return { header, nodes, leafId, byId, ...(interrupted ? { interrupted } : {}) };
  } finally {
    closeSync(fd);
  }
}

/** What hangs off a path's end past it: a killed answer's partials, unless a message came after them (the kind table's "copied after the end"). */
export function afterEnd(nodes: readonly TreeNode[], end: TreeNode): TreeNode[] {
  let after: TreeNode[] = [];
  for (const node of nodes) {
    if (node.parent !== end) continue;
    if (decisionsOf(node.kind).fork === "copied after the end") after.push(node);
    else if (!node.bookkeeping) after = [];
  }
  return after;
}

/** The answer the partials after the leaf stand for, read from their lines (the tree keeps a first line of each). */
function killedAnswer(fd: number, pending: TreeNode[]): SessionTree["interrupted"] {
  const partials = pending.map((node) => entryAt(fd, node)).filter((e): e is PartialEntry => e?.type === "partial");
  const first = answerFromPartials(partials)?.content[0];
  return first?.type === "text" ? { text: lineOf(first.text), time: pending.at(-1)!.time } : undefined;
}

/**
 * The entry a person means by `prefix`: the one message, compaction or
 * branch summary whose id starts with it. Anything else, none or several is
 * a usage error (exit 2) that says which.
 */
export function findTarget(tree: SessionTree, prefix: string): TreeNode {
  if (!prefix) throw new UsageError("an entry id is needed (awl sessions tree <session> lists them)");
  const ids = [...tree.byId.keys()].filter((id) => id.startsWith(prefix));
  if (ids.length === 0) throw new UsageError(`no entry of session ${tree.header.id.slice(0, 8)} has an id starting with '${prefix}' (awl sessions tree lists them)`);
  const targets = ids.map((id) => tree.byId.get(id)!).filter((n) => isTargetKind(n.kind));
  if (targets.length === 0) throw new UsageError(`entry ${ids.join(", ")} is a ${tree.byId.get(ids[0]!)!.kind} entry: only messages, compactions and branch summaries can be gone back to`);
  if (ids.length > 1) throw new UsageError(`'${prefix}' matches ${ids.length} entries (${ids.join(", ")}): give more of the id`);
  return targets[0]!;
}

/** Where a target named on the command line goes: a prompt stands for the moment before it was sent, and is left out (to be offered back). */
export interface GoBack {
  target: TreeNode;
  leftOut?: TreeNode;
}

/**
 * `awl rewind --to`, `--at`, `--fork --at`: the entry named, or for a prompt
 * the nearest resting point before it. Before the first prompt there is no
 * conversation to go on from; the files alone (`filesOnly`) can go back to
 * how they were then, which is their state at the prompt itself.
 */
export function goBackTarget(tree: SessionTree, prefix: string, filesOnly = false): GoBack {
  const node = findTarget(tree, prefix);
  if (!node.prompt) return { target: node };
  for (let up = node.parent; up; up = up.parent) if (isTargetKind(up.kind) && !up.bookkeeping) return { target: up, leftOut: node };
  if (filesOnly) return { target: node };
  throw new UsageError(`entry ${node.id} is the session's first prompt: the conversation cannot go back to before it (awl rewind --files can take the files there)`);
}

/** A prompt's words, whole (the tree keeps their first line), for offering it back. */
export function promptWords(path: string, node: TreeNode): string {
  const entry = readEntry(path, node);
  return entry?.type === "message" ? saidWords(entry.message.content) : node.text;
}

/** The whole entry a node stands for, read again from its line (the tree keeps only its first line of text). */
export function readEntry(path: string, node: TreeNode): SessionEntry | undefined {
  const fd = openSync(path, "r");
  try {
    return entryAt(fd, node);
  } finally {
    closeSync(fd);
  }
}

function entryAt(fd: number, node: TreeNode): SessionEntry | undefined {
  const line = readLineAt(fd, node.offset, fstatSync(fd).size);
  const parsed = line && parseLine(line);
  return parsed && parsed.kind === "entry" ? parsed.entry : undefined;
}

function textAt(fd: number, node: TreeNode): string {
  const entry = entryAt(fd, node);
  return entry ? firstLine(entry) : "";
}

/** The root-to-`end` path, by each entry's resolved parent. */
export function treePath(end: TreeNode): TreeNode[] {
  const path: TreeNode[] = [];
  for (let node: TreeNode | undefined = end; node; node = node.parent) path.push(node);
  return path.reverse();
}

/** The words the tree shows for an entry, as its kind's row says (none for a kind this version does not know). */
function firstLine(entry: SessionEntry): string {
  return entry.type === "opaque" ? "" : rowOf(entry).words(entry, lineOf); // read whole here, cut as the heads are
}
