// Rewinding files: each file the recorded calls touched goes back to its
// state at the target entry (see session/checkpoints/file-states.ts), as planned from the
// disk (rewind-plan.ts) and written inside the project only (project-disk.ts).
// When a file changed since awl last changed it is refused (not forced),
// nothing at all is written: the same rewind with --force then does what the
// refusal said. The rewind records its own file_change entries before it
// writes, so a rewind can itself be undone. What cannot be restored (a
// version too large to have been kept, past the caps, gone) is listed with the
// reason, never skipped in silence.
import type { FileChangeFields, SessionManager } from "../session";
import { BlobStore, blobDir } from "../session/checkpoints";
import type { Disk, Wanted } from "./project-disk";
import { planRewind, type Force, type RewindFiles } from "./rewind-plan";

export type { FileStep, RewindFiles } from "./rewind-plan";

type Env = Record<string, string | undefined>;

/** What a rewind of the files to `targetId` would do, changing nothing. */
export async function previewRewind(session: SessionManager, targetId: string, o: { force?: Force; env?: Env; signal?: AbortSignal } = {}): Promise<RewindFiles> {
  return (await planRewind(session, targetId, o)).files;
}

/**
 * Puts every file the recorded calls touched back to its state at `targetId`
 * (the files as the checkpoints on the path up to and including it left
 * them), the file_change entries appended before the writes. Returns what was
 * done, refused and not restorable; when any file was refused, nothing was written.
 */
export async function rewindFiles(session: SessionManager, targetId: string, o: { force?: Force; env?: Env; signal?: AbortSignal } = {}): Promise<RewindFiles> {
  const { files, writes, disk } = await planRewind(session, targetId, o);
  if (files.refused) return files;
  const blobs = new BlobStore(blobDir(session.sessionFile));
  session.appendFileChanges(writes.map(({ path, pathBytes, current, wanted }) => ({ ...changeOf(path, current, wanted, blobs), ...(pathBytes ? { pathBytes } : {}) })));
  const failed = await disk.writeAll(writes);
  // A failed write's entry stands: the file still holds what it replaced, which the next rewind recognises.
  for (const { path, real } of writes) {
    const why = failed.get(real);
    if (why === undefined) continue;
    const at = files.steps.findIndex((step) => step.path === path);
    files.steps[at] = { path, action: "not restorable", reason: `could not be written: ${why}` };
  }
  return files;
}

/** The file_change entry of one write: blobs (null for a link or nothing), modes, links' text. */
function changeOf(path: string, current: Disk, wanted: Wanted, blobs: BlobStore): FileChangeFields {
  const blob = (state: Disk | Wanted) => (state.kind === "file" ? blobs.put(state.bytes, state.sha) : null);
  const mode = (state: Disk | Wanted) => (state.kind === "file" ? state.mode : null);
  return {
    path,
    before: blob(current),
    after: blob(wanted),
    mode: mode(current),
    modeAfter: mode(wanted),
    ...(current.kind === "link" ? { linkBefore: current.text } : {}),
    ...(wanted.kind === "link" ? { linkAfter: wanted.text } : {}),
  };
}
