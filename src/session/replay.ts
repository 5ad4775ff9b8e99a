// Reads a session file in one streaming pass: fixed-size chunks, one parse of
// the line's bytes + schema check per line, so memory holds the parsed entries
// and one chunk, never the file's text. Decides crash recovery (DESIGN 6) on the
// way: only the LAST line may be torn (not complete JSON, or a NUL tail as a
// power cut leaves); any other unreadable line is damage, reported as
// `file:line: reason` without touching the file.
import { readSync } from "node:fs";
import { UserError } from "../errors";
import { LineError, parseLine } from "./codec";
import type { SessionEntry, SessionHeader } from "./schema";
import { isJson } from "../json";

const CHUNK = 1 << 22;
/**
 * The longest line replay reads (and the writer writes). A real line is one
 * message, and every message must fit in a provider request (Anthropic
 * refuses bodies over 32 MB), so 64 MB leaves room for JSON escaping while a
 * hostile or corrupt file (a 1 GB line) is rejected after reading at most this
 * much: memory stays bounded by it, not by the file (issue 6).
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const NEWLINE = 0x0a;
const NUL = 0x00;

export interface Torn {
  /** Byte offset where the torn tail starts: the file is cut back to here. */
  offset: number;
  bytes: number;
  preview: string;
}

export interface Replay {
  header: SessionHeader;
  entries: SessionEntry[];
  /** What crash recovery removes (or, read-only, ignores). */
  torn?: Torn;
  /** The last kept line lacks its newline: the next append must add it first. */
  missingNewline: boolean;
}

interface Line {
  number: number;
  offset: number;
  /** Valid only during the call it is passed to: it may be a view of the read buffer. */
  bytes: Uint8Array;
}

/** A line that failed to parse, kept until it is known whether it is the last one. */
interface Failed {
  number: number;
  offset: number;
  preview: string;
  error: LineError;
}

export function replay(fd: number, file: string, size: number): Replay {
  let header: SessionHeader | undefined;
  const entries: SessionEntry[] = [];
  let failed: Failed | undefined;

  const accept = (line: Line): void => {
    try {
      const parsed = parseLine(line.bytes);
      if (!parsed) return; // blank
      if (failed) throw damage(file, failed.number, failed.error);
      if (!header) {
        if (parsed.kind !== "header") throw new LineError("the first line is not a session header", false);
        header = parsed.header;
      } else {
        if (parsed.kind !== "entry") throw new LineError("a second session header", false);
        entries.push(parsed.entry);
      }
    } catch (error) {
      if (!(error instanceof LineError)) throw error;
      if (failed || !error.torn || !header) throw damage(file, failed?.number ?? line.number, failed?.error ?? error);
      // Damage, unless it turns out to be the last line.
      failed = { number: line.number, offset: line.offset, preview: preview(Buffer.from(line.bytes).toString("utf8")), error };
    }
  };

  const tail = scanLines(fd, size, accept, (number) => {
    throw new UserError(`${file}:${number}: line ${number} is longer than ${MAX_LINE_BYTES >> 20} MB, more than any session line awl writes`);
  });
  let torn: Torn | undefined;
  let missingNewline = false;
  const kept = tail.bytes.length - countTrailing(tail.bytes, NUL);
  const text = tail.bytes.toString("utf8", 0, kept);
  if (text.trim() === "") {
    // Nothing after the last newline but a NUL tail: the last full line decides.
    if (failed) torn = { offset: failed.offset, bytes: size - failed.offset, preview: failed.preview };
    else if (tail.bytes.length > 0) torn = tornAt(tail.offset, tail.bytes);
  } else if (isJson(text)) {
    accept({ number: tail.number, offset: tail.offset, bytes: tail.bytes.subarray(0, kept) }); // throws for an earlier torn line (now a middle one) or an invalid entry
    missingNewline = true;
    if (kept < tail.bytes.length) torn = tornAt(tail.offset + kept, tail.bytes.subarray(kept));
  } else {
    if (failed) throw damage(file, failed.number, failed.error);
    if (!header) throw damage(file, tail.number, new LineError("not complete JSON", true));
    torn = tornAt(tail.offset, tail.bytes);
  }
  if (!header) throw new UserError(`${file}: empty file, not a session (no header line)`);
  return { header, entries, torn, missingNewline };
}

/**
 * Calls `onLine` for every newline-terminated line; returns the unterminated
 * rest. A line longer than MAX_LINE_BYTES calls `tooLong` (which throws) as
 * soon as that is known. A line spanning chunks is gathered as a list of
 * pieces, joined once (concatenating per chunk was quadratic in its length).
 */
function scanLines(fd: number, size: number, onLine: (line: Line) => void, tooLong: (number: number) => never): { bytes: Buffer; offset: number; number: number } {
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let carryOffset = 0;
  let number = 1;
  let position = 0;
  while (position < size) {
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
    if (read === 0) break;
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE, 0); nl !== -1 && nl < read; nl = chunk.indexOf(NEWLINE, start)) {
      if (carryBytes + nl - start > MAX_LINE_BYTES) tooLong(number);
      const bytes = carryBytes ? Buffer.concat([...carry, chunk.subarray(start, nl)]) : chunk.subarray(start, nl);
      onLine({ number: number++, offset: carryBytes ? carryOffset : position + start, bytes });
      carry = [];
      carryBytes = 0;
      start = nl + 1;
    }
    if (start < read) {
      if (!carryBytes) carryOffset = position + start;
      carryBytes += read - start;
      if (carryBytes > MAX_LINE_BYTES) tooLong(number);
      carry.push(Buffer.from(chunk.subarray(start, read)));
    }
    position += read;
  }
  return { bytes: carryBytes ? Buffer.concat(carry) : Buffer.alloc(0), offset: carryBytes ? carryOffset : position, number };
}

function damage(file: string, number: number, error: LineError): UserError {
  return new UserError(`${file}:${number}: ${error.reason}`);
}

function tornAt(offset: number, bytes: Buffer): Torn {
  return { offset, bytes: bytes.length, preview: preview(bytes.toString("utf8")) };
}

/** A one-line glimpse of what was cut, for the notice the user sees. */
function preview(text: string): string {
  const shown = text.replace(/\0+/g, (nuls) => `<${nuls.length} NUL bytes>`).replace(/\s+/g, " ");
  return shown.length > 80 ? `${shown.slice(0, 79)}…` : shown;
}

function countTrailing(bytes: Buffer, value: number): number {
  let n = 0;
  while (n < bytes.length && bytes[bytes.length - 1 - n] === value) n++;
  return n;
}
