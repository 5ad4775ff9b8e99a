// The few file-system moves the writer needs, with the permissions transcripts
// deserve: directories 0700, files 0600, whatever the umask.
import { chmodSync, closeSync, constants, fsyncSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, relative, sep } from "node:path";

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
