// The path to the leaf of a session that never branched, found from each
// line's first bytes: what a fork at the leaf (`/fork`, `--resume ID --fork`)
// copies. Most sessions are linear: every conversation entry's parent is the
// conversation entry before it, and bookkeeping (titles, labels) hangs in
// between. Then the path is every conversation line, in file order, and a
// fork is a few byte ranges of the parent copied by the kernel, found without
// making an object per line (the whole tree of a 100 MB session costs more
// than the copy). Anything this reading cannot vouch for (a leaf move, a kind
// or key order it does not know, an escaped id, a torn last line) answers
// undefined, and the fork reads the whole tree instead (tree.ts).
import { kindsWhere, LineError, parseLine, readLineAt, scanLines, startsWith, type Line } from "../log";
import type { SessionEntry, SessionHeader } from "../log";

/** A run of whole lines of the parent, [start, end), without the last one's newline. */
export type ByteRange = [start: number, end: number];

export interface LinearPath {
  header: SessionHeader;
  /** The leaf: the last conversation entry, read whole. */
  leaf: SessionEntry;
  /** The last entry on the path stamped with the model it was sent to or came from, read whole. */
  stamped?: SessionEntry;
  /** The path's lines, consecutive ones joined, then the lines hanging off its leaf that a fork copies (a killed answer's partials). */
  ranges: ByteRange[];
}

const lineHead = (kind: string) => Buffer.from(`{"type":"${kind}","id":"`);
const COPIED = kindsWhere("fork", "copied");
/** Line heads of the kinds a fork copies from the path (awl's key order: `type`, then `id`). */
const CONVERSATION = COPIED.map(lineHead);
const MESSAGE_HEAD = CONVERSATION[COPIED.indexOf("message")];
/** Bookkeeping a fork leaves out, stepped over; a `leaf` move is not linear (the kind table's `fork`). */
const BOOKKEEPING = kindsWhere("fork", "left out").map(lineHead);
/** Bookkeeping a fork copies when it hangs off the leaf with no conversation line after it: a killed answer's partials. */
const AFTER_END = kindsWhere("fork", "copied after the end").map(lineHead);
/** Bookkeeping a fork copies with the entry it hangs off: a subagent's entries (in a linear session every conversation line is on the path). */
const WITH_CALL = kindsWhere("fork", "copied with its call").map(lineHead);
const PARENT = Buffer.from(`","parentId":`);
const NULL = Buffer.from("null");
const STAMP = Buffer.from(`","provider":"`);
const MESSAGE = Buffer.from(`"message":{`);
const QUOTE = 0x22;

/** Reads the linear path of the open session file `fd`, or undefined when the file is not one this reading can vouch for. */
export function linearPath(fd: number, size: number): LinearPath | undefined {
  let header: SessionHeader | undefined;
  const ranges: ByteRange[] = [];
  /** The id of the last conversation entry (latin1: compared, never shown). */
  let previous: string | null = null;
  let leafAt = -1;
  let stampedAt = -1;
  /** The lines hanging off the leaf so far that a fork copies after the path. */
  let trailing: ByteRange[] = [];
  const onLine = ({ bytes, offset, number }: Line) => {
    if (number === 1) {
      const first = parsed(bytes);
      if (first?.kind !== "header") notLinear();
      header = first.header;
      return;
    }
    const line = bytes as Buffer;
    if (BOOKKEEPING.some((head) => startsWith(line, head))) return;
    if (WITH_CALL.some((head) => startsWith(line, head))) {
      // In file order with the killed answer's partials, should it hang among them.
      if (trailing.length) trailing.push([offset, offset + line.length]);
      else addRun(ranges, [offset, offset + line.length]);
      return;
    }
    const after = AFTER_END.find((h) => startsWith(line, h));
    // A kind, a key order or a blank line this reading does not vouch for ends it.
    const head = after ?? CONVERSATION.find((h) => startsWith(line, h)) ?? notLinear();
    const idEnd = line.indexOf(QUOTE, head.length);
    if (idEnd === -1 || !startsWith(line, PARENT, idEnd)) notLinear();
    const id = line.toString("latin1", head.length, idEnd);
    const parentAt = idEnd + PARENT.length;
    let parent: string | null = null;
    if (!startsWith(line, NULL, parentAt)) {
      const parentEnd = line[parentAt] === QUOTE ? line.indexOf(QUOTE, parentAt + 1) : -1;
      if (parentEnd === -1) notLinear();
      parent = line.toString("latin1", parentAt + 1, parentEnd);
    }
    // An escaped id could equal another spelled differently: only the whole tree judges that.
    if (parent !== previous || id.includes("\\")) notLinear();
    if (after) {
      trailing.push([offset, offset + line.length]);
      return;
    }
    trailing = []; // the answer's message followed: its partials are history
    previous = id;
    leafAt = offset;
    if (head === MESSAGE_HEAD && isStamped(line)) stampedAt = offset;
    addRun(ranges, [offset, offset + line.length]);
  };
  try {
    // A last line with no newline may be torn (the next open trims it): the whole tree tells.
    if (scanLines(fd, 0, size, onLine, notLinear, Buffer.allocUnsafe(1 << 20)).bytes.length) return undefined;
  } catch (error) {
    if (error === NOT_LINEAR) return undefined;
    throw error;
  }
  if (!header || leafAt === -1) return undefined;
  const leaf = entryAt(fd, leafAt, size);
  const stamped = stampedAt === -1 ? undefined : entryAt(fd, stampedAt, size);
  if (!leaf || (stampedAt !== -1 && !stamped)) return undefined;
  for (const range of trailing) addRun(ranges, range);
  return { header, leaf, stamped, ranges };
}

/** Adds a line's range to runs in file order, joining it to the last run when they are next to each other. */
export function addRun(runs: ByteRange[], [start, end]: ByteRange): void {
  const last = runs.at(-1);
  if (last && last[1] + 1 === start) last[1] = end;
  else runs.push([start, end]);
}

const NOT_LINEAR = new Error("not a linear path");
function notLinear(): never {
  throw NOT_LINEAR;
}

/** A message line whose own `provider` (before its `message`, not the one inside it) is there. */
function isStamped(line: Buffer): boolean {
  const message = line.indexOf(MESSAGE);
  const stamp = line.indexOf(STAMP);
  return stamp !== -1 && message !== -1 && stamp < message;
}

function parsed(bytes: Uint8Array): ReturnType<typeof parseLine> | undefined {
  try {
    return parseLine(bytes);
  } catch (error) {
    if (error instanceof LineError) return undefined;
    throw error;
  }
}

function entryAt(fd: number, offset: number, size: number): SessionEntry | undefined {
  const line = readLineAt(fd, offset, size);
  const entry = line && parsed(line);
  return entry?.kind === "entry" ? entry.entry : undefined;
}
