// The one owner of a session file (STYLE: one writer owns the log). It replays
// the log on open, appends one durable line per message, and answers questions
// about the entry tree. Everything else in awl goes through it.
import { closeSync, fchmodSync, fstatSync, fsyncSync, ftruncateSync, openSync } from "node:fs";
import { dirname, join } from "node:path";
import { Conversation } from "../conversation";
import { UserError } from "../errors";
import { checkDiskMessage, isMessageEntry, serializeEntry, serializeHeader } from "./codec";
import { diskMessageToInternal } from "./convert";
import { APPEND_FLAGS, CREATE_FLAGS, fsyncDir, mkdirPrivate, writeAll } from "./files";
import { newEntryId, newSessionId } from "./ids";
import { listSessions, type SessionInfo } from "./listing";
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
    const sessions = await listSessions(cwd);
    const when = (s: SessionInfo) => s.lastActivity ?? s.created;
    const recent = sessions.reduce<SessionInfo | undefined>((best, s) => (!best || when(s) >= when(best) ? s : best), undefined);
    return recent ? SessionManager.open(recent.path) : null;
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
      // Leave no partial line for the next append to build on.
      ftruncateSync(fd, this.#size);
      throw error;
    }
    this.#size += Buffer.byteLength(line);
    this.#missingNewline = false;
    this.#index(entry);
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

  /** First append: directories, the file (0600), the lock, the header line. */
  #create(): number {
    mkdirPrivate(dirname(this.sessionFile));
    checkFolder(dirname(this.sessionFile)); // not a symlink to elsewhere, not someone else's
    const fd = openSync(this.sessionFile, CREATE_FLAGS, 0o600);
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
      throw error;
    }
    this.#fd = fd;
    return fd;
  }
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
    throw error;
  }
}
