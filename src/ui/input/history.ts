// The prompt history every session shares: one file, by default
// ~/.local/share/awl/history.jsonl ($XDG_DATA_HOME/awl/history.jsonl), one
// JSON object per line, appended when a prompt is sent:
//
//   {"ts":"2026-04-25T17:40:21.004Z","cwd":"/home/ana/code/shop","text":"which test is failing?"}
//
// Up and Ctrl+R offer the prompts sent in the working directory, from every
// session there, oldest first. Only what the person typed is recorded (a
// compaction summary never passes through here), and a prompt over
// MAX_ENTRY_BYTES is not recorded at all.
//
// Bounds: at most MAX_ENTRIES lines and MAX_BYTES bytes. The append that would
// cross either rewrites the file with the newest 90% of what fits (a temporary
// file beside it, fsync, rename), so rewrites are rare.
//
// Concurrent awl processes: every append is one write() on an O_APPEND
// descriptor, under flock(2) on the file; the rewrite happens under the same
// lock, and an appender that was waiting for it and finds the path now names
// a new file reopens that one, so no append lands in the replaced file.
//
// Permissions: the directory 0700, the file 0600, like the sessions.
//
// Failure never reaches the REPL: a missing, unreadable or corrupt file is an
// empty history (a line that is not a record is skipped, and dropped at the
// next rewrite), and an append that cannot be made is lost.

import { dataHome } from "../../config-dir";
import { closeSync, constants, fchmodSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { mkdirPrivate, writeAll, writeFileAtomic } from "../../private-file";
import { tryFlock } from "../../session/log";

type Env = Record<string, string | undefined>;

export interface HistoryLimits {
  maxEntries: number;
  maxBytes: number;
  maxEntryBytes: number;
}

export const HISTORY_LIMITS: HistoryLimits = { maxEntries: 1000, maxBytes: 1024 * 1024, maxEntryBytes: 32 * 1024 };

// O_NOFOLLOW: a symlink planted as the history file must not redirect a write
// (or a read). O_NONBLOCK: a FIFO planted there must not hang the prompt.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** How long an append waits for another process's append or rewrite before it gives up on the lock. */
const LOCK_WAIT_MS = 1000;

/** `$XDG_DATA_HOME/awl/history.jsonl`, else `~/.local/share/awl/history.jsonl` (a relative XDG_DATA_HOME is ignored, as for sessions). */
export function historyFile(env: Env = process.env): string {
  return join(dataHome(env), "history.jsonl");
}

interface Entry {
  ts: string;
  cwd: string;
  text: string;
}

function parse(line: string): Entry | undefined {
  if (!line) return undefined;
  try {
    const value = JSON.parse(line) as Partial<Entry> | null;
    if (value && typeof value === "object" && typeof value.text === "string" && typeof value.cwd === "string") {
      return { ts: typeof value.ts === "string" ? value.ts : "", cwd: value.cwd, text: value.text };
    }
  } catch {
    // not a record: skipped
  }
  return undefined;
}

/** Reads the file's last `limit` bytes through fd (a file grown past its bound costs no more). */
function readTail(fd: number, limit: number): string {
  const size = fstatSync(fd).size;
  const length = Math.min(size, limit);
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buffer, done, length - done, size - length + done);
    if (n === 0) break;
    done += n;
  }
  const text = buffer.subarray(0, done).toString("utf8");
  // Started mid-file: the first line is a piece of one.
  return length < size ? text.slice(text.indexOf("\n") + 1) : text;
}

/** The prompts sent in `cwd`, oldest first, a prompt repeated back to back kept once. Never throws. */
export function loadHistory(cwd: string, file = historyFile(), limits = HISTORY_LIMITS): string[] {
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch {
    return [];
  }
  try {
    if (!fstatSync(fd).isFile()) return [];
    const texts: string[] = [];
    for (const line of readTail(fd, 2 * limits.maxBytes).split("\n")) {
      const entry = parse(line);
      if (entry?.cwd === cwd && texts.at(-1) !== entry.text) texts.push(entry.text);
    }
    return texts;
  } catch {
    return [];
  } finally {
    closeSync(fd);
  }
}

