// The one owner of a session file: one writer owns the log. It replays the log
// on open (from the compaction in force on the active path, when there is one), appends one
// durable line per entry, and answers questions about the entry tree and the
// context built from it. Everything else in awl goes through it.
import { closeSync, fstatSync, fsyncSync, ftruncateSync } from "node:fs";
import { join } from "node:path";
import { Conversation } from "../../conversation";
import { saidWords } from "./cwd-note";
import { UserError } from "../../errors";
import { checkEntry, serializeEntry, wrappedEntry } from "./codec";
import { createLogFile, writeBack } from "./log-file";
import { openLog, type State } from "./open-log";
import { buildSessionContext, contextSize, isPrompt, type ContextSize, type ContextSources, type ModelRef, type SessionContext } from "./context";
import { writeAll } from "../../private-file";
import { fsReason } from "./files";
import { newEntryId, newSessionId } from "./ids";
import { MAX_LINE_BYTES } from "./lines";
import { acquireLock } from "./lock";
import { sessionDir, sessionFileName } from "./paths";
import { findProject, projectOf } from "./project";
import { FORMAT_VERSION, tooLarge } from "./refusals";
import { readActivePath } from "./tail";
import { EntryIndex, isTarget } from "./entry-index";
import { decisionsOf } from "./kinds";
import type { BashEffectsEntry, BranchSummaryEntry, ChildEntry, CompactionEntry, CustomEntry, CustomMessageEntry, DiskMessage, FileChangeEntry, LabelEntry, LeafEntry, MessageEntry, PartialEntry, ProjectRef, SessionEntry, SessionHeader, SessionInfoEntry, Usage, WrittenEntry } from "./schema";
import { answerFromPartials, latestAttempt } from "./partials";
import { readTitle, titleFromPrompt, type Title } from "./title";

export { FORMAT_VERSION };

export type { ModelRef };

/** What a compaction entry says, apart from what every entry has. */
export type CompactionFields = Omit<CompactionEntry, "type" | "id" | "parentId" | "timestamp">;
/** What a branch summary says, apart from what every entry has. */
export type BranchSummaryFields = Omit<BranchSummaryEntry, "type" | "id" | "parentId" | "timestamp">;
/** What a file_change entry says, apart from what every entry has. */
export type FileChangeFields = Omit<FileChangeEntry, "type" | "id" | "parentId" | "timestamp">;
/** What a partial entry says, apart from what every entry has. */
export type PartialFields = Omit<PartialEntry, "type" | "id" | "parentId" | "timestamp">;
/** What an extension's custom entry says, apart from what every entry has. */
export type CustomFields = Omit<CustomEntry, "type" | "id" | "parentId" | "timestamp">;
/** What an extension's custom_message entry says, apart from what every entry has. */
export type CustomMessageFields = Omit<CustomMessageEntry, "type" | "id" | "parentId" | "timestamp">;
/** What a bash_effects entry says, apart from what every entry has. */
export type BashEffectsFields = Omit<BashEffectsEntry, "type" | "id" | "parentId" | "timestamp">;

export class SessionManager {
  readonly sessionId: string;
  readonly cwd: string;
  readonly sessionFile: string;
  readonly header: SessionHeader;
  readonly readOnly: boolean;
  readonly readOnlyReason?: string;
  /** What crash recovery cut from the end of the file, so the user can be told. */
  readonly recovery?: { trimmedBytes: number; preview: string };
  /** Where open began to read entries: 0, or the first kept entry of the compaction in force on the active path (resume from the tail). */
  get readFrom(): number {
    return this.#readFrom;
  }

  #readFrom: number;

