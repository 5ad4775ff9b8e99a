// `awl sessions` and `--resume <id>`: what the session files hold, read the
// cheap way (STYLE: listing reads what it shows). Per file: the header from the
// first line, the message count from line prefixes (the serializer writes
// `type` first), the first prompt from the first user entry, the last activity
// from the last line, and a brace check per line to flag damage. No arktype
// here: this path must start fast in the compiled binary.
import { closeSync, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../errors";
import { MAX_LINE_BYTES } from "./replay";
import { encodeCwd, idFromFileName, sessionRoot } from "./paths";

export interface SessionInfo {
  path: string;
  id: string;
  cwd: string;
  /** ISO 8601: the header's timestamp. */
  created: string;
  /** ISO 8601: the file's mtime. */
  modified: string;
  messageCount: number;
  firstPrompt?: string;
  /** ISO 8601: the last entry's timestamp. */
  lastActivity?: string;
  /** One-line reason this session cannot be opened as it is. */
  damaged?: string;
}

type Env = Record<string, string | undefined>;
interface HeaderView {
  id: string;
  cwd: string;
  timestamp: string;
}

const MESSAGE_PREFIX = Buffer.from('{"type":"message",');
const TYPE_PREFIX = Buffer.from('{"type":"');
const OPEN_BRACE = 0x7b;
/** A header holds an id, a cwd (at most PATH_MAX), a timestamp and a model name. */
const MAX_HEADER_BYTES = 1 << 20;
const CLOSE_BRACE = 0x7d;

/** This directory's sessions, oldest first. Folders shared by look-alike cwds are filtered by the header's cwd. */
export async function listSessions(cwd: string, env: Env = process.env): Promise<SessionInfo[]> {
  const dir = join(sessionRoot(env), encodeCwd(cwd));
  return describeSessions(
    sessionFiles(dir).map((name) => join(dir, name)),
    cwd,
  ).filter((s) => s.cwd === cwd);
}

/** What `awl sessions` shows of these files (each is read whole), oldest first. */
export function describeSessions(paths: string[], cwd: string): SessionInfo[] {
  const reader = new WholeFiles();
  const infos = paths.map((path) => inspectQuiet(reader, path, cwd));
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

/** Shortest prefix length (at least 8) that tells every id apart (DESIGN 2). */
export function shortIdLength(ids: string[]): number {
  const longest = Math.max(8, ...ids.map((id) => id.length));
  for (let length = 8; length < longest; length++) {
    if (new Set(ids.map((id) => id.slice(0, length))).size === new Set(ids).size) return length;
  }
  return longest;
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
): Promise<{ matches: SessionMatch[]; elsewhere: { id: string; cwd: string }[] }> {
  if (!/^[0-9a-fA-F-]+$/.test(idPrefix)) throw new UsageError(`'${idPrefix}' is not a session id: ids are hexadecimal digits and dashes`);
  const prefix = idPrefix.toLowerCase();
  const root = sessionRoot(env);
  const here = encodeCwd(cwd);
  const named = (name: string) => !!idFromFileName(name)?.toLowerCase().startsWith(prefix);
  const matches: SessionMatch[] = [];
  const elsewhere: { id: string; cwd: string }[] = [];
  const consider = (folder: string, name: string): void => {
    const path = join(root, folder, name);
    const header = readHeader(path);
    if (!header) {
      // Named for the id but no readable header: a match all the same, so that opening it says what is wrong.
      if (folder === here && named(name)) matches.push({ path, id: idFromFileName(name)! });
    } else if (header.id.toLowerCase().startsWith(prefix)) {
      if (header.cwd === cwd) matches.push({ path, id: header.id });
      else elsewhere.push({ id: header.id, cwd: header.cwd });
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
function inspectQuiet(reader: WholeFiles, path: string, cwd: string): SessionInfo {
  try {
    return inspect(reader, path, cwd);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    const created = createdFromName(path) ?? "";
    return { path, id: idFromFileName(path) ?? "", cwd, created, modified: created, messageCount: 0, damaged: `cannot be read (${reason})` };
  }
}

function inspect(reader: WholeFiles, path: string, cwd: string): SessionInfo {
  const id = idFromFileName(path) ?? "";
  const { bytes, mtime } = reader.read(path);
  const modified = mtime.toISOString();
  const damaged = (reason: string, header?: HeaderView): SessionInfo => ({
    path,
    id: header?.id ?? id,
    cwd: header?.cwd ?? cwd,
    created: header?.timestamp ?? createdFromName(path) ?? modified,
    modified,
    messageCount: 0,
    damaged: reason,
  });
  const lines = lineSpans(bytes);
  const first = lines[0];
  if (!first) return damaged("empty file");
  // What open would refuse (replay.ts), listing marks: one longer line is damage.
  const long = lines.findIndex(([start, end]) => end - start > MAX_LINE_BYTES);
  if (long !== -1) return damaged(`a line is longer than ${MAX_LINE_BYTES >> 20} MB`);
  const header = headerView(bytes.toString("utf8", first[0], first[1]));
  if (!header) return damaged("line 1: not a session header");

  let messageCount = 0;
  let firstPrompt: string | undefined;
  let promptSeen = false;
  for (let i = 1; i < lines.length; i++) {
    const [start, end] = lines[i]!;
    if (bytes[start] !== OPEN_BRACE || bytes[end - 1] !== CLOSE_BRACE) {
      // Only the last line may be torn: open trims it. Anywhere else it is damage.
      if (i === lines.length - 1) {
        lines.pop();
        break;
      }
      return damaged(`line ${i + 1}: not a JSON object`, header);
    }
    const line = () => bytes.toString("utf8", start, end);
    // Lines this serializer wrote show their type in the prefix; anything else is parsed.
    const isMessage = startsWith(bytes, start, TYPE_PREFIX) ? startsWith(bytes, start, MESSAGE_PREFIX) : parseQuiet(line())?.type === "message";
    if (!isMessage) continue;
    messageCount++;
    if (!promptSeen) {
      const role = entryHead(bytes, start, end)?.[2];
      if (role !== undefined && role !== "user") continue;
      const entry = parseQuiet(line());
      if (entry?.message?.role !== "user") continue;
      promptSeen = true;
      firstPrompt = promptText(entry.message.content);
    }
  }
  return { path, id: header.id, cwd: header.cwd, created: header.timestamp, modified, messageCount, firstPrompt, lastActivity: lastTimestamp(bytes, lines) ?? header.timestamp };
}

/**
 * Reads whole files into one buffer, reused from file to file: a fresh buffer
 * per file costs its size again in page faults (~3.7 ms per MB on this
 * machine, 9 of the 18 ms that listing 50 sessions of 50 KB took).
 */
class WholeFiles {
  #buffer = Buffer.allocUnsafe(1 << 16);

  /** The file's bytes (valid until the next read) and its mtime. */
  read(path: string): { bytes: Buffer; mtime: Date } {
    const fd = openSync(path, "r");
    try {
      const { size, mtime } = fstatSync(fd);
      if (this.#buffer.length < size) this.#buffer = Buffer.allocUnsafe(size);
      let length = 0;
      while (length < size) {
        const read = readSync(fd, this.#buffer, length, size - length, length);
        if (read === 0) break; // it shrank while we read
        length += read;
      }
      return { bytes: this.#buffer.subarray(0, length), mtime };
    } finally {
      closeSync(fd);
    }
  }
}

/** [start, end) of every non-blank line, trailing NUL bytes (a power cut's leftovers) excluded. */
function lineSpans(bytes: Buffer): [number, number][] {
  let limit = bytes.length;
  while (limit > 0 && bytes[limit - 1] === 0) limit--;
  const spans: [number, number][] = [];
  let start = 0;
  while (start < limit) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1 || end > limit) end = limit;
    let e = end;
    while (e > start && (bytes[e - 1] === 0x0d || bytes[e - 1] === 0x20)) e--;
    if (e > start) spans.push([start, e]);
    start = end + 1;
  }
  return spans;
}

function lastTimestamp(bytes: Buffer, lines: [number, number][]): string | undefined {
  for (let i = lines.length - 1; i >= 1; i--) {
    const [start, end] = lines[i]!;
    const fromHead = entryHead(bytes, start, end)?.[1];
    if (fromHead !== undefined) return fromHead;
    const entry = parseQuiet(bytes.toString("utf8", start, end));
    if (typeof entry?.timestamp === "string") return entry.timestamp;
  }
  return undefined;
}

/**
 * The first fields of a line exactly as this serializer writes them (type, id,
 * parentId, timestamp, the user stamp, the message's role), read from the first
 * bytes so that listing need not parse a line of tool output. [1] timestamp,
 * [2] role; no match (another writer, escapes) means: parse the line instead.
 */
const ENTRY_HEAD = /^\{"type":"[^"\\]*","id":"[^"\\]*","parentId":(?:null|"[^"\\]*"),"timestamp":"([^"\\]*)"(?:,"provider":"[^"\\]*","model":"[^"\\]*")?(?:,"message":\{"role":"([a-z]+)")?/;

export function entryHead(bytes: Buffer, start: number, end: number): RegExpExecArray | null {
  return ENTRY_HEAD.exec(bytes.toString("utf8", start, Math.min(end, start + 512)));
}

function headerView(line: string): HeaderView | undefined {
  const value = parseQuiet(line);
  if (value?.type !== "session") return undefined;
  const { id, cwd, timestamp } = value;
  return typeof id === "string" && id && typeof cwd === "string" && typeof timestamp === "string" ? { id, cwd, timestamp } : undefined;
}

/**
 * The first line of a file, read without reading the rest. A header is a few
 * hundred bytes: a first line longer than MAX_HEADER_BYTES is not one, and
 * reading stops there (a 1 GB first line used to be read whole, by a
 * concatenation per 4 KB: quadratic).
 */
export function readHeader(path: string): HeaderView | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < MAX_HEADER_BYTES) {
      const chunk = Buffer.allocUnsafe(4096);
      const read = readSync(fd, chunk, 0, chunk.length, total);
      const nl = chunk.subarray(0, read).indexOf(0x0a);
      chunks.push(chunk.subarray(0, nl === -1 ? read : nl));
      total += read;
      if (nl !== -1 || read === 0) return headerView(Buffer.concat(chunks).toString("utf8"));
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function promptText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const text = content.map((b) => (b?.type === "text" && typeof b.text === "string" ? b.text : "")).join("");
  return text || undefined;
}

// biome-ignore lint: JSON of unknown shape, read defensively field by field
export function parseQuiet(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function startsWith(bytes: Buffer, at: number, prefix: Buffer): boolean {
  return bytes.compare(prefix, 0, prefix.length, at, Math.min(at + prefix.length, bytes.length)) === 0;
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
