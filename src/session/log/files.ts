// The few file-system moves the writer needs, with the permissions transcripts
// deserve (directories 0700, files 0600, whatever the umask: src/private-file.ts),
// and their errors in words.
import { constants, openSync } from "node:fs";
import { UserError } from "../../errors";

/** Read/write, every write lands at the end of the file whatever the position. */
export const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND;
export const CREATE_FLAGS = APPEND_FLAGS | constants.O_CREAT | constants.O_EXCL;

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
