// Every entry of a session file, read from its first line (a session resumed
// from its tail holds only the tail, but a file changed before its latest
// compaction is still the rewind's to restore), and the path to any of them.
import { closeSync, fstatSync, openSync } from "node:fs";
import { EntryIndex, replay, NO_FOLLOW, READ_FLAGS } from "../log";
import type { SessionEntry } from "../log";

export interface WholeLog {
  /** Every entry, in file order. */
  entries: readonly SessionEntry[];
  /** The latest entry with this id (a parentId names the nearest earlier one, as when the file is opened). */
  get(id: string): SessionEntry | undefined;
  /** Root-to-entry path ending at `id`; empty for an unknown id. */
  pathTo(id: string | null): SessionEntry[];
}

export function readWholeLog(file: string): WholeLog {
  const fd = openSync(file, READ_FLAGS | NO_FOLLOW);
  let entries: SessionEntry[];
  try {
    entries = replay(fd, file, fstatSync(fd).size).entries;
  } finally {
    closeSync(fd);
  }
  // The same tree, parents and path rules as an open session's.
  const index = new EntryIndex();
  for (const entry of entries) index.add(entry);
  return {
    entries,
    get: (id) => index.get(id),
    pathTo: (id) => {
      const end = id === null ? undefined : index.get(id);
      return end ? index.path(end) : [];
    },
  };
}
