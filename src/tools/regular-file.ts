// read, write and edit work on regular files only. Opening a FIFO blocks until
// a writer comes, reading /dev/tty or a socket waits for input that may never
// come, and such a wait sits in a thread that Ctrl+C cannot stop; replacing a
// device node with a file would break the system. So the kind is checked from
// stat, before anything is opened, and again on the opened handle, in case the
// path was swapped in between.

import type { Stats } from "node:fs";
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

const CHUNK_BYTES = 64 * 1024;

/** "a FIFO (named pipe)", "a character device", …; undefined for a regular file or a directory. */
export function specialKind(info: Stats): string | undefined {
  if (info.isFile() || info.isDirectory()) return undefined;
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSocket()) return "a socket";
  return "a special file";
}

/**
 * Opens a file that stat said is regular. O_NONBLOCK makes the open itself
 * return at once whatever is there now, and makes a read of a file that would
 * wait (such as /proc/kmsg) fail instead of hanging.
 */
export async function openRegular(path: string): Promise<FileHandle> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const info = await handle.stat().catch(async (error) => {
    await handle.close();
    throw error;
  });
  if (!info.isFile()) {
    await handle.close();
    throw new Error(`it became ${specialKind(info) ?? "a directory"} while it was being opened`);
  }
  return handle;
}

/** The file's bytes from `position`, a chunk at a time; stops with the signal's reason once it is aborted. */
export async function* chunks(handle: FileHandle, signal: AbortSignal, position = 0): AsyncGenerator<Uint8Array> {
  for (;;) {
    signal.throwIfAborted();
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** The whole file, read in chunks so that an abort stops it between two. */
export async function readAll(handle: FileHandle, signal: AbortSignal): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks(handle, signal)) parts.push(chunk);
  return Buffer.concat(parts);
}

/** A file stat said is regular, opened (openRegular), read whole (readAll) and closed. */
export async function readRegular(path: string, signal: AbortSignal): Promise<Buffer> {
  const handle = await openRegular(path);
  try {
    return await readAll(handle, signal);
  } finally {
    await handle.close();
  }
}
