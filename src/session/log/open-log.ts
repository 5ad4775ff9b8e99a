// Opening a session file for the manager: lock first (unless read-only), then
// crash recovery (a torn last line is cut off), then the replay of the active
// path. Apart from the manager because it runs once, before there is one: what
// it returns is the state a manager starts from.

import { closeSync, fstatSync, fsyncSync, ftruncateSync } from "node:fs";
import { UserError } from "../../errors";
import { APPEND_FLAGS, openExisting } from "./files";
import { acquireLock } from "./lock";
import { FORMAT_VERSION, headerVersion, newerFormat } from "./refusals";
import { DamagedLog } from "./replay";
import type { MessageEntry, SessionEntry, SessionHeader } from "./schema";
import { readActivePath } from "./tail";
import { checkSafeToOpen, NO_FOLLOW, READ_FLAGS } from "./safe-to-open";

/** What a manager starts from: the file's header and replayed entries, and, when it may append, its descriptor and lock. */
export interface State {
  header: SessionHeader;
  file: string;
  entries: SessionEntry[];
  offsets?: number[];
  system?: MessageEntry;
  readFrom: number;
  fd?: number;
  release?: () => void;
  size: number;
  missingNewline: boolean;
  readOnlyReason?: string;
  recovery?: { trimmedBytes: number; preview: string };
}

/**
 * Opens and replays a session file. A compacted file is read from its latest
 * compaction's first kept entry on (plus its header and system message).
 */
export function openLog(path: string, o: { readOnly?: boolean }): State {
  const fd = openExisting(path, (o.readOnly ? READ_FLAGS : APPEND_FLAGS) | NO_FOLLOW);
  let release: (() => void) | undefined;
  try {
    checkSafeToOpen(path, fstatSync(fd)); // before the lock's sidecar is written beside it
    if (!o.readOnly) release = acquireLock(path, fd);
    const size = fstatSync(fd).size;
    const { tail, log } = readActivePath(fd, path, size);
    const newer = log.header.version > FORMAT_VERSION;
    const readOnlyReason = newer
      ? `${newerFormat(path, log.header.version)}; it is open read-only: upgrade awl to continue it`
      : o.readOnly
        ? `${path} is open read-only`
        : undefined;
    let recovery: State["recovery"];
    let end = size;
    if (log.torn && !readOnlyReason) {
      ftruncateSync(fd, log.torn.offset);
      fsyncSync(fd);
      recovery = { trimmedBytes: log.torn.bytes, preview: log.torn.preview };
      end = log.torn.offset;
    }
    if (readOnlyReason) {
      release?.();
      closeSync(fd);
    }
    const state: State = { header: log.header, file: path, entries: log.entries, offsets: log.offsets, system: tail?.system, readFrom: tail?.offset ?? 0, size: end, missingNewline: log.missingNewline, readOnlyReason, recovery };
    return readOnlyReason ? state : { ...state, fd, release };
  } catch (error) {
    // Lines of a newer format may not read as this version's: say that, not that they are damaged.
    const version = error instanceof DamagedLog ? headerVersion(fd) : undefined;
    release?.();
    closeSync(fd);
    if (version !== undefined && version > FORMAT_VERSION) throw new UserError(`${newerFormat(path, version)}: upgrade awl to open it (${error instanceof Error ? error.message : error})`);
    throw error;
  }
}
