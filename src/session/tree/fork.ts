// Forks are copies: a new session file holding a new header (which names the
// parent and the entry the fork was taken at) and then the parent's path to
// that entry as the parent's own line bytes, never parsed and written again.
// The path is a few byte ranges of the parent (runs of consecutive path
// lines), copied by the kernel where it can (copy-range.ts). A fork at the
// leaf of a session that never branched finds them from the lines' first
// bytes (linear-path.ts); any other fork reads the tree. The copy goes to a
// temporary file that is fsync'd and renamed into place, so a crash leaves
// either no fork or a whole one; the parent file is only read.
import { closeSync, fstatSync, openSync } from "node:fs";
import { dirname, join } from "node:path";
import { UsageError, UserError } from "../../errors";
import { decisionsOf, serializeHeader, fsReason, newSessionId, FORMAT_VERSION, sessionDir, sessionFileName, checkFolder } from "../log";
import type { ModelRef, SessionHeader } from "../log";
import { copyRange, write } from "./copy-range";
import { mkdirPrivate, writeFileAtomic } from "../../private-file";
import { addRun, linearPath, type ByteRange } from "./linear-path";
import { afterEnd, goBackTarget, readSessionTree, treePath, type TreeNode } from "./tree";

export interface ForkOptions {
  parentFile: string;
  /** An id prefix of the entry the fork ends at (default: the parent's active leaf). */
  at?: string;
  /** The child's directory: where awl runs now. */
  cwd: string;
  /** The model the child starts with, given the one the path used last (the person may have chosen another). */
  model: (pathModel: ModelRef) => ModelRef;
}

export interface Fork {
  file: string;
  /** The parent's header. */
  parent: SessionHeader;
  /** The entry the fork ends at. */
  entry: string;
  /** The prompt `at` named, left out: the fork ends before it. */
  leftOut?: TreeNode;
}

/** What a fork copies: the path's end, the model it used last, and its lines. */
interface Plan {
  header: SessionHeader;
  end: { id: string; toolCalls: boolean };
  model: ModelRef;
  ranges: ByteRange[];
  leftOut?: TreeNode;
}

/** Writes the fork; returns its file. */
export function forkSession(o: ForkOptions): Fork {
  const from = openSync(o.parentFile, "r");
  try {
    const size = fstatSync(from).size;
    const plan = (o.at === undefined && linearPlan(from, size)) || treePlan(o.parentFile, o.at);
    const { header: parent, end } = plan;
    if (end.toolCalls) {
      throw new UsageError(
        `entry ${end.id} asks for tool calls whose results are not on its path: a fork cannot end there; go there in the session itself first (awl --resume ${parent.id} --at ${end.id}), which answers them, then fork`,
      );
    }
    const timestamp = new Date().toISOString();
    const id = newSessionId();
    const model = o.model(plan.model);
    const header: SessionHeader = { type: "session", version: FORMAT_VERSION, id, timestamp, cwd: o.cwd, provider: model.provider, model: model.model, forkedFrom: { session: parent.id, entry: end.id } };
    const file = join(sessionDir(o.cwd), sessionFileName(timestamp, id));
    writeFork(from, file, header, plan.ranges, parent.id);
    return { file, parent, entry: end.id, ...(plan.leftOut ? { leftOut: plan.leftOut } : {}) };
  } finally {
    closeSync(from);
  }
}

function linearPlan(fd: number, size: number): Plan | undefined {
  const path = linearPath(fd, size);
  if (!path) return undefined;
  const { header, leaf, stamped } = path;
  const toolCalls = leaf.type === "message" && leaf.message.content.some((b) => b.type === "toolUse");
  let model: ModelRef = header;
  if (stamped) {
    // A stamp with a provider and no model is one the tree steps over: it judges.
    if (stamped.type !== "message" || !stamped.provider || !stamped.model) return undefined;
    model = { provider: stamped.provider, model: stamped.model };
  }
  return { header, end: { id: leaf.id, toolCalls }, model, ranges: path.ranges };
}

function treePlan(parentFile: string, at: string | undefined): Plan {
  const tree = readSessionTree(parentFile, { text: false });
  const { target: end, leftOut } = at === undefined ? { target: tree.leafId === null ? undefined : tree.byId.get(tree.leafId) } : goBackTarget(tree, at);
  if (!end) throw new UsageError(`session ${tree.header.id} has no entries to fork`);
  const path = treePath(end);
  const stamped = path.findLast((n) => n.model)?.model;
  // A subagent's entries go with the entry they hang off, when it is on the path.
  const onPath = new Set(path);
  const children = tree.nodes.filter((n) => n.parent && onPath.has(n.parent) && decisionsOf(n.kind).fork === "copied with its call");
  const lines = [...path, ...children, ...afterEnd(tree.nodes, end)].sort((a, b) => a.offset - b.offset);
  return { header: tree.header, end, model: stamped ?? tree.header, ranges: ranges(lines), ...(leftOut ? { leftOut } : {}) };
}

/** The lines of nodes in file order, as runs of lines next to each other. */
function ranges(nodes: TreeNode[]): ByteRange[] {
  const runs: ByteRange[] = [];
  for (const node of nodes) addRun(runs, [node.offset, node.end]);
  return runs;
}

function writeFork(from: number, file: string, header: SessionHeader, runs: ByteRange[], parentId: string): void {
  mkdirPrivate(dirname(file));
  checkFolder(dirname(file));
  try {
    writeFileAtomic(file, (out) => {
      write(out, Buffer.from(`${serializeHeader(header)}\n`));
      // Each run ends without its last newline (the parent's last line may have none).
      for (const [start, end] of runs) {
        copyRange(from, out, start, end);
        write(out, NEWLINE);
      }
    });
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`could not write the fork ${file}: ${fsReason(error)}; the session ${parentId} is unchanged`);
  }
}

const NEWLINE = Buffer.from("\n");
