// `awl sessions` and `--resume <id>`: what the session files hold. Listing
// reads every line, in bounded blocks, and judges each with the same codec
// that open uses (readLog): a session listed as fine opens, and one listed as
// damaged says the line open would refuse. Damage that lies before the latest
// compaction's first kept entry is listed as such: resume never reads it.
import { closeSync, fstatSync, openSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors";
import { LineError, parseLine, isPrompt, EntryIndex, slimEntry, readLineAt, encodeCwd, idFromFileName, sessionRoot, projectOf, sameProject, DamagedLog, readLog, type Place, titleFromPrompt, isSaidText } from "../log";
import type { ForkedFrom, ProjectRef, SessionEntry, SessionHeader } from "../log";

export interface SessionInfo {
  path: string;
  id: string;
  cwd: string;
  /** ISO 8601: the header's timestamp. */
  created: string;
  /** ISO 8601: the file's mtime. */
  modified: string;
  /** Every message entry in the file, before and after compactions. */
  messageCount: number;
  compactions: number;
  firstPrompt?: string;
  /** The latest session_info's title (a user title wins over an auto one), else the first prompt's first line. */
  title?: string;
  /** ISO 8601: the last entry's timestamp. */
  lastActivity?: string;
  /** One-line reason this session cannot be opened as it is. */
  damaged?: string;
  /** Damage before the latest compaction's first kept entry: resume does not read it, so the session opens. */
  damagedBeforeCompaction?: string;
  /** The session this one is a fork of, and the entry it was taken at. */
  forkedFrom?: ForkedFrom;
}

type Env = Record<string, string | undefined>;
interface HeaderView {
  id: string;
  cwd: string;
  timestamp: string;
  project?: ProjectRef;
  forkedFrom?: ForkedFrom;
}

/** A block reused from file to file: fresh memory costs its page faults again (~3.7 ms per MB here). */
const BLOCK_BYTES = 1 << 20;
/** A header holds an id, a cwd (at most PATH_MAX), a timestamp and a model name. */
const MAX_HEADER_BYTES = 1 << 20;

/**
 * This directory's sessions, oldest first. Folders shared by look-alike cwds
 * are filtered by the header's cwd. `moved`: sessions of this project from
 * other paths (moved.ts), listed too, with their own cwd.
 */
export async function listSessions(cwd: string, env: Env = process.env, moved: readonly string[] = [], signal?: AbortSignal): Promise<SessionInfo[]> {
  const dir = join(sessionRoot(env), encodeCwd(cwd));
  const movedSet = new Set(moved);
  const paths = [...sessionFiles(dir).map((name) => join(dir, name)), ...moved];
  const block = Buffer.allocUnsafe(BLOCK_BYTES);
  const infos: SessionInfo[] = [];
  // Giving way between chunks: a picker on the screen meanwhile keeps taking keys (10,000 sessions take a second or two);
  // once it is answered (`signal`), the rest is not read.
  for (let i = 0; i < paths.length && !signal?.aborted; i += CHUNK) {
    if (i) await Bun.sleep(0);
    for (const path of paths.slice(i, i + CHUNK)) infos.push(inspectQuiet(block, path, cwd));
  }
  return oldestFirst(infos).filter((s) => s.cwd === cwd || movedSet.has(s.path));
}

/** How many sessions are read between two turns of the event loop: a few ms of work. */
const CHUNK = 100;

/** What `awl sessions` shows of these files, oldest first. */
export function describeSessions(paths: string[], cwd: string): SessionInfo[] {
  const block = Buffer.allocUnsafe(BLOCK_BYTES);
  return oldestFirst(paths.map((path) => inspectQuiet(block, path, cwd)));
}

function oldestFirst(infos: SessionInfo[]): SessionInfo[] {
  return infos.sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.path < b.path ? -1 : 1));
}

/**
 * The ids of this directory's session files, from their names alone: enough
 * for a short id (a folder that a look-alike cwd shares only adds ids, and a
 * prefix unique among more is unique among fewer) without reading a session
 * of 100 MB whole, which listing does.
 */
export function sessionIdsByName(cwd: string, env: Env = process.env): string[] {
  return sessionFiles(join(sessionRoot(env), encodeCwd(cwd))).flatMap((name) => idFromFileName(name) ?? []);
}

