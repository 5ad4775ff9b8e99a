// One writer per session (docs/session-format.md, "Locking"). The lock is flock(2) on the session
// file's own descriptor, called through bun:ffi (it works inside the
// `bun build --compile` binary). Why flock rather than a pid lock file: the
// kernel drops it the moment its holder dies, even by SIGKILL, so a stale lock
// cannot exist and a reused pid cannot fake one. The holder's pid goes into a
// sidecar `<file>.lock`, only so that a refused opener can say who holds it.
// Where libc cannot be loaded, the sidecar alone is the lock: refused while
// it names a live process, taken over otherwise (best effort, not atomic).
import { dlopen, FFIType } from "bun:ffi";
import { closeSync, constants, fchmodSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { UserError } from "../../errors";

const LOCK_EX = 2;
const LOCK_NB = 4;
const LIBC = ["libc.so.6", "libc.so", "/usr/lib/libSystem.B.dylib", "libc.dylib"];

type Flock = (fd: number, op: number) => number;
let flockFn: Flock | null | undefined;

function loadFlock(): Flock | null {
  if (flockFn !== undefined) return flockFn;
  flockFn = null;
  for (const name of LIBC) {
    try {
      const lib = dlopen(name, { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
      flockFn = (fd, op) => lib.symbols.flock(fd, op);
      break;
    } catch {
      // try the next name
    }
  }
  return flockFn;
}

export const lockPath = (file: string) => `${file}.lock`;

/**
 * flock(2) LOCK_EX, without waiting, on a descriptor of any file (the prompt
 * history's appends take it): "locked", "busy" (another descriptor holds it,
 * or the call failed), or "unsupported" where libc cannot be loaded.
 */
export function tryFlock(fd: number): "locked" | "busy" | "unsupported" {
  const flock = loadFlock();
  if (!flock) return "unsupported";
  return flock(fd, LOCK_EX | LOCK_NB) === 0 ? "locked" : "busy";
}

/**
 * Takes the exclusive lock for `fd` (open on `file`) or throws a UserError
 * naming the holder. Returns the release function (idempotent).
 */
export function acquireLock(file: string, fd: number): () => void {
  const flock = loadFlock();
  if (flock) {
    if (flock(fd, LOCK_EX | LOCK_NB) !== 0) throw lockedError(file);
  } else {
    const holder = readHolder(file);
    if (holder !== undefined && holder !== process.pid && alive(holder)) throw lockedError(file);
  }
  try {
    writeHolder(file);
  } catch (error) {
    // With flock the sidecar only names the holder: a directory we may not
    // write (a 0500 folder; the file itself stays appendable) must not stop
    // the session. Without flock the sidecar is the lock, so it must exist.
    if (!flock) throw new UserError(`cannot lock ${file}: ${(error as Error).message}`);
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    // Remove the sidecar while still holding the lock, so it never deletes a successor's.
    try {
      unlinkSync(lockPath(file));
    } catch {
      // already gone: nothing to tell anyone
    }
  };
}

function lockedError(file: string): UserError {
  const pid = liveHolder(file);
  const who = pid === undefined ? "another process" : pid === process.pid ? `this process (pid ${pid})` : `another awl process (pid ${pid})`;
  return new UserError(`session ${file} is in use by ${who}; close that one first`);
}

/**
 * The pid in the sidecar, once it names a live process. The holder takes the
 * flock before it writes its pid, and a SIGKILLed holder's pid stays behind,
 * so right after a refusal the sidecar can be empty or name a dead process:
 * wait briefly for the new holder's pid rather than name the wrong one.
 */
function liveHolder(file: string): number | undefined {
  const deadline = Date.now() + 1000;
  for (;;) {
    const pid = readHolder(file);
    if (pid !== undefined && alive(pid)) return pid;
    if (Date.now() >= deadline) return undefined;
    Bun.sleepSync(10);
  }
}

/** The live process the sidecar names, where flock is not available to ask (then the sidecar is the lock). */
export function sidecarHolder(file: string): number | undefined {
  const pid = readHolder(file);
  return pid !== undefined && alive(pid) ? pid : undefined;
}

function readHolder(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath(file), "utf8"), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function writeHolder(file: string): void {
  // O_NOFOLLOW: a symlink planted as the sidecar must not redirect the write.
  const fd = openSync(lockPath(file), constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
