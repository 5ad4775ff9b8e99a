// A rewind, both halves joined: the files go back to their state at the
// target first (their file_change entries are appended as children of the
// leaf of the moment), then the `leaf` entry moves the conversation there. So
// the file records the rewind as what it wrote, and going back to the entry
// before it (the old leaf) brings the later state back. When a file changed
// since is refused, neither half happens: the session stays where it was.

import type { SessionManager } from "../session";
import { previewRewind, rewindFiles, type RewindFiles } from "./rewind-files";

/** What goes back: both halves (the default), or only one. */
export type RewindScope = "both" | "conversation" | "files";

export interface RewindOptions {
  scope: RewindScope;
  /** Overwrite files changed since: all (true), or only the paths named. */
  force?: boolean | ReadonlySet<string>;
  env?: Record<string, string | undefined>;
}

const NOTHING: RewindFiles = { steps: [], matching: [], refused: false };

/** What the rewind would do to the files (nothing for the conversation only), changing nothing. */
export function previewScope(session: SessionManager, targetId: string, o: RewindOptions): Promise<RewindFiles> {
  return o.scope === "conversation" ? Promise.resolve(NOTHING) : previewRewind(session, targetId, o);
}

/** Rewinds `session` to the state at `targetId`; returns what happened to the files (refused: nothing happened). */
export async function rewindTo(session: SessionManager, targetId: string, o: RewindOptions): Promise<RewindFiles> {
  const files = o.scope === "conversation" ? NOTHING : await rewindFiles(session, targetId, o);
  if (o.scope !== "files" && !files.refused) session.moveLeaf(targetId);
  return files;
}