/** Shortest prefix length (at least 8) that tells every id apart: UUIDv7s made within a minute share their first 8. */
export function shortIdLength(ids: readonly string[]): number {
  // Sorted, the id sharing the longest prefix with each is its neighbour: one pass, not a set per length (10,000 ids: ms, not 60).
  // The ids of sorted file names come sorted (a name starts with the time its UUIDv7 begins with), so the pass assumes
  // it and sorts only when a pair says otherwise: the sort and its set cost ~15 ms of the picker's first screen over 10,000.
  return prefixLength(ids) ?? prefixLength([...ids].sort())!;
}

/** shortIdLength of sorted ids; undefined when they are not. Prefixes are compared whole, not a character at a time: cold, that loop cost ~5 ms over 10,000. */
function prefixLength(sorted: readonly string[]): number | undefined {
  let longest = 8;
  let needed = 8;
  for (let i = 0; i < sorted.length; i++) {
    const id = sorted[i]!;
    longest = Math.max(longest, id.length);
    const next = sorted[i + 1];
    if (next === undefined || next === id) continue; // one session listed twice is still one id
    if (next < id) return undefined;
    // `id` comes first, so it is the shorter when one is the other's prefix: past its end, its next character tells them apart.
    while (needed <= id.length && next.startsWith(id.slice(0, needed))) needed++;
  }
  return Math.min(needed, longest);
}

/**
 * Sessions here whose id starts with `idPrefix`, and those in other
 * directories that would have matched (so the error can say where they are).
 * Only headers are read, and only of the files whose name carries a matching
 * id: resuming a 100 MB session by id does not read it whole first. The
 * prefix is only ever compared with ids, never used as a path.
 */
export async function findSession(
  cwd: string,
  idPrefix: string,
  env: Env = process.env,
): Promise<{ matches: SessionMatch[]; elsewhere: (SessionMatch & { cwd: string })[] }> {
  if (!/^[0-9a-fA-F-]+$/.test(idPrefix)) throw new UsageError(`'${idPrefix}' is not a session id: ids are hexadecimal digits and dashes`);
  const prefix = idPrefix.toLowerCase();
  const root = sessionRoot(env);
  const here = encodeCwd(cwd);
  const named = (name: string) => !!idFromFileName(name)?.toLowerCase().startsWith(prefix);
  const matches: SessionMatch[] = [];
  const elsewhere: (SessionMatch & { cwd: string })[] = [];
  let project: ProjectRef | undefined | null = null; // asked of git only when a match elsewhere needs it
  const consider = (folder: string, name: string): void => {
    const path = join(root, folder, name);
    const header = readHeader(path);
    if (!header) {
      // Named for the id but no readable header: a match all the same, so that opening it says what is wrong.
      if (folder === here && named(name)) matches.push({ path, id: idFromFileName(name)! });
    } else if (header.id.toLowerCase().startsWith(prefix)) {
      if (header.cwd === cwd) matches.push({ path, id: header.id });
      else if (sameProject(header.project, project === null ? (project = projectOf(cwd, env)) : project)) matches.push({ path, id: header.id });
      else elsewhere.push({ path, id: header.id, cwd: header.cwd });
    }
  };
  for (const folder of readdirQuiet(root)) for (const name of sessionFiles(join(root, folder)).filter(named)) consider(folder, name);
  // A file renamed by hand has its id inside: when no name here matches, every header here is read.
  if (!matches.length) for (const name of sessionFiles(join(root, here)).filter((n) => !named(n))) consider(here, name);
  return { matches, elsewhere };
}

/** A session file found by id. */
export interface SessionMatch {
  path: string;
  id: string;
}

