// Files only this user may read, written whole or not at all: every file awl
// writes for itself by replacing it (the model and project caches, the
// history when it is cut, blobs, forks) goes through writeFileAtomic. The new
// content goes to a temporary file beside the target, created exclusively
// (O_EXCL: never one that exists; O_NOFOLLOW: never through a planted link),
// 0600 whatever the umask, fsync'd, then renamed over the target (a rename
// replaces a link there, it does not write through it), and the folder is
// fsync'd. A reader, or a crash, sees the old bytes or the new.
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, constants, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";

const TEMPORARY_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Gives `file` this content, private (0600): bytes, text, or what `fill`
 * writes to the temporary file's descriptor (a fork's copied ranges). On any
 * failure the target is untouched, the temporary file is gone and the error
 * is thrown.
 */
export function writeFileAtomic(file: string, content: string | Uint8Array | ((fd: number) => void)): void {
  const temporary = join(dirname(file), `.${basename(file).slice(0, 40)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temporary, TEMPORARY_FLAGS, 0o600);
  let renamed = false;
  try {
    fchmodSync(fd, 0o600);
    if (typeof content === "function") content(fd);
    else writeAll(fd, content);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, file);
    renamed = true;
  } finally {
    if (!renamed) {
      try {
        closeSync(fd);
      } catch {
        // already closed: the rename failed
      }
      unlinkSync(temporary);
    }
  }
  fsyncDir(file);
}

/** mkdir -p, then 0700 on every directory this call created (mode alone is subject to the umask). */
export function mkdirPrivate(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  let path = first;
  chmodSync(path, 0o700);
  for (const part of relative(first, dir).split(sep).filter(Boolean)) {
    path = `${path}${sep}${part}`;
    chmodSync(path, 0o700);
  }
}

/** Writes all of `content`: one write call in practice, a loop only if the kernel writes short. */
export function writeAll(fd: number, content: string | Uint8Array): void {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** Makes a new file's directory entry durable too. */
export function fsyncDir(file: string): void {
  try {
    const fd = openSync(dirname(file), "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms refuse fsync on directories; the file's own fsync still holds its bytes.
  }
}