  #fd: number | undefined;
  /** The project the header will record, once asked (learnProject); #create asks itself otherwise. */
  #project: { ref: ProjectRef | undefined } | undefined;
  #release: (() => void) | undefined;
  #size: number;
  #missingNewline: boolean;
  #closed = false;
  /** Set when a failed write could not be cut back: appending more would build on a torn line. */
  #broken: string | undefined;
  /** The entry tree read and appended so far, and the leaf it says the conversation goes on from. */
  #index = new EntryIndex();
  /** The session's first entry when it is a system message (a compacted context opens with it). */
  #system: MessageEntry | undefined;
  #messages = 0;
  /** Prompts read or written: the first one written to a session without any names it. */
  #prompts = 0;
  #context: SessionContext | undefined;
  /** The compaction in force and where the context begins, known once asked for; only appending a compaction changes them. */
  #inForce: { entry?: CompactionEntry; from: number } | undefined;
  /** Told where each line written lands in the file (`awl -p --json` streams those bytes). */
  #written: ((start: number, end: number) => void) | undefined;
  /** The latest session_info read or written; undefined until one is (a file read from its tail is searched once). */
  #title: Title | undefined;
  /** Each subagent's entries read or written, by the id of the call it worked for. */
  #children = new Map<string, SessionEntry[]>();
  /** A child's (SessionManager.child): where its entries go instead of a file of its own. */
  #sink: ((entry: WrittenEntry) => void) | undefined;

