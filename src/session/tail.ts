// Resume from the tail: where the live context starts in a compacted file,
// found without parsing what lies before it. Every line awl writes begins
// `{"type":"<kind>","id":"<id>","parentId":`, so the latest compaction and the
// entry it keeps from are found by their heads, reading the file backwards in
// blocks (docs/session-format.md, "Resume from the tail").
import { readSync } from "node:fs";
import { LineError, entryIdHead, entryLineHead, parseLine } from "./codec";
import { isPrompt } from "./context";
import { lastIndexBefore, lastLineWithHead, readLineAt } from "./lines";
import type { MessageEntry, SessionEntry, SessionHeader } from "./schema";

export interface Tail {
  /** Offset of the latest valid compaction's first kept entry: replay starts here. */
  offset: number;
  header: SessionHeader;
  /** The session's system message (its first entry), which a compacted context opens with. */
  system?: MessageEntry;
}

/**
 * The tail of a compacted file, or undefined: no compaction that keeps from an
 * earlier prompt (replay the whole file), or a header or first entry that does
 * not read (the whole replay says what is wrong, by line).
 */
export function findTail(fd: number, size: number): Tail | undefined {
  const block = Buffer.allocUnsafe(1 << 20);
  let offset: number | undefined;
  for (let before = size; offset === undefined; ) {
    const at = lastLineWithHead(fd, entryLineHead("compaction"), before, block);
    if (at === undefined) return undefined;
    before = at;
    const compaction = entryAt(fd, at, size);
    if (compaction?.type !== "compaction") continue; // torn or damaged: the one before it, if any
    const keptAt = lastLineWithId(fd, compaction.firstKeptEntryId, at, block);
    const kept = keptAt === undefined ? undefined : entryAt(fd, keptAt, size);
    if (kept && isPrompt(kept)) offset = keptAt;
  }
  const start = firstLines(fd, size);
  return start && { offset, ...start };
}

/**
 * The start of the nearest line before `before` whose entry has this id, of
 * whatever kind (a parentId, and a firstKeptEntryId, name the nearest earlier
 * entry with that id). Inside a line, `","id":"x","parentId":` can only be
 * the entry's own head: quotes within strings are escaped.
 */
function lastLineWithId(fd: number, id: string, before: number, block: Buffer): number | undefined {
  const needle = Buffer.from(`",${entryIdHead(id)}`);
  const head = Buffer.allocUnsafe(256);
  for (let end = before; ; ) {
    const at = lastIndexBefore(fd, needle, end, block);
    if (at === undefined) return undefined;
    // The line's start: `{"type":"<kind>` right after a newline.
    const from = Math.max(0, at - head.length);
    const read = readSync(fd, head, 0, at - from, from);
    const start = head.subarray(0, read).lastIndexOf(0x0a);
    if (start !== -1 && /^\{"type":"[^"\\]*$/.test(head.toString("utf8", start + 1, read))) return from + start + 1;
    end = at + needle.length - 1;
  }
}

/** The header and the session's system message, from the top of the file. */
function firstLines(fd: number, size: number): Omit<Tail, "offset"> | undefined {
  let header: SessionHeader | undefined;
  for (let at = 0; at < size; ) {
    const bytes = readLineAt(fd, at, size);
    if (!bytes) return undefined;
    let parsed: ReturnType<typeof parseLine>;
    try {
      parsed = parseLine(bytes);
    } catch (error) {
      if (error instanceof LineError) return undefined;
      throw error;
    }
    at += bytes.length + 1;
    if (!parsed) continue; // blank
    if (!header) {
      if (parsed.kind !== "header") return undefined;
      header = parsed.header;
    } else {
      if (parsed.kind !== "entry") return undefined;
      const first = parsed.entry;
      return { header, system: first.type === "message" && first.message.role === "system" ? first : undefined };
    }
  }
  return undefined;
}

function entryAt(fd: number, offset: number, size: number): SessionEntry | undefined {
  const bytes = readLineAt(fd, offset, size);
  if (!bytes) return undefined;
  try {
    const parsed = parseLine(bytes);
    return parsed?.kind === "entry" ? parsed.entry : undefined;
  } catch (error) {
    if (error instanceof LineError) return undefined;
    throw error;
  }
}
