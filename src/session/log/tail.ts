// Resume from the tail: where the live context starts in a compacted file,
// found without parsing what lies before it. The latest compaction and the
// entry it keeps from are found by searching the file backwards, in blocks,
// for their top-level fields (`"type":"compaction"`, `"id":"<id>"`) and
// parsing the line each match is in (docs/session-format.md, "Resume from the
// tail"). A line awl wrote starts with them, but the search does not count on
// it: a line with its keys in another order is found all the same, so the
// tail and a whole replay of the same file build the same context.
import { LineError, entryIdHead, parseLine } from "./codec";
import { isPrompt } from "./context";
import { EntryIndex } from "./entry-index";
import { kindsWhere } from "./kinds";
import { lastIndexBefore, readLineAt } from "./lines";
import { replay, type Replay } from "./replay";
import type { MessageEntry, SessionEntry, SessionHeader } from "./schema";

export interface Tail {
  /** Offset of the latest valid compaction's first kept entry: replay starts here. */
  offset: number;
  /** Where that compaction's line starts: the search for an earlier tail goes on before it. */
  compactionOffset: number;
  header: SessionHeader;
  /** The session's system message (its first entry), which a compacted context opens with. */
  system?: MessageEntry;
}

/** The kind whose latest line the context starts from (the kind table's `tail`): a compaction, by its first kept entry. */
const STARTS = kindsWhere("tail", "starts")[0]!;
const STARTS_HEAD = Buffer.from(`"type":${JSON.stringify(STARTS)}`);

/** A line found by the backward search: where it starts, and its entry (undefined when it does not read as one). */
interface Found {
  offset: number;
  entry: SessionEntry | undefined;
}

/**
 * The tail of a compacted file, or undefined: no compaction that keeps from an
 * earlier prompt (replay the whole file), a line in the way whose entry cannot
 * be told (the whole replay judges it), or a header or first entry that does
 * not read (the whole replay says what is wrong, by line).
 */
export function findTail(fd: number, size: number, before = size): Tail | undefined {
  const search = new Search(fd, size);
  let offset: number | undefined;
  while (offset === undefined) {
    const found = search.last(STARTS_HEAD, before, (entry) => entry.type === STARTS);
    if (!found) return undefined;
    before = found.offset;
    const compaction = found.entry;
    if (compaction?.type !== STARTS) continue; // torn or damaged: the one before it, if any
    const kept = search.last(Buffer.from(`"id":${JSON.stringify(compaction.firstKeptEntryId)}`), found.offset, (entry) => entry.id === compaction.firstKeptEntryId, compaction.firstKeptEntryId);
    if (kept === "unknown") return undefined;
    if (kept?.entry && isPrompt(kept.entry)) offset = kept.offset;
  }
  const start = firstLines(fd, size);
  return start && { ...start, offset, compactionOffset: before };
}

/**
 * Reads what open needs: from the tail when the file is compacted, else
 * whole. The tail of the latest compaction in the file is tried first; when
 * what it holds does not reach back along the active path (the leaf was
 * moved to before it, or that compaction is on an abandoned branch), the
 * compaction before it is tried, and so on, down to the whole file.
 */
export function readActivePath(fd: number, path: string, size: number): { tail?: Tail; log: Replay } {
  for (let tail = findTail(fd, size); tail; tail = findTail(fd, size, tail.compactionOffset)) {
    const log = replay(fd, path, size, { offset: tail.offset, header: tail.header });
    const index = new EntryIndex();
    for (const entry of log.entries) index.add(entry);
    if (index.holdsActivePath()) return { tail, log };
  }
  return { log: replay(fd, path, size) };
}

/** Backward search for lines by a field they hold, one block buffer for the whole search. */
class Search {
  readonly #block = Buffer.allocUnsafe(1 << 20);
  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {}

  /**
   * The nearest line before `before` holding `needle` whose entry `is` accepts.
   * A match inside a string cannot happen (JSON escapes its quotes), but one in
   * a nested object can: each line is parsed to tell. A line that does not
   * parse is the one found (with no entry) when no `id` is asked for; with
   * one, when its head names that id in awl's own order, and otherwise it
   * cannot be told whose it is: "unknown".
   */
  last(needle: Buffer, before: number, is: (entry: SessionEntry) => boolean): Found | undefined;
  last(needle: Buffer, before: number, is: (entry: SessionEntry) => boolean, id: string): Found | "unknown" | undefined;
  last(needle: Buffer, before: number, is: (entry: SessionEntry) => boolean, id?: string): Found | "unknown" | undefined {
    for (let end = before; ; ) {
      const at = lastIndexBefore(this.fd, needle, end, this.#block);
      if (at === undefined) return undefined;
      const offset = this.#lineStart(at);
      const entry = entryAt(this.fd, offset, this.size);
      if (entry ? is(entry) : id === undefined) return { offset, entry };
      if (!entry && id !== undefined) {
        // Unreadable: in awl's own order its head still says whose it is; in another order nothing does.
        const head = readLineAt(this.fd, offset, Math.min(this.size, offset + 256))?.toString("utf8") ?? "";
        return awlHead(head, id) ? { offset, entry } : "unknown";
      }
      if (offset === 0) return undefined;
      end = offset; // the rest of this line is judged: on to the lines before it
    }
  }

  /** Where the line holding byte `at` starts: after the newline before it, or at the top of the file. */
  #lineStart(at: number): number {
    const newline = lastIndexBefore(this.fd, NEWLINE, at, this.#block);
    return newline === undefined ? 0 : newline + 1;
  }
}

const NEWLINE = Buffer.from("\n");

/** `{"type":"<kind>","id":"<id>","parentId":`, as awl writes every entry. */
function awlHead(head: string, id: string): boolean {
  const kind = /^\{"type":"[^"\\]*",/.exec(head)?.[0];
  return kind !== undefined && head.startsWith(entryIdHead(id), kind.length);
}

/** The header and the session's system message, from the top of the file. */
function firstLines(fd: number, size: number): Omit<Tail, "offset" | "compactionOffset"> | undefined {
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