  private constructor(s: State) {
    this.header = s.header;
    this.sessionId = s.header.id;
    this.cwd = s.header.cwd;
    this.sessionFile = s.file;
    this.readOnly = s.readOnlyReason !== undefined;
    this.readOnlyReason = s.readOnlyReason;
    this.recovery = s.recovery;
    this.#readFrom = s.readFrom;
    this.#system = s.system;
    this.#fd = s.fd;
    this.#release = s.release;
    this.#size = s.size;
    this.#missingNewline = s.missingNewline;
    s.entries.forEach((entry, i) => this.#add(entry, s.offsets?.[i]));
  }

  /** A new session. Nothing touches the disk until the first message: starting awl and quitting leaves no file. */
  static init(o: { cwd: string; provider: string; model: string }): SessionManager {
    const id = newSessionId();
    const timestamp = new Date().toISOString();
    const header: SessionHeader = { type: "session", version: FORMAT_VERSION, id, timestamp, cwd: o.cwd, provider: o.provider, model: o.model };
    const file = join(sessionDir(o.cwd), sessionFileName(timestamp, id));
    return new SessionManager({ header, file, entries: [], readFrom: 0, size: 0, missingNewline: false });
  }

  /**
   * The in-memory session of a `task` call's child agent (docs/subagents.md):
   * no file of its own; each entry it appends is written at once into
   * `parent`'s log, wrapped in a `child` entry naming the call (`task`).
   * It has no title; its project is its parent's.
   */
  static child(parent: SessionManager, task: string): SessionManager {
    const child = new SessionManager({ header: { ...parent.header }, file: parent.sessionFile, entries: [], readFrom: 0, size: 0, missingNewline: false });
    child.#sink = (entry) => parent.appendChild(task, entry);
    return child;
  }

  /** Writes one of a child's entries (bookkeeping: the leaf stays); a child's partials are not fsync'd, as the parent's are not. */
  appendChild(task: string, entry: WrittenEntry): ChildEntry {
    return this.#appendEntry((base) => ({ type: "child", ...base, task, entry }), { fsync: entry.type !== "partial" }) as ChildEntry;
  }

  /**
   * Opens and replays a session file: lock first (unless read-only), then
   * crash recovery. A compacted file is read from its latest compaction's first
   * kept entry on (plus its header and system message): the cost of a resume
   * follows the live context, not the file.
   */
  static async open(path: string, o: { readOnly?: boolean } = {}): Promise<SessionManager> {
    return new SessionManager(openLog(path, o));
  }

  /**
   * Appends a message as the child of the current leaf: one write of one line,
   * then fsync, before returning the new entry's id. User messages carry the
   * provider/model the request goes to (`stamp`, required for them).
   */
  appendMessage(message: DiskMessage, stamp?: ModelRef & { effort?: string }, prefixHash?: string): string {
    if (message.role === "user" && !stamp) throw new Error("a user message needs the provider/model stamp");
    const user = message.role === "user" && stamp ? { provider: stamp.provider, model: stamp.model, ...(stamp.effort ? { effort: stamp.effort } : {}) } : {};
    const hash = message.role === "assistant" && prefixHash ? { prefixHash } : {};
    const entry = this.#appendEntry((base) => ({ type: "message", ...base, ...user, ...hash, message }));
    // A new session is named by its first prompt at once, so a log that ends
    // here (a failed or killed run) is already findable; a model-written title
    // may replace it later. Sessions that had prompts before titles existed stay unnamed.
    if (isPrompt(entry) && this.#prompts === 1 && !this.#sink && this.title() === undefined) this.setTitle(titleFromPrompt(saidWords(entry.message.content)), "auto"); // the person's words, not the files an @path attached
    return entry.id;
  }

  /**
   * Names the session (a bookkeeping entry: the leaf stays where it is). An
   * auto title never replaces a user one: false, and nothing is written.
   * `request`: the model request that wrote an auto title, with its usage.
   */
  setTitle(title: string, source: "auto" | "user", request?: { provider: string; model: string; usage?: Usage }): boolean {
    if (source === "auto" && this.title()?.source === "user") return false;
    this.#appendEntry((base) => ({ type: "session_info", ...base, title, source, ...request }) as SessionInfoEntry);
    return true;
  }

  /** The session's title: the latest session_info in the file (none: the first prompt stands for it, see titleFromPrompt). */
  title(): Title | undefined {
    if (this.#title === undefined && this.readFrom > 0 && this.#fd !== undefined) this.#title = readTitle(this.#fd, this.#size);
    return this.#title;
  }

  /** Appends a compaction as the child of the current leaf; it becomes the leaf, and the context is built from it on. */
  appendCompaction(fields: CompactionFields): CompactionEntry {
    return this.#appendEntry((base) => ({ type: "compaction", ...base, ...fields })) as CompactionEntry;
  }

  /** Records a file a tool (or a rewind) is about to change; it continues the conversation, as a message does. */
  appendFileChange(fields: FileChangeFields): FileChangeEntry {
    return this.#appendEntry((base) => ({ type: "file_change", ...base, ...fields })) as FileChangeEntry;
  }

  /**
   * Records the files a rewind is about to change, one entry each, made
   * durable by one fsync after the last (a rewind of 500 files would
   * otherwise wait on 500): none of the files is written before this returns.
   */
  appendFileChanges(changes: readonly FileChangeFields[]): void {
    for (const fields of changes) this.#appendEntry((base) => ({ type: "file_change", ...base, ...fields }), { fsync: false });
    if (changes.length && this.#fd !== undefined) this.#sync(this.#fd, "file_change");
  }

  /** Records what a shell command changed in the working tree. */
  appendBashEffects(fields: BashEffectsFields): BashEffectsEntry {
    return this.#appendEntry((base) => ({ type: "bash_effects", ...base, ...fields })) as BashEffectsEntry;
  }

  /**
   * Records what arrived of an answer's block while it streams (bookkeeping:
   * the leaf stays). Not fsync'd: the page cache outlives a killed process,
   * and the finished message that follows is.
   */
  appendPartial(fields: PartialFields): PartialEntry {
    return this.#appendEntry((base) => ({ type: "partial", ...base, ...fields }), { fsync: false }) as PartialEntry;
  }

  /** Records an extension's own data (never sent): it continues the conversation, so going back takes it back. */
  appendCustom(fields: CustomFields): CustomEntry {
    return this.#appendEntry((base) => ({ type: "custom", ...base, ...fields })) as CustomEntry;
  }

  /** Records an extension's words for the model, sent with the next request; it continues the conversation. */
  appendCustomMessage(fields: CustomMessageFields): CustomMessageEntry {
    return this.#appendEntry((base) => ({ type: "custom_message", ...base, ...fields })) as CustomMessageEntry;
  }

  /** The request number the next partial of the answer after the leaf takes: one more than the latest attempt written for it. */
  nextAttempt(): number {
    return latestAttempt(this.#index.partialsOf(this.#index.leaf)) + 1;
  }

  /**
   * The answer a killed awl was streaming after the leaf, read from the
   * partials of its latest attempt (see partials.ts); undefined when none
   * waits. It is written as a message only when the conversation goes on.
   */
  interruptedAnswer(): DiskMessage | undefined {
    const answer = answerFromPartials(this.#index.partialsOf(this.#index.leaf));
    // Who was answering: the model the request went to (the last stamp on the path).
    return answer && { ...answer, ...this.activeModel() };
  }

  /**
   * The one private append: the entry (made from its id, parent and time) is
   * checked, written as one line with a single write, and fsync'd before this
   * returns (unless told not to: partials); a failed write is cut back so no
   * partial line is left to build on.
   */
  #appendEntry(make: (base: { id: string; parentId: string | null; timestamp: string }) => WrittenEntry, o: { fsync?: boolean } = {}): WrittenEntry {
    if (this.readOnly) throw new UserError(this.readOnlyReason ?? `${this.sessionFile} is read-only`);
    if (this.#closed) throw new Error("append on a closed session");
    if (this.#broken) throw new UserError(this.#broken);
    const entry = make({ id: newEntryId(this.#index), parentId: this.#index.leaf?.id ?? null, timestamp: new Date().toISOString() });
    checkEntry(entry);
    const text = serializeEntry(entry);
    // A longer line could never be opened again (replay's limit): refuse it before it is written.
    if (Buffer.byteLength(text) > MAX_LINE_BYTES) throw new UserError(tooLarge(entry));
    if (this.#sink) {
      this.#sink(entry);
      this.#add(entry);
      return entry;
    }
    const fd = this.#fd ?? this.#create();
    const line = `${this.#missingNewline ? "\n" : ""}${text}\n`;
    try {
      writeAll(fd, line);
      if (o.fsync !== false) fsyncSync(fd);
    } catch (error) {
      // Leave no partial line for the next append to build on; if even the cut
      // fails (an immutable file refuses both), refuse further appends instead.
      try {
        ftruncateSync(fd, this.#size);
      } catch {
        this.#broken = `${this.sessionFile} has an unfinished line that could not be removed; awl --resume removes it`;
      }
      // A full disk or a read-only file is the user's to fix, not a bug: say so in one line.
      throw new UserError(`could not save to ${this.sessionFile}: ${fsReason(error)}; everything before this ${entry.type} is saved`);
    }
    const start = this.#size + (this.#missingNewline ? 1 : 0);
    this.#size += Buffer.byteLength(line);
    this.#missingNewline = false;
    this.#written?.(start, this.#size);
    this.#add(entry);
    // Deleted while we hold it open: appends would go on into an unlinked inode
    // and vanish with it at exit. Put the file back whole, then say so.
    if (fstatSync(fd).nlink === 0) throw new UserError(this.#restoreDeleted(fd));
    return entry;
  }

  /** fsync after appends that were not synced one by one; a failure is the person's to fix, in one line. */
  #sync(fd: number, what: string): void {
    try {
      fsyncSync(fd);
    } catch (error) {
      throw new UserError(`could not save to ${this.sessionFile}: ${fsReason(error)}; the last ${what} entries may not be saved`);
    }
  }

  /**
   * Moves the leaf to an earlier message, compaction or branch summary: one
   * `leaf` entry, hanging off the current leaf. Nothing is removed; the next
   * entry continues from `targetId`, and so does a later open.
   */
  moveLeaf(targetId: string): LeafEntry {
    const target = this.#index.get(targetId);
    if (target && !isTarget(target)) throw new Error(`${targetId} is a ${target.type} entry: the leaf cannot move there`);
    const entry = this.#appendEntry((base) => ({ type: "leaf", ...base, targetId })) as LeafEntry;
    // A path that reaches back before what open read (resume from the tail): read again, as the next open reads it.
    if (!target || !this.#index.holdsActivePath()) this.#reread();
    return entry;
  }

  /** Names an entry (the leaf by default); an empty label removes the name. */
  setLabel(label: string, targetId = this.getLeafId()): LabelEntry {
    if (targetId === null) throw new UserError("nothing to label yet: the session has no entries");
    return this.#appendEntry((base) => ({ type: "label", ...base, targetId, label })) as LabelEntry;
  }

  /** The label of an entry, if it has one (the latest label written for it). */
  labelOf(id: string): string | undefined {
    return this.#index.label(id);
  }

  /** Appends what a path left behind said, as the child of the (new) leaf; it becomes the leaf. */
  appendBranchSummary(fields: BranchSummaryFields): BranchSummaryEntry {
    return this.#appendEntry((base) => ({ type: "branch_summary", ...base, ...fields })) as BranchSummaryEntry;
  }

  /**
   * Calls `written` with the byte range of every line written from now on
   * (the header of a new session's file included, a leading newline that ends
   * an unterminated last line not), once it is durable.
   */
  onLineWritten(written: (start: number, end: number) => void): void {
    this.#written = written;
  }

  /** True once the file exists: a new session's is created with its first entry. */
  get onDisk(): boolean {
    return this.#sink !== undefined || this.#fd !== undefined || this.#size > 0;
  }

  getLeafId(): string | null {
    return this.#index.leaf?.id ?? null;
  }

  /** The latest entry with this id. */
  getEntry(id: string): SessionEntry | undefined {
    return this.#index.get(id);
  }

  /** Root-to-leaf path ending at `fromId` (default: the leaf); after a resume from the tail, it starts at the first kept entry. */
  getBranch(fromId?: string | null): SessionEntry[] {
    const from = fromId === undefined ? this.#index.leaf : fromId === null ? undefined : this.#index.get(fromId);
    return from ? this.#index.path(from) : [];
  }

  /** The model's context along the current branch (built once per change of the log). */
  context(): SessionContext {
    return (this.#context ??= buildSessionContext(this.getBranch(), this.#sources()));
  }

  /** The context as it would be with this compaction appended (nothing is written): what a compaction is sized by. */
  contextAfter(fields: CompactionFields): SessionContext {
    const draft: CompactionEntry = { type: "compaction", id: "\0draft", parentId: this.#index.leaf?.id ?? null, timestamp: "", ...fields };
    const sources = this.#sources();
    return buildSessionContext([...this.getBranch(), draft], { ...sources, keptEntry: (c) => (c === draft ? this.#index.get(c.firstKeptEntryId) : sources.keptEntry(c)) });
  }

  /** The in-memory conversation the model is sent: entries of unknown kinds are skipped, a compaction stands for what it summarized. */
  rebuildConversation(): Conversation {
    return new Conversation([...this.context().messages]);
  }

  /** The provider/model of the last stamped user message on the branch, else the header's. */
  activeModel(): ModelRef {
    return this.context().model;
  }

  /** The latest compaction in force (one that keeps from an earlier prompt), without rebuilding the context. */
  compaction(): CompactionEntry | undefined {
    return this.#compactionInForce().entry;
  }

  /** Where on the branch the context begins (SessionContext's `from`), without rebuilding the context. */
  contextFrom(): number {
    return this.#compactionInForce().from;
  }

  #compactionInForce(): { entry?: CompactionEntry; from: number } {
    return (this.#inForce ??= { entry: this.context().compaction, from: this.context().from });
  }

  /** What the context costs so far (see contextSize): read back from the leaf, so it costs what came since the last response. */
  contextSize(): ContextSize {
    return contextSize(this.#index.ancestors(), this.compaction());
  }

  /** Compactions passed over on open, in words (their first kept entry is not an earlier prompt). */
  notices(): string[] {
    return this.context().ignored.map((c) => `compaction ${c.id} in ${this.sessionFile} is ignored: its first kept entry ${c.firstKeptEntryId} is not an earlier prompt of this session`);
  }

  /** Every message entry read or appended (system, user, assistant, tool results); after a resume from the tail, those of the tail. */
  messageCount(): number {
    return this.#messages;
  }

  /**
   * The transcript of the subagent of the call `task` (docs/subagents.md),
   * as read or written so far: its messages in order, then the answer it was
   * streaming when it was stopped or awl was killed (its partials after its
   * last message), marked interrupted.
   */
  childTranscript(task: string): DiskMessage[] {
    const entries = this.#children.get(task) ?? [];
    const messages = entries.flatMap((e) => (e.type === "message" ? [e.message] : []));
    const partials = entries.slice(entries.findLastIndex((e) => e.type === "message") + 1).filter((e) => e.type === "partial");
    const cut = answerFromPartials(partials);
    return cut ? [...messages, cut] : messages;
  }

  /** Releases the lock and the file; safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#release?.();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #add(entry: SessionEntry, offset?: number): void {
    if (this.#index.size === 0 && this.#readFrom === 0 && entry.type === "message" && entry.message.role === "system") this.#system = entry;
    this.#index.add(entry, offset);
    if (entry.type === "session_info") this.#title = { title: entry.title, source: entry.source };
    const wrapped = entry.type === "child" ? wrappedEntry(entry) : undefined;
    if (entry.type === "child" && wrapped) {
      const list = this.#children.get(entry.task);
      if (list) list.push(wrapped);
      else this.#children.set(entry.task, [wrapped]);
    }
    this.#context = undefined;
    if (decisionsOf(entry.type).tail !== "read") this.#inForce = undefined; // only a compaction and a leaf move change it (the kind table's `tail`)
    if (entry.type === "message") this.#messages++;
    if (isPrompt(entry)) this.#prompts++;
  }

  #sources(): ContextSources {
    return { header: this.header, system: this.#system, keptEntry: (c) => this.#index.kept(c) };
  }

  /** Reads the file again, under the lock held, as open would now: from the context of the active path on. */
  #reread(): void {
    const { tail, log } = readActivePath(this.#fd!, this.sessionFile, this.#size);
    this.#index = new EntryIndex();
    this.#children = new Map();
    this.#readFrom = tail?.offset ?? 0;
    this.#system = tail?.system;
    log.entries.forEach((entry, i) => this.#add(entry, log.offsets[i]));
    this.#inForce = undefined;
  }

  /**
   * Writes what the unlinked file still holds back to its path, and appends
   * there from now on (with a fresh lock). Returns what to tell the person.
   */
  #restoreDeleted(old: number): string {
    const what = `${this.sessionFile} was deleted while awl was running`;
    let fd: number;
    try {
      fd = writeBack(old, this.#size, this.sessionFile);
    } catch (error) {
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

  /**
   * Asks git for the project before the first append makes the file, without
   * holding awl up: a turn awaits this, and its Esc stops git (the header
   * then names no project). Nothing to do once the file exists.
   */
  async learnProject(env: Record<string, string | undefined>, signal: AbortSignal): Promise<void> {
    if (this.onDisk || this.#project) return;
    this.#project = { ref: await findProject(this.cwd, env, signal) };
  }

  /** First append: the file with its header line (the project asked of git now unless a turn did: starting awl and quitting never waits on it). */
  #create(): number {
    const project = (this.#project ??= { ref: projectOf(this.cwd) }).ref;
    if (project) this.header.project = project;
    const { fd, release, size } = createLogFile(this.sessionFile, this.header);
    this.#release = release;
    this.#size = size;
    this.#written?.(0, size);
    this.#fd = fd;
    return fd;
  }
}
