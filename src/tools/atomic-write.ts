// Replaces a file's content all at once or not at all. Writing in place and
// then truncating left files cut mid-line on a full disk; here the new content
// goes to a temporary file beside the original, is fsync'd, and is renamed over
// it, so every reader (and every crash) sees either the old bytes or the new.
// The price, as with any editor that saves by rename: another hard link to the
// file keeps the old content, and the directory must be writable.

import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { type FileHandle, open, readlink, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { reason } from "./os-error";
import { specialKind } from "./regular-file";

const CHUNK_BYTES = 1024 * 1024;
/** As the kernel's own limit on following symbolic links (ELOOP). */
const MAX_LINK_HOPS = 40;

/**
 * Gives `path` the content `bytes`; returns what was there before (undefined
 * when the file is new). On any failure, the abort included, the original is
 * untouched and the temporary file is gone. The original's mode, and its owner
 * where awl may set it, carry over. A symbolic link is written through: its
 * target gets the new content, the link stays a link.
 */
export async function replaceFile(path: string, bytes: Uint8Array, signal: AbortSignal): Promise<Stats | undefined> {
  const target = await linkTarget(path);
  const before = await stat(target).catch((error) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  });
  const kind = before && (before.isFile() ? undefined : (specialKind(before) ?? "a directory"));
  if (kind) throw new Error(`${target} is ${kind}, not a regular file`);

  const temp = join(dirname(target), tempName(basename(target)));
  // A new file gets the usual 0666 less the umask; a replacement starts private
  // (the content may be secret) and gets the original's mode before it is renamed.
  const handle = await open(temp, "wx", before ? 0o600 : 0o666).catch((error) => {
    throw new Error(`cannot create a file beside it in ${dirname(target)}: ${reason(error)}`);
  });
  let closed = false;
  let renamed = false;
  try {
    if (before) await keepOwnerAndMode(handle, before);
    await writeAll(handle, bytes, signal);
    await handle.sync();
    await handle.close();
    closed = true;
    // The last moment to stop: after the rename the change is made.
    signal.throwIfAborted();
    await rename(temp, target);
    renamed = true;
  } finally {
    if (!closed) await handle.close().catch(() => {});
    if (!renamed) await unlink(temp).catch(() => {});
  }
  await syncDirectory(dirname(target));
  return before;
}

/** The file a path finally names, following symbolic links; a dangling link gives the path it points to. */
export async function linkTarget(path: string): Promise<string> {
  for (let hops = 0; hops < MAX_LINK_HOPS; hops++) {
    const link = await readlink(path).catch((error) => {
      // EINVAL: not a link; ENOENT: nothing there yet. Either way this is the file.
      if (["EINVAL", "ENOENT"].includes((error as NodeJS.ErrnoException).code ?? "")) return undefined;
      throw error;
    });
    if (link === undefined) return path;
    path = resolve(dirname(path), link);
  }
  throw new Error(`too many levels of symbolic links at ${path}`);
}

/** Hidden, recognisable if a crash ever leaves one behind, and short enough for any file name. */
function tempName(name: string): string {
  return `.${name.slice(0, 40)}.${randomBytes(6).toString("hex")}.awl-tmp`;
}

async function keepOwnerAndMode(handle: FileHandle, before: Stats): Promise<void> {
  // Only root may give a file away; anyone else keeps their own uid but may
  // still set a group they belong to. chown comes first: it clears set-id bits.
  await handle.chown(before.uid, before.gid).catch(() => handle.chown(-1, before.gid).catch(() => {}));
  await handle.chmod(before.mode & 0o7777);
}

/** Writes every byte (a write may take only part), a chunk at a time so that an abort stops it between two. */
async function writeAll(handle: FileHandle, bytes: Uint8Array, signal: AbortSignal): Promise<void> {
  for (let offset = 0; offset < bytes.length; ) {
    signal.throwIfAborted();
    const { bytesWritten } = await handle.write(bytes, offset, Math.min(CHUNK_BYTES, bytes.length - offset));
    offset += bytesWritten;
  }
}

/**
 * Makes the rename itself durable. Best effort: by now the new content is in
 * place and visible, so a directory that cannot be fsync'd (some network file
 * systems) does not turn a done change into a reported failure.
 */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r").catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => {});
  await handle.close().catch(() => {});
}