/** The history of `cwd` with a resumed session's own prompts that the file lacks (from before it existed) after it. */
export function mergeHistory(fromFile: readonly string[], fromSession: readonly string[]): string[] {
  const known = new Set(fromFile);
  const merged = [...fromFile];
  for (const text of fromSession) if (!known.has(text) && merged.at(-1) !== text) merged.push(text);
  return merged;
}

/** Records a sent prompt. Never throws; returns whether it was recorded (tests ask). */
export function appendHistory(cwd: string, text: string, file = historyFile(), limits = HISTORY_LIMITS, now = new Date()): boolean {
  const line = `${JSON.stringify({ ts: now.toISOString(), cwd, text })}\n`;
  if (Buffer.byteLength(line) > limits.maxEntryBytes || text.trim() === "") return false;
  try {
    mkdirPrivate(dirname(file));
    const fd = openLocked(file);
    try {
      const size = fstatSync(fd).size;
      const existing = size + Buffer.byteLength(line) > limits.maxBytes || size > limits.maxEntries * 40 ? readTail(fd, 2 * limits.maxBytes) : undefined;
      if (existing !== undefined && needsRewrite(existing, line, limits)) rewrite(file, existing, line, limits);
      else writeAll(fd, size > 0 && !endsInNewline(file, size) ? `\n${line}` : line); // after a torn line, a line of its own
    } finally {
      closeSync(fd); // releases the lock
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Opens the file for appending and takes its lock; when the path was
 * replaced while waiting (a rewrite), the new file is opened instead. Past
 * LOCK_WAIT_MS (a holder that hangs, a file system without flock) it goes on
 * without the lock: a lost race costs one entry, a stuck prompt costs more.
 */
function openLocked(file: string): number {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const fd = openSync(file, APPEND_FLAGS, 0o600);
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw new Error(`${file} is not a regular file`);
      if (stat.uid === process.getuid?.()) fchmodSync(fd, 0o600);
      let lock = tryFlock(fd);
      while (lock === "busy" && Date.now() < deadline) {
        Bun.sleepSync(2);
        lock = tryFlock(fd);
      }
      if (lock === "locked" && !sameFile(fd, file)) {
        closeSync(fd);
        if (Date.now() < deadline) continue;
        return openSync(file, APPEND_FLAGS, 0o600);
      }
      return fd;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }
}

function endsInNewline(file: string, size: number): boolean {
  const fd = openSync(file, READ_FLAGS);
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

function sameFile(fd: number, file: string): boolean {
  try {
    const open = fstatSync(fd);
    const named = statSync(file);
    return open.ino === named.ino && open.dev === named.dev;
  } catch {
    return false;
  }
}

function records(text: string): string[] {
  return text.split("\n").filter((line) => parse(line) !== undefined);
}

function needsRewrite(existing: string, line: string, limits: HistoryLimits): boolean {
  const lines = existing.split("\n").length - 1; // every record ends in "\n"
  return lines + 1 > limits.maxEntries || Buffer.byteLength(existing) + Buffer.byteLength(line) > limits.maxBytes;
}

/** The newest records that fit in 90% of each bound, the new line last, written beside the file and renamed over it. */
function rewrite(file: string, existing: string, line: string, limits: HistoryLimits): void {
  const keepEntries = Math.floor(limits.maxEntries * 0.9);
  const keepBytes = Math.floor(limits.maxBytes * 0.9);
  const kept: string[] = [line];
  let bytes = Buffer.byteLength(line);
  const old = records(existing);
  for (let i = old.length - 1; i >= 0 && kept.length < keepEntries; i--) {
    const record = `${old[i]}\n`;
    const size = Buffer.byteLength(record);
    if (bytes + size > keepBytes) break;
    kept.push(record);
    bytes += size;
  }
  writeFileAtomic(file, kept.reverse().join(""));
}
