// A session file made or remade on disk, apart from the manager's appends:
// the first append creates it (0600, locked, its header line), and a file
// deleted while awl holds it open is written back from the open descriptor.
// Each either leaves a whole file or none: a half-written header would be a
// damaged session forever.

import { closeSync, fchmodSync, fsyncSync, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { UserError } from "../../errors";
import { serializeHeader } from "./codec";
import { fsyncDir, mkdirPrivate, writeAll } from "../../private-file";
import { CREATE_FLAGS, fsReason } from "./files";
import { acquireLock } from "./lock";
import type { SessionHeader } from "./schema";
import { checkFolder } from "./safe-to-open";

/** Creates the file (never over an existing one), takes its lock and writes the header; its descriptor, lock release and size. */
export function createLogFile(file: string, header: SessionHeader): { fd: number; release: () => void; size: number } {
  let fd: number;
  try {
    mkdirPrivate(dirname(file));
    checkFolder(dirname(file)); // not a symlink to elsewhere, not someone else's
    fd = openSync(file, CREATE_FLAGS, 0o600);
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`could not create ${file}: ${fsReason(error)}; nothing was sent`);
  }
  let release: (() => void) | undefined;
  try {
    fchmodSync(fd, 0o600);
    release = acquireLock(file, fd);
    const line = `${serializeHeader(header)}\n`;
    writeAll(fd, line);
    fsyncSync(fd);
    fsyncDir(file);
    return { fd, release, size: Buffer.byteLength(line) };
  } catch (error) {
    release?.();
    closeSync(fd);
    // The file is ours (O_EXCL): remove it rather than leave a half-written header.
    try {
      unlinkSync(file);
    } catch {
      // nothing more to undo
    }
    throw error instanceof UserError ? error : new UserError(`could not create ${file}: ${fsReason(error)}; nothing was sent`);
  }
}

/** Copies the first `size` bytes of the unlinked file `old` to a new file at its path; the new descriptor (throws when it cannot). */
export function writeBack(old: number, size: number, file: string): number {
  let fd: number | undefined;
  try {
    mkdirPrivate(dirname(file));
    checkFolder(dirname(file));
    fd = openSync(file, CREATE_FLAGS, 0o600);
    fchmodSync(fd, 0o600);
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (let at = 0; at < size; ) {
      const n = readSync(old, buffer, 0, Math.min(buffer.length, size - at), at);
      if (n === 0) break;
      for (let done = 0; done < n; ) done += writeSync(fd, buffer, done, n - done);
      at += n;
    }
    fsyncSync(fd);
    fsyncDir(file);
    return fd;
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    throw error;
  }
}
