// Copies a byte range of one open file to the current end of another: a fork
// copies up to a whole session (100 MB) this way. On Linux the kernel copies
// it (copy_file_range(2): no trip through awl's memory, about half the time
// of reading and writing blocks); anywhere that is not available, or a file
// system that refuses it, the rest is copied in bounded blocks.
import { dlopen, FFIType } from "bun:ffi";
import { readSync, writeSync } from "node:fs";
import { UserError } from "../../errors";

const BLOCK = 1 << 20;

/** copy_file_range from libc, once; undefined where there is none (or no libc to open). */
const kernelCopy = (() => {
  if (process.platform !== "linux") return undefined;
  try {
    const { symbols } = dlopen("libc.so.6", {
      copy_file_range: { args: [FFIType.i32, FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.u64, FFIType.u32], returns: FFIType.i64 },
    });
    return symbols.copy_file_range;
  } catch {
    return undefined; // a libc by another name (musl): blocks
  }
})();

/** Appends bytes [start, end) of `from` to `to` at its file position. */
export function copyRange(from: number, to: number, start: number, end: number): void {
  let at = start;
  if (kernelCopy) {
    const offset = new BigInt64Array([BigInt(at)]);
    while (at < end) {
      const copied = Number(kernelCopy(from, offset, to, null, end - at, 0));
      if (copied === 0) throw shorter();
      if (copied < 0) break; // refused (another file system, an old kernel): the rest in blocks
      at += copied;
    }
  }
  const block = at < end ? Buffer.allocUnsafe(Math.min(BLOCK, end - at)) : undefined;
  while (block && at < end) {
    const read = readSync(from, block, 0, Math.min(block.length, end - at), at);
    if (read === 0) throw shorter();
    write(to, block.subarray(0, read));
    at += read;
  }
}

export function write(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

function shorter(): UserError {
  return new UserError("the session file became shorter while it was being forked");
}
