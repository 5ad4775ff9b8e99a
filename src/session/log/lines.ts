// Reading a session file by lines, in bounded blocks: forward from any offset
// (replay, listing) and backward to a byte string (resume from the tail finds
// the latest compaction without reading what lies before it). Memory holds one
// block and the longest line, never the file.
import { readSync } from "node:fs";

/**
 * The longest line awl reads (and writes). A real line is one message, and
 * every message must fit in a provider request (the Messages API refuses bodies over
 * 32 MB), so 64 MB leaves room for JSON escaping while a hostile or corrupt
 * file (a 1 GB line) is rejected after reading at most this much.
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const BLOCK = 1 << 22;
const NEWLINE = 0x0a;

export interface Line {
  /** 1-based, counted from where the scan started. */
  number: number;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** Valid only during the call it is passed to: it may be a view of the read buffer. */
  bytes: Uint8Array;
}

/** What is left after the last newline, and where. */
export interface Rest {
  bytes: Buffer;
  offset: number;
  number: number;
}

/**
 * Calls `onLine` for every newline-terminated line from `from` to `size`;
 * returns the unterminated rest. A line longer than MAX_LINE_BYTES calls
 * `tooLong` (which throws) as soon as that is known. A line spanning blocks is
 * gathered as a list of pieces, joined once. `block` may be passed in to be
 * reused from file to file (fresh memory costs its page faults again).
 */
export function scanLines(
  fd: number,
  from: number,
  size: number,
  onLine: (line: Line) => void,
  tooLong: (number: number, offset: number) => never,
  block: Buffer = Buffer.allocUnsafe(Math.min(BLOCK, Math.max(size - from, 1))),
): Rest {
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let carryOffset = 0;
  let number = 1;
  let position = from;
  while (position < size) {
    const read = readSync(fd, block, 0, Math.min(block.length, size - position), position);
    if (read === 0) break;
    let start = 0;
    for (let nl = block.indexOf(NEWLINE, 0); nl !== -1 && nl < read; nl = block.indexOf(NEWLINE, start)) {
      const offset = carryBytes ? carryOffset : position + start;
      if (carryBytes + nl - start > MAX_LINE_BYTES) tooLong(number, offset);
      const bytes = carryBytes ? Buffer.concat([...carry, block.subarray(start, nl)]) : block.subarray(start, nl);
      onLine({ number: number++, offset, bytes });
      carry = [];
      carryBytes = 0;
      start = nl + 1;
    }
    if (start < read) {
      if (!carryBytes) carryOffset = position + start;
      carryBytes += read - start;
      if (carryBytes > MAX_LINE_BYTES) tooLong(number, carryOffset);
      carry.push(Buffer.from(block.subarray(start, read)));
    }
    position += read;
  }
  return { bytes: carryBytes ? Buffer.concat(carry) : Buffer.alloc(0), offset: carryBytes ? carryOffset : position, number };
}

/** The offset of the last `needle` that ends at or before `before`, reading backwards in blocks. */
export function lastIndexBefore(fd: number, needle: Uint8Array, before: number, block: Buffer = Buffer.allocUnsafe(1 << 20)): number | undefined {
  // Blocks overlap by the needle's length, so a match across their border is seen.
  let end = before;
  while (end > 0) {
    const start = Math.max(0, end - block.length);
    const read = readSync(fd, block, 0, end - start, start);
    const at = block.subarray(0, read).lastIndexOf(needle);
    if (at !== -1 && start + at + needle.length <= before) return start + at;
    if (start === 0) return undefined;
    end = start + needle.length - 1;
  }
  return undefined;
}

/** The line that starts at `offset`, without its newline; undefined past MAX_LINE_BYTES. */
export function readLineAt(fd: number, offset: number, size: number): Buffer | undefined {
  const pieces: Buffer[] = [];
  let length = 0;
  for (let at = offset; at < size && length <= MAX_LINE_BYTES; ) {
    const piece = Buffer.allocUnsafe(Math.min(1 << 16 << Math.min(pieces.length, 8), size - at));
    const read = readSync(fd, piece, 0, piece.length, at);
    if (read === 0) break;
    const nl = piece.subarray(0, read).indexOf(NEWLINE);
    pieces.push(piece.subarray(0, nl === -1 ? read : nl));
    length += nl === -1 ? read : nl;
    if (nl !== -1) break;
    at += read;
  }
  return length > MAX_LINE_BYTES ? undefined : Buffer.concat(pieces, length);
}

/** Whether `bytes` holds `head` at `at`. Byte by byte: a few dozen bytes compare faster in a loop than through a native call per line. */
export function startsWith(bytes: Uint8Array, head: Uint8Array, at = 0): boolean {
  if (bytes.length < at + head.length) return false;
  for (let i = 0; i < head.length; i++) if (bytes[at + i] !== head[i]) return false;
  return true;
}
