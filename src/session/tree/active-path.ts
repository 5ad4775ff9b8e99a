// The whole active path of a session file, root to leaf, read in one pass
// (export needs all of it, not just what resume reads from the latest
// compaction on), with each entry's line offset so that its original bytes can
// be copied as they are. Parents resolve as on open: a parentId names the
// nearest earlier entry with that id, and the leaf is the one the session
// opens at (entry-index.ts: a `leaf` entry moves it, bookkeeping never is it).
// A killed answer's partials after the leaf come with it, and the answer
// they stand for, as do the entries of the subagents its calls ran.
import { closeSync, fstatSync, openSync } from "node:fs";
import { answerFromPartials, EntryIndex, readLineAt, readLog } from "../log";
import type { DiskMessage, SessionEntry, SessionHeader } from "../log";

export interface PathEntry {
  entry: SessionEntry;
  /** Where its line starts in the file. */
  offset: number;
}

export interface ActivePath {
  header: SessionHeader;
  entries: PathEntry[];
  /** The partials after the leaf with no message after them: a killed answer's (log/partials.ts). */
  after: PathEntry[];
  /** The subagents' entries hanging off the path (docs/subagents.md), in file order. */
  children: PathEntry[];
  /** The answer those partials stand for, when they hold text. */
  interrupted?: DiskMessage;
  /** Lines that could not be read (damage, a torn last line): left out. */
  skipped: number;
  /** The line starting at `offset`, as written (without its newline). */
  line(offset: number): Buffer;
  close(): void;
}

export function readActivePath(path: string): ActivePath {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const index = new EntryIndex();
    let skipped = 0;
    const wrappers: SessionEntry[] = [];
    const end = readLog(fd, path, size, {
      entry(entry, place) {
        index.add(entry, place.offset);
        if (entry.type === "child") wrappers.push(entry);
      },
      damage() {
        skipped++;
      },
    });
    const placed = (entry: SessionEntry): PathEntry => ({ entry, offset: index.offset(entry)! });
    const pending = index.partialsOf(index.leaf);
    const interrupted = answerFromPartials(pending);
    const entries = index.path();
    const onPath = new Set(entries.map((e) => e.id));
    return {
      header: end.header,
      entries: entries.map(placed),
      after: pending.map(placed),
      children: wrappers.filter((w) => w.parentId !== null && onPath.has(w.parentId)).map(placed),
      ...(interrupted ? { interrupted } : {}),
      skipped: skipped + (end.torn ? 1 : 0),
      line: (offset) => readLineAt(fd, offset, size) ?? Buffer.alloc(0),
      close: () => closeSync(fd),
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
