// The whole active path of a session file, root to leaf, read in one pass
// (export needs all of it, not just what resume reads from the latest
// compaction on), with each entry's line offset so that its original bytes can
// be copied as they are. Parents resolve as on open: a parentId names the
// nearest earlier entry with that id; bookkeeping entries are never the leaf.
import { closeSync, fstatSync, openSync } from "node:fs";
import { isBookkeeping } from "./codec";
import { readLineAt } from "./lines";
import { readLog } from "./replay";
import type { SessionEntry, SessionHeader } from "./schema";

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
    const parent = new Map<PathEntry, PathEntry>();
    const byId = new Map<string, PathEntry>();
    let leaf: PathEntry | undefined;
    let skipped = 0;
    const end = readLog(fd, path, size, {
      entry(entry, place) {
        const node = { entry, offset: place.offset };
        const up = entry.parentId === null ? undefined : byId.get(entry.parentId);
        if (up) parent.set(node, up);
        byId.set(entry.id, node);
        if (!isBookkeeping(entry)) leaf = node;
      },
      damage() {
        skipped++;
      },
    });
    const entries: PathEntry[] = [];
    for (let at = leaf; at; at = parent.get(at)) entries.push(at);
    entries.reverse();
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
