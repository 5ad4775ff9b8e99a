// Forks are copies: a new session file holding a new header (which names the
// parent and the entry the fork was taken at) and then the parent's path to
// that entry as the parent's own line bytes, never parsed and written again.
// When the path is the start of the file (no branch before the entry), it is
// one contiguous byte range, copied by the kernel where it can (copy-range.ts); otherwise line by line. The
// copy goes to a temporary file that is fsync'd and renamed into place, so a
// crash leaves either no fork or a whole one; the parent file is only read.
import { closeSync, fchmodSync, fstatSync, fsyncSync, openSync, renameSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { UsageError, UserError } from "../errors";
import { serializeHeader } from "./codec";
import { copyRange, write } from "./copy-range";
import { CREATE_FLAGS, fsReason, fsyncDir, mkdirPrivate } from "./files";
import { newSessionId } from "./ids";
import { readLineAt } from "./lines";
import { FORMAT_VERSION } from "./refusals";
import { sessionDir, sessionFileName } from "./paths";
import type { SessionHeader } from "./schema";
import { checkFolder } from "./trust";
import { treePath, type SessionTree, type TreeNode } from "./tree";

export interface ForkOptions {
  /** The parent's tree, as readSessionTree read it. */
  tree: SessionTree;
  parentFile: string;
  /** The entry the fork ends at (default: the parent's active leaf). */
  at?: TreeNode;
  /** The child's directory: where awl runs now. */
  cwd: string;
  /** The model the child starts with: the parent's active one unless the person chose another. */
  model: { provider: string; model: string };
}

/** Writes the fork; returns its file. */
export function forkSession(o: ForkOptions): string {
  const { tree } = o;
  const end = o.at ?? (tree.leafId === null ? undefined : tree.byId.get(tree.leafId));
  if (!end) throw new UsageError(`session ${tree.header.id} has no entries to fork`);
  if (end.toolCalls) {
    throw new UsageError(
      `entry ${end.id} asks for tool calls whose results are not on its path: a fork cannot end there; go there in the session itself first (awl --resume ${tree.header.id.slice(0, 8)} --at ${end.id}), which answers them, then fork`,
    );
  }
  const path = treePath(end);
  const timestamp = new Date().toISOString();
  const id = newSessionId();
  const header: SessionHeader = { type: "session", version: FORMAT_VERSION, id, timestamp, cwd: o.cwd, provider: o.model.provider, model: o.model.model, forkedFrom: { session: tree.header.id, entry: end.id } };
  const file = join(sessionDir(o.cwd), sessionFileName(timestamp, id));
  mkdirPrivate(dirname(file));
  checkFolder(dirname(file));
  const temporary = join(dirname(file), `.${id}.fork`);
  let out: number | undefined;
  const from = openSync(o.parentFile, "r");
  try {
    out = openSync(temporary, CREATE_FLAGS, 0o600);
    fchmodSync(out, 0o600);
    write(out, Buffer.from(`${serializeHeader(header)}\n`));
    const size = fstatSync(from).size;
    const line = (node: TreeNode) => Buffer.concat([readLineAt(from, node.offset, size)!, NEWLINE]);
    // The path is the file's first entries: one range up to the last line (which may lack its newline), else line by line.
    if (path.every((node, i) => tree.nodes[i] === node)) copyRange(from, out, path[0]!.offset, end.offset);
    else for (const node of path.slice(0, -1)) write(out, line(node));
    write(out, line(end));
    fsyncSync(out);
    closeSync(out);
    out = undefined;
    renameSync(temporary, file);
    fsyncDir(file);
  } catch (error) {
    if (out !== undefined) closeSync(out);
    try {
      unlinkSync(temporary);
    } catch {
      // never created
    }
    if (error instanceof UserError) throw error;
    throw new UserError(`could not write the fork ${file}: ${fsReason(error)}; the session ${tree.header.id} is unchanged`);
  } finally {
    closeSync(from);
  }
  return file;
}

const NEWLINE = Buffer.from("\n");
