// Reads a session file forward in one streaming pass: bounded blocks, every
// line judged by the codec's parseLine, so memory holds the parsed entries and
// one block, never the file's text. Decides crash recovery on the way: only
// the LAST line may be torn (not complete JSON, or a NUL tail as a power cut
// leaves); any other unreadable line is damage, reported without touching the
// file. Replay (open) stops at the first damage; listing goes on past it.
import { UserError } from "../../errors";
import { isJson } from "../../json";
import { LineError, parseLine } from "./codec";
import { MAX_LINE_BYTES, scanLines, type Line } from "./lines";
import type { SessionEntry, SessionHeader } from "./schema";

const NUL = 0x00;

export interface Torn {
  /** Byte offset where the torn tail starts: the file is cut back to here. */
  offset: number;
  bytes: number;
  preview: string;
}

/** Where a damaged line is: its number when the pass began at the top of the file, else its byte offset. */
export interface Place {
  number: number;
  offset: number;
}

export interface LogVisitor {
  entry(entry: SessionEntry, place: Place): void;
  /** A line that is neither a valid header or entry nor the torn last line. Throw to stop, return to go on. */
  damage(place: Place, error: LineError): void;
}

export interface LogEnd {
  header: SessionHeader;
  /** What crash recovery removes (or, read-only, ignores). */
  torn?: Torn;
  /** The last kept line lacks its newline: the next append must add it first. */
  missingNewline: boolean;
}

/** Where a pass starts: the top of the file, or a line boundary after the header (resume from the tail). */
export interface Start {
  offset: number;
  header: SessionHeader;
}

/** A line that failed to parse, kept until it is known whether it is the last one. */
interface Failed {
  place: Place;
  preview: string;
  error: LineError;
}

/** Reads the file from `start` (default: the top, header first) to `size`, telling `visitor` what each line is. */
export function readLog(fd: number, file: string, size: number, visitor: LogVisitor, start?: Start, block?: Buffer): LogEnd {
  let header = start?.header;
  let failed: Failed | undefined;
  const place = (line: { number: number; offset: number }): Place => ({ number: start ? 0 : line.number, offset: line.offset });
  const reportFailed = () => {
    const f = failed!;
    failed = undefined;
    visitor.damage(f.place, f.error);
  };

  const accept = (line: Line): void => {
    try {
      const parsed = parseLine(line.bytes);
      if (!parsed) return; // blank
      if (failed) reportFailed();
      if (!header) {
        if (parsed.kind !== "header") throw new LineError("the first line is not a session header", false);
        header = parsed.header;
      } else {
        if (parsed.kind !== "entry") throw new LineError("a second session header", false);
        visitor.entry(parsed.entry, place(line));
      }
    } catch (error) {
      if (!(error instanceof LineError)) throw error;
      if (!header) throw damage(file, place(line), error); // no header, nothing to go on with
      if (failed) reportFailed(); // a torn line with more after it: damage, and the first
      if (!error.torn) return visitor.damage(place(line), error);
      // Damage, unless it turns out to be the last line.
      failed = { place: place(line), preview: preview(Buffer.from(line.bytes).toString("utf8")), error };
    }
  };

  const rest = scanLines(
    fd,
    start?.offset ?? 0,
    size,
    accept,
    (number, offset) => {
      throw new DamagedLog(file, place({ number, offset }), `the line is longer than ${MAX_LINE_BYTES >> 20} MB, more than any session line awl writes`);
    },
    block,
  );
  let torn: Torn | undefined;
  let missingNewline = false;
  const kept = rest.bytes.length - countTrailing(rest.bytes, NUL);
  const text = rest.bytes.toString("utf8", 0, kept);
  if (text.trim() === "") {
    // Nothing after the last newline but a NUL tail: the last full line decides.
    if (failed) torn = { offset: failed.place.offset, bytes: size - failed.place.offset, preview: failed.preview };
    else if (rest.bytes.length > 0) torn = tornAt(rest.offset, rest.bytes);
  } else if (isJson(text)) {
    accept({ number: rest.number, offset: rest.offset, bytes: rest.bytes.subarray(0, kept) }); // reports an earlier torn line (now a middle one) or an invalid entry
    missingNewline = true;
    if (kept < rest.bytes.length) torn = tornAt(rest.offset + kept, rest.bytes.subarray(kept));
  } else {
    if (failed) reportFailed();
    if (!header) throw damage(file, place(rest), new LineError("not complete JSON", true));
    torn = tornAt(rest.offset, rest.bytes);
  }
  if (!header) throw new DamagedLog(file, undefined, "empty file, not a session (no header line)");
  return { header, torn, missingNewline };
}

export interface Replay extends LogEnd {
  entries: SessionEntry[];
  /** Where each entry's line starts. */
  offsets: number[];
}

/** Replays the file for open: every entry from `start`; the first damaged line is an error that names it. */
export function replay(fd: number, file: string, size: number, start?: Start): Replay {
  const entries: SessionEntry[] = [];
  const offsets: number[] = [];
  const end = readLog(fd, file, size, {
    entry: (entry, at) => {
      entries.push(entry);
      offsets.push(at.offset);
    },
    damage: (at, error) => {
      throw damage(file, at, error);
    },
  }, start);
  return { ...end, entries, offsets };
}

/** `file:12` for a line counted from the top; `file: byte 81234` for one found from the tail, where lines are not counted. */
export function where(file: string, at: Place): string {
  return at.number ? `${file}:${at.number}` : `${file}: byte ${at.offset}`;
}

/** A file that cannot be opened as it is: where, and why. */
export class DamagedLog extends UserError {
  constructor(
    file: string,
    readonly place: Place | undefined,
    readonly reason: string,
  ) {
    super(place ? `${where(file, place)}: ${reason}` : `${file}: ${reason}`);
  }
}

function damage(file: string, at: Place, error: LineError): DamagedLog {
  return new DamagedLog(file, at, error.reason);
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
