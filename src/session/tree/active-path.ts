// The whole active path of a session file, root to leaf, read in one pass
// (export needs all of it, not just what resume reads from the latest
// compaction on), with each entry's line offset so that its original bytes can
// be copied as they are. Parents resolve as on open: a parentId names the
// nearest earlier entry with that id, and the leaf is the one the session
// opens at (entry-index.ts: a `leaf` entry moves it, bookkeeping never is it).
import { closeSync, fstatSync, openSync } from "node:fs";
import { EntryIndex, readLineAt, readLog } from "../log";
import type { SessionEntry, SessionHeader } from "../log";

export interface PathEntry {
  entry: SessionEntry;
  /** Where its line starts in the file. */
  offset: number;
}

export interface ActivePath {
  header: SessionHeader;
  entries: PathEntry[];
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
    const end = readLog(fd, path, size, {
      entry(entry, place) {
        index.add(entry, place.offset);
      },
      damage() {
        skipped++;
      },
    });
    const entries: PathEntry[] = index.path().map((entry) => ({ entry, offset: index.offset(entry)! }));
    return {
      header: end.header,
      entries,
      skipped: skipped + (end.torn ? 1 : 0),
      line: (offset) => readLineAt(fd, offset, size) ?? Buffer.alloc(0),
      close: () => closeSync(fd),
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
