// The few file-system moves the writer needs, with the permissions transcripts
// deserve (directories 0700, files 0600, whatever the umask), and their errors in words.
import { chmodSync, closeSync, constants, fsyncSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, relative, sep } from "node:path";
import { UserError } from "../../errors";

/** Read/write, every write lands at the end of the file whatever the position. */
export const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND;
export const CREATE_FLAGS = APPEND_FLAGS | constants.O_CREAT | constants.O_EXCL;

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

/** Writes all of `text`: one write call in practice, a loop only if the kernel writes short. */
export function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
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

/** A file-system error in words a person can act on. */
export function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const reasons: Record<string, string> = {
    ENOSPC: "no space left on the device",
    EDQUOT: "disk quota exceeded",
    EFBIG: "file too large (over the file size limit)",
    EROFS: "read-only file system",
    EACCES: "permission denied",
    EPERM: "operation not permitted (is the file immutable or append-only?)",
    EIO: "input/output error",
  };
  return (code && reasons[code]) ?? (error instanceof Error ? error.message : String(error));
}

/** Opens a session file that should exist; what stands in the way is one line the person can act on. */
export function openExisting(path: string, flags: string | number): number {
  try {
    return openSync(path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UserError(`no session file at ${path}`);
    if (code === "EISDIR") throw new UserError(`${path} is a directory, not a session file`);
    if (code === "ELOOP") throw new UserError(`${path} is a symbolic link; refusing to open it as a session (it could point anywhere)`);
    if (code === "EACCES" || code === "EPERM") throw new UserError(`cannot open ${path}: permission denied`);
    if (code === "EROFS") throw new UserError(`cannot open ${path} to continue it: read-only file system`);
    throw error;
  }
}
