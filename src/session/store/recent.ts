// The session `awl --resume` continues: the one of this directory whose LAST
// entry is newest (not the newest file name). Per file this reads the header
// and the last line, not the whole file (a 100 MB session used to be read
// whole, 0.5 s, just to learn one timestamp), judged by the same codec as
// every other line.
//
// A clock can be wrong (a VM resumed with a stale clock, faketime, a bad
// NTP step): one session stamped in 2099 would otherwise win every later
// --resume. A last entry more than FUTURE_SLACK_MS ahead of now is not
// trusted, and the session is ranked by its file's modification time, which
// the kernel sets from the system clock, instead.
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { LineError, parseLine, MAX_LINE_BYTES, readLineAt, encodeCwd, SessionManager, sessionRoot } from "../log";
import { createdFromName, readHeader, sessionFiles, type SessionInfo } from "./listing";
import { movedSessions } from "./moved";

type Env = Record<string, string | undefined>;
const TAIL_CHUNK = 1 << 16;
/** How far ahead of now a timestamp may be and still be believed: clocks of two machines sharing a folder drift a little. */
export const FUTURE_SLACK_MS = 5 * 60_000;

/** The path of the most recently active session of `cwd`, or undefined. Empty files (a crash before the header) are passed over. */
export function mostRecentSession(cwd: string, env: Env = process.env, now = Date.now()): string | undefined {
  const dir = join(sessionRoot(env), encodeCwd(cwd));
  const moved = new Set(movedSessions(cwd, env)); // this project's, from a path it had before
  let best: { path: string; when: number } | undefined;
  for (const path of [...sessionFiles(dir).map((name) => join(dir, name)), ...moved]) {
    const header = readHeader(path);
    let when: string | undefined;
    if (header) {
      // Folders shared by look-alike cwds are told apart by the header.
      if (header.cwd !== cwd && !moved.has(path)) continue;
      when = lastTimestamp(path) ?? header.timestamp;
    } else {
      // A SIGKILL between creating a file and writing its header leaves it
      // empty: nothing to resume, and as the newest it would make every
      // --resume here fail. Any other unreadable file competes by its name's
      // date, so that open can say what is wrong with it.
      if (isEmpty(path)) continue;
      when = createdFromName(path);
    }
    if (when === undefined) continue;
    const rank = activityRank(Date.parse(when), modifiedAt(path), now);
    if (!best || rank >= best.when) best = { path, when: rank };
  }
  return best?.path;
}

/** Opens the session here whose LAST entry is newest (not the newest file name), or null. */
export async function continueRecent(cwd: string): Promise<SessionManager | null> {
  const path = mostRecentSession(cwd);
  return path ? SessionManager.open(path) : null;
}

/**
 * How a session ranks by last activity: the time of its last entry, unless
 * that lies in the future (then its file's mtime, unless that does too: below
 * every other). Higher is more recent.
 */
export function activityRank(lastEntry: number, modified: number, now = Date.now()): number {
  return believable(lastEntry, now) ?? believable(modified, now) ?? -Infinity;
}

/**
 * Listed sessions, most recently active first, ranked as --resume ranks them
 * (the first is the one it continues; of two that rank alike, the later file
 * name comes first, as --resume takes it).
 */
export function newestFirst<T extends Pick<SessionInfo, "path" | "created" | "modified" | "lastActivity">>(list: readonly T[], now = Date.now()): T[] {
  const rank = (s: T) => activityRank(Date.parse(s.lastActivity ?? s.created), Date.parse(s.modified), now);
  const ranked = list.map((s) => ({ s, rank: rank(s) }));
  ranked.sort((a, b) => (a.rank !== b.rank ? (a.rank > b.rank ? -1 : 1) : a.s.path < b.s.path ? 1 : a.s.path > b.s.path ? -1 : 0));
  return ranked.map(({ s }) => s);
}

/**
 * The time, unless it lies more than FUTURE_SLACK_MS ahead of now. When the
 * file's mtime is in the future too (the system clock itself was ahead when
 * it was written), nothing about the session can be believed: it ranks below
 * every other one, and is still the one resumed when it is alone.
 */
function believable(time: number, now: number): number | undefined {
  return Number.isFinite(time) && time <= now + FUTURE_SLACK_MS ? time : undefined;
}

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Number.NaN; // gone: open reports it
  }
}

/**
 * The timestamp of the file's last entry; a torn last line (what a crash
 * leaves, and open trims) gives way to the one before it. null: the file holds
 * a header and no entry; undefined: it cannot be told (damage, unreadable).
 */
export function lastTimestamp(path: string): string | null | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    for (let end = size, tries = 0; tries < 2; tries++) {
      const start = lastLineStart(fd, end);
      if (start === 0) return null; // only the header
      if (start === undefined) return undefined;
      const line = readLineAt(fd, start, end);
      if (!line) return undefined;
      try {
        const parsed = parseLine(withoutNuls(line));
        return parsed?.kind === "entry" ? parsed.entry.timestamp : undefined;
      } catch (error) {
        if (!(error instanceof LineError)) throw error;
        if (!error.torn) return undefined; // damage: open will say so
        end = start;
      }
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A power cut can leave NUL bytes after the last line; open trims them. */
function withoutNuls(line: Buffer): Buffer {
  let end = line.length;
  while (end > 0 && line[end - 1] === 0) end--;
  return line.subarray(0, end);
}

/** Reused from call to call (the calls are synchronous): a fresh 64 KB per file of thousands is garbage that raises the peak. */
let tailChunk: Buffer | undefined;

/**
 * Offset of the last line holding anything but whitespace or NUL bytes (what a
 * power cut leaves), reading backwards in chunks; undefined past MAX_LINE_BYTES.
 */
function lastLineStart(fd: number, size: number): number | undefined {
  const chunk = (tailChunk ??= Buffer.allocUnsafe(TAIL_CHUNK));
  let contentSeen = false;
  let end = size;
  while (end > 0) {
    if (size - end > MAX_LINE_BYTES) return undefined;
    const from = Math.max(0, end - TAIL_CHUNK);
    const read = readSync(fd, chunk, 0, end - from, from);
    for (let i = read - 1; i >= 0; i--) {
      const byte = chunk[i]!;
      if (byte === 0x0a) {
        if (contentSeen) return from + i + 1;
      } else if (byte !== 0x00 && byte !== 0x20 && byte !== 0x0d && byte !== 0x09) {
        contentSeen = true;
      }
    }
    end = from;
  }
  return contentSeen ? 0 : undefined;
}

function isEmpty(path: string): boolean {
  try {
    return statSync(path).size === 0;
  } catch {
    return false; // gone or unreadable: open reports it
  }
}