/** A file that vanished or cannot be read is listed as damaged, with the reason. */
function inspectQuiet(block: Buffer, path: string, cwd: string): SessionInfo {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    return inspect(fd, block, path, cwd);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    const created = createdFromName(path) ?? "";
    return { path, id: idFromFileName(path) ?? "", cwd, created, modified: created, messageCount: 0, compactions: 0, damaged: `cannot be read (${reason})` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function inspect(fd: number, block: Buffer, path: string, cwd: string): SessionInfo {
  const { size, mtime } = fstatSync(fd);
  const modified = mtime.toISOString();
  const fromName: SessionInfo = { path, id: idFromFileName(path) ?? "", cwd, created: createdFromName(path) ?? modified, modified, messageCount: 0, compactions: 0 };
  const facts = new Facts();
  let header: SessionHeader;
  try {
    header = readLog(fd, path, size, facts, undefined, block).header;
  } catch (error) {
    // No readable header, or a line too long to read: what open says, without the file's path.
    if (!(error instanceof DamagedLog)) throw error;
    return { ...fromName, damaged: error.place ? `line ${error.place.number}: ${error.reason}` : error.reason };
  }
  const info: SessionInfo = {
    ...fromName,
    id: header.id,
    cwd: header.cwd,
    created: header.timestamp,
    messageCount: facts.messages,
    compactions: facts.compactions,
    firstPrompt: facts.firstPrompt,
    title: facts.title ?? (facts.firstPrompt === undefined ? undefined : titleFromPrompt(facts.firstPrompt)),
    lastActivity: facts.lastTimestamp ?? header.timestamp,
    ...(header.forkedFrom ? { forkedFrom: header.forkedFrom } : {}),
  };
  const damage = facts.firstDamage;
  if (!damage) return info;
  const said = `line ${damage.place.number}: ${damage.reason}`;
  return facts.resumable() ? { ...info, damagedBeforeCompaction: said } : { ...info, messageCount: 0, damaged: said };
}

/** What one pass over a file learns, line by line. */
class Facts {
  messages = 0;
  compactions = 0;
  firstPrompt: string | undefined;
  title: string | undefined;
  #userTitled = false;
  lastTimestamp: string | undefined;
  firstDamage: { place: Place; reason: string } | undefined;
  #lastDamage = -1;
  #firstEntry: number | undefined;
  /** The tree as open reads it: the active path, and where its context starts (where resume starts reading). */
  readonly #index = new EntryIndex();

  entry = (entry: SessionEntry, place: Place): void => {
    this.#firstEntry ??= place.offset;
    this.lastTimestamp = entry.timestamp;
    this.#index.add(slimEntry(entry), place.offset);
    if (entry.type === "message") {
      this.messages++;
      if (this.firstPrompt === undefined && isPrompt(entry)) this.firstPrompt = promptText(entry.message.content);
    } else if (entry.type === "session_info") {
      if (entry.source === "user" || !this.#userTitled) this.title = entry.title;
      this.#userTitled ||= entry.source === "user";
    } else if (entry.type === "compaction") this.compactions++;
  };

  damage = (place: Place, error: LineError): void => {
    this.firstDamage ??= { place, reason: error.reason };
    this.#lastDamage = place.offset;
  };

  /** All damage lies after the first entry and before the tail that resume reads (the context of the active path). */
  resumable(): boolean {
    const first = this.firstDamage?.place.offset ?? Infinity;
    const tail = this.#index.contextStart();
    return tail > 0 && this.#firstEntry !== undefined && this.#firstEntry < first && this.#lastDamage < tail;
  }
}

export function headerView(line: Uint8Array): HeaderView | undefined {
  try {
    const parsed = parseLine(line);
    if (parsed?.kind !== "header") return undefined;
    const { id, cwd, timestamp, project, forkedFrom } = parsed.header;
    return { id, cwd, timestamp, ...(project && { project }), ...(forkedFrom && { forkedFrom }) };
  } catch (error) {
    if (error instanceof LineError) return undefined;
    throw error;
  }
}

/**
 * The first line of a file, read without reading the rest. A header is a few
 * hundred bytes: a first line longer than MAX_HEADER_BYTES is not one.
 */
export function readHeader(path: string): HeaderView | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const line = readLineAt(fd, 0, Math.min(fstatSync(fd).size, MAX_HEADER_BYTES));
    return line && headerView(line);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function promptText(content: readonly { type: string; text?: string }[]): string | undefined {
  return content.map((b) => (isSaidText(b) ? b.text : "")).join("") || undefined;
}

/** `2026-04-25T17-40-15-990Z_<id>.jsonl` -> `2026-04-25T17:40:15.990Z` */
export function createdFromName(path: string): string | undefined {
  const m = /(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z_[^/]*$/.exec(path);
  return m ? `${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z` : undefined;
}

export function sessionFiles(dir: string): string[] {
  return readdirQuiet(dir).filter((name) => name.endsWith(".jsonl")).sort();
}

function readdirQuiet(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
