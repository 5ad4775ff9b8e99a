// The one owner of a session file (STYLE: one writer owns the log). It replays
// the log on open, appends one durable line per message, and answers questions
// about the entry tree. Everything else in awl goes through it.
import { closeSync, fchmodSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { Conversation } from "../conversation";
import { UserError } from "../errors";
import { checkDiskMessage, isMessageEntry, serializeEntry, serializeHeader } from "./codec";
import { diskMessageToInternal } from "./convert";
import { APPEND_FLAGS, CREATE_FLAGS, fsyncDir, mkdirPrivate, writeAll } from "./files";
import { newEntryId, newSessionId } from "./ids";
import { listSessions, type SessionInfo } from "./listing";
import { mostRecentSession } from "./recent";
import { acquireLock } from "./lock";
import { sessionDir, sessionFileName } from "./paths";
import { MAX_LINE_BYTES, replay } from "./replay";
import { checkFolder, checkTrusted, NO_FOLLOW, READ_FLAGS } from "./trust";
import type { DiskMessage, MessageEntry, SessionEntry, SessionHeader } from "./schema";

export const FORMAT_VERSION = 1;

export type ModelRef = { provider: string; model: string };

interface State {
  header: SessionHeader;
  file: string;
  entries: SessionEntry[];
  fd?: number;
  release?: () => void;
  size: number;
  missingNewline: boolean;
  readOnlyReason?: string;
  recovery?: { trimmedBytes: number; preview: string };
}

export class SessionManager {
  readonly sessionId: string;
  readonly cwd: string;
  readonly sessionFile: string;
  readonly header: SessionHeader;
  readonly readOnly: boolean;
  readonly readOnlyReason?: string;
  /** What crash recovery cut from the end of the file, so the user can be told. */
  readonly recovery?: { trimmedBytes: number; preview: string };

  #fd: number | undefined;
  #release: (() => void) | undefined;
  #size: number;
  #missingNewline: boolean;
  #closed = false;
  /** Set when a failed write could not be cut back: appending more would build on a torn line. */
  #broken: string | undefined;
  readonly #byId = new Map<string, SessionEntry>();
  #leafId: string | null = null;
  #messages = 0;

  private constructor(s: State) {
    this.header = s.header;
    this.sessionId = s.header.id;
    this.cwd = s.header.cwd;
    this.sessionFile = s.file;
    this.readOnly = s.readOnlyReason !== undefined;
    this.readOnlyReason = s.readOnlyReason;
    this.recovery = s.recovery;
    this.#fd = s.fd;
    this.#release = s.release;
    this.#size = s.size;
    this.#missingNewline = s.missingNewline;
    for (const entry of s.entries) this.#index(entry);
  }

  /** A new session. Nothing touches the disk until the first message (DESIGN 10). */
  static init(o: { cwd: string; provider: string; model: string }): SessionManager {
    const id = newSessionId();
    const timestamp = new Date().toISOString();
    const header: SessionHeader = { type: "session", version: FORMAT_VERSION, id, timestamp, cwd: o.cwd, provider: o.provider, model: o.model };
    const file = join(sessionDir(o.cwd), sessionFileName(timestamp, id));
    return new SessionManager({ header, file, entries: [], size: 0, missingNewline: false });
  }

  /** Opens and replays a session file: lock first (unless read-only), then crash recovery. */
  static async open(path: string, o: { readOnly?: boolean } = {}): Promise<SessionManager> {
    const fd = openExisting(path, (o.readOnly ? READ_FLAGS : APPEND_FLAGS) | NO_FOLLOW);
    let release: (() => void) | undefined;
    try {
      checkTrusted(path, fstatSync(fd)); // before the lock's sidecar is written beside it
      if (!o.readOnly) release = acquireLock(path, fd);
      const size = fstatSync(fd).size;
      const log = replay(fd, path, size);
      const newer = log.header.version > FORMAT_VERSION;
      const readOnlyReason = newer
        ? `${path} was written in session format version ${log.header.version}, newer than this awl understands (${FORMAT_VERSION}); it is open read-only: upgrade awl to continue it`
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
      const state: State = { header: log.header, file: path, entries: log.entries, size: end, missingNewline: log.missingNewline, readOnlyReason, recovery };
      return new SessionManager(readOnlyReason ? state : { ...state, fd, release });
    } catch (error) {
      release?.();
      closeSync(fd);
      throw error;
    }
  }

  /** The session here whose LAST entry is newest (not the newest file name), or null. */
  static async continueRecent(cwd: string): Promise<SessionManager | null> {
    const path = mostRecentSession(cwd);
    return path ? SessionManager.open(path) : null;
  }

  static listSessions(cwd: string): Promise<SessionInfo[]> {
    return listSessions(cwd);
  }

  /**
   * Appends a message as the child of the current leaf: one write of one line,
   * then fsync, before returning the new entry's id. User messages carry the
   * provider/model the request goes to (`stamp`, required for them).
   */
  appendMessage(message: DiskMessage, stamp?: ModelRef): string {
    if (this.readOnly) throw new UserError(this.readOnlyReason ?? `${this.sessionFile} is read-only`);
    if (this.#closed) throw new Error("appendMessage on a closed session");
    if (this.#broken) throw new UserError(this.#broken);
    if (message.role === "user" && !stamp) throw new Error("a user message needs the provider/model stamp");
    checkDiskMessage(message);
    const entry: MessageEntry = {
      type: "message",
      id: newEntryId(this.#byId),
      parentId: this.#leafId,
      timestamp: new Date().toISOString(),
      ...(message.role === "user" && stamp ? { provider: stamp.provider, model: stamp.model } : {}),
      message,
    };
    const text = serializeEntry(entry);
    // A longer line could never be opened again (replay's limit): refuse it before it is written.
    if (Buffer.byteLength(text) > MAX_LINE_BYTES) throw new UserError(`this message is too large to save (over ${MAX_LINE_BYTES >> 20} MB); nothing was sent`);
    const fd = this.#fd ?? this.#create();
    const line = `${this.#missingNewline ? "\n" : ""}${text}\n`;
    try {
      writeAll(fd, line);
      fsyncSync(fd);
    } catch (error) {
      // Leave no partial line for the next append to build on; if even the cut
      // fails (an immutable file refuses both), refuse further appends instead.
      try {
        ftruncateSync(fd, this.#size);
      } catch {
        this.#broken = `${this.sessionFile} has an unfinished line that could not be removed; awl --resume removes it`;
      }
      // A full disk or a read-only file is the user's to fix, not a bug: say so in one line (issue 6).
      throw new UserError(`could not save to ${this.sessionFile}: ${fsReason(error)}; everything before this message is saved`);
    }
    this.#size += Buffer.byteLength(line);
    this.#missingNewline = false;
    this.#index(entry);
    // Deleted while we hold it open: appends would go on into an unlinked inode
    // and vanish with it at exit. Put the file back whole, then say so.
    if (fstatSync(fd).nlink === 0) throw new UserError(this.#restoreDeleted(fd));
    return entry.id;
  }

  getLeafId(): string | null {
    return this.#leafId;
  }

  getEntry(id: string): SessionEntry | undefined {
    return this.#byId.get(id);
  }

  /** Root-to-leaf path ending at `fromId` (default: the leaf). Stops at a missing parent or a cycle. */
  getBranch(fromId?: string | null): SessionEntry[] {
    const path: SessionEntry[] = [];
    const seen = new Set<string>();
    let entry = this.#byId.get((fromId === undefined ? this.#leafId : fromId) ?? "");
    while (entry && !seen.has(entry.id)) {
      seen.add(entry.id);
      path.push(entry);
      entry = entry.parentId === null ? undefined : this.#byId.get(entry.parentId);
    }
    return path.reverse();
  }

  /** The in-memory conversation along the current branch; entries of unknown types are skipped. */
  rebuildConversation(): Conversation {
    const messages = [];
    for (const entry of this.getBranch()) if (isMessageEntry(entry)) messages.push(diskMessageToInternal(entry.message));
    return new Conversation(messages);
  }

  /** The provider/model of the last stamped user message on the branch, else the header's. */
  activeModel(): ModelRef {
    const branch = this.getBranch();
    for (let i = branch.length - 1; i >= 0; i--) {
      const entry = branch[i]!;
      if (isMessageEntry(entry) && entry.message.role === "user" && entry.provider && entry.model) return { provider: entry.provider, model: entry.model };
    }
    return { provider: this.header.provider, model: this.header.model };
  }

  /** Every message entry in the file (system, user, assistant, tool results: DESIGN 19). */
  messageCount(): number {
    return this.#messages;
  }

  /** Releases the lock and the file; safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#release?.();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #index(entry: SessionEntry): void {
    this.#byId.set(entry.id, entry);
    this.#leafId = entry.id;
    if (isMessageEntry(entry)) this.#messages++;
  }

  /**
   * Writes what the unlinked file still holds back to its path, and appends
   * there from now on (with a fresh lock). Returns what to tell the person.
   */
  #restoreDeleted(old: number): string {
    const what = `${this.sessionFile} was deleted while awl was running`;
    let fd: number | undefined;
    try {
      mkdirPrivate(dirname(this.sessionFile));
      checkFolder(dirname(this.sessionFile));
      fd = openSync(this.sessionFile, CREATE_FLAGS, 0o600);
      fchmodSync(fd, 0o600);
      const buffer = Buffer.allocUnsafe(1 << 20);
      for (let at = 0; at < this.#size; ) {
        const n = readSync(old, buffer, 0, Math.min(buffer.length, this.#size - at), at);
        if (n === 0) break;
        for (let done = 0; done < n; ) done += writeSync(fd, buffer, done, n - done);
        at += n;
      }
      fsyncSync(fd);
      fsyncDir(this.sessionFile);
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      const why = error instanceof UserError ? error.message : fsReason(error);
      this.#broken = `${what}, and could not be written back (${why}); this conversation is no longer saved`;
      return this.#broken;
    }
    this.#release?.();
    closeSync(old);
    this.#fd = fd;
    this.#release = acquireLock(this.sessionFile, fd);
    return `${what}; it has been written back with the whole conversation so far (awl --resume continues it)`;
  }

  /** First append: directories, the file (0600), the lock, the header line. */
  #create(): number {
    let fd: number;
    try {
      mkdirPrivate(dirname(this.sessionFile));
      checkFolder(dirname(this.sessionFile)); // not a symlink to elsewhere, not someone else's
      fd = openSync(this.sessionFile, CREATE_FLAGS, 0o600);
    } catch (error) {
      if (error instanceof UserError) throw error;
      throw new UserError(`could not create ${this.sessionFile}: ${fsReason(error)}; nothing was sent`);
    }
    try {
      fchmodSync(fd, 0o600);
      this.#release = acquireLock(this.sessionFile, fd);
      const line = `${serializeHeader(this.header)}\n`;
      writeAll(fd, line);
      fsyncSync(fd);
      fsyncDir(this.sessionFile);
      this.#size = Buffer.byteLength(line);
    } catch (error) {
      this.#release?.();
      closeSync(fd);
      // A half-written header (full disk) would be a damaged session forever: the file is ours (O_EXCL), remove it.
      try {
        unlinkSync(this.sessionFile);
      } catch {
        // nothing more to undo
      }
      throw error instanceof UserError ? error : new UserError(`could not create ${this.sessionFile}: ${fsReason(error)}; nothing was sent`);
    }
    this.#fd = fd;
    return fd;
  }
}

/** A file-system error in words a person can act on. */
function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const reasons: Record<string, string> = {
    ENOSPC: "no space left on the device",
    EDQUOT: "disk quota exceeded",
    EFBIG: "file too large (over the file size limit)",
    EROFS: "read-only file system",
    EACCES: "permission denied",
    EPERM: "operation not permitted (is the file immutable or append-only?)",
    EIO: "input/output error",
  };
  return (code && reasons[code]) ?? (error instanceof Error ? error.message : String(error));
}

function openExisting(path: string, flags: string | number): number {
  try {
    return openSync(path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UserError(`no session file at ${path}`);
    if (code === "EISDIR") throw new UserError(`${path} is a directory, not a session file`);
    if (code === "ELOOP") throw new UserError(`${path} is a symbolic link; refusing to open it as a session (it could point anywhere)`);
    if (code === "EACCES" || code === "EPERM") throw new UserError(`cannot open ${path}: permission denied`);
    if (code === "EROFS") throw new UserError(`cannot open ${path} to continue it: read-only file system`);
    throw error;
  }
}
