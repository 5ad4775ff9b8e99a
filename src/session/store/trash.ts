// The trash: `<sessions root>/.trash/`, laid out as the root is (one folder per
// working directory), so a trashed session goes back to exactly where it was,
// byte for byte (a rename, never a copy). When it was trashed is recorded
// beside it, in `<file>.trashed`: its age in the trash is that, never a
// file's mtime. Nothing here deletes anything but what `purge` names.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../errors";
import type { CatalogEntry } from "./catalog";
import { fsReason, sidecarHolder, tryFlock, sessionRoot } from "../log";
import { fsyncDir, mkdirPrivate, writeAll } from "../../private-file";

type Env = Record<string, string | undefined>;

export const trashRoot = (env: Env = process.env) => join(sessionRoot(env), ".trash");
const stampPath = (path: string) => `${path}.trashed`;

/**
 * Moves a session file into the trash. An open session (its lock held by a
 * live awl) is refused: its writer would go on appending to a trashed file.
 * The lock is held across the rename, so no awl can open it meanwhile.
 */
export function moveToTrash(entry: CatalogEntry, env: Env = process.env, now = new Date()): string {
  const dir = join(trashRoot(env), entry.folder);
  const target = join(dir, entry.name);
  if (existsSync(target)) throw new UserError(`the trash already holds ${entry.name}; purge or restore that one first`);
  const fd = openSync(entry.path, "r");
  try {
    const lock = tryFlock(fd);
    const pid = lock === "locked" ? undefined : sidecarHolder(entry.path);
    if (lock === "busy" || pid !== undefined) throw new UserError(`session ${entry.id} is open in ${pid ? `awl (pid ${pid})` : "another awl process"}; close it first`);
    try {
      mkdirPrivate(dir);
      // The stamp first: a crash between the two leaves a stamp without a session, which restore and purge clear.
      writeStamp(stampPath(target), now);
      renameSync(entry.path, target);
    } catch (error) {
      throw new UserError(`cannot move ${entry.path} to the trash: ${fsReason(error)}`);
    }
    // Still holding the lock: any pid sidecar left beside it names a process long gone.
    removeQuiet(`${entry.path}.lock`);
  } finally {
    closeSync(fd);
  }
  fsyncDir(target);
  fsyncDir(entry.path);
  return target;
}

/** Moves a trashed session back where it was; refuses when a file of that name is there again. */
export function restoreFromTrash(entry: CatalogEntry, env: Env = process.env): string {
  const dir = join(sessionRoot(env), entry.folder);
  const target = join(dir, entry.name);
  if (existsSync(target)) throw new UserError(`${target} exists; not overwriting it`);
  try {
    mkdirPrivate(dir);
    renameSync(entry.path, target);
  } catch (error) {
    throw new UserError(`cannot restore ${entry.path}: ${fsReason(error)}`);
  }
  removeQuiet(stampPath(entry.path));
  fsyncDir(target);
  return target;
}

/** When the session was trashed; undefined when the stamp is missing or unreadable (purge --older-than then keeps it). */
export function trashedAt(entry: CatalogEntry): Date | undefined {
  try {
    const { trashedAt } = JSON.parse(readFileSync(stampPath(entry.path), "utf8")) as { trashedAt?: unknown };
    const when = typeof trashedAt === "string" ? new Date(trashedAt) : undefined;
    return when && Number.isFinite(when.getTime()) ? when : undefined;
  } catch {
    return undefined;
  }
}

/** Deletes a trashed session and its stamp: the one place awl deletes a session. */
export function deleteTrashed(entry: CatalogEntry): void {
  try {
    unlinkSync(entry.path);
  } catch (error) {
    throw new UserError(`cannot delete ${entry.path}: ${fsReason(error)}`);
  }
  removeQuiet(stampPath(entry.path));
}

function writeStamp(path: string, now: Date): void {
  const fd = openSync(path, "w", 0o600);
  try {
    writeAll(fd, `${JSON.stringify({ trashedAt: now.toISOString() })}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function removeQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
