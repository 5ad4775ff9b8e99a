// File checkpoints: what a rewind restores from. A call that writes a file
// gives its before and after bytes (ToolContext.beforeChange): both are stored
// as blobs and a file_change entry is appended before the file changes. A
// shell command is wrapped: the working tree is listed before and after it
// (manifest.ts), the bytes of files git cannot give back (untracked or
// changed since the last commit, up to PER_FILE each and PER_CALL in all) are
// read before it runs, and after it a bash_effects entry says what it created,
// modified and deleted, with the versions kept, and what cannot be restored.
// What git ignores is never listed, kept or restored.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PathEffect, SessionManager, Untracked } from "../session";
import { BlobStore, blobDir } from "../session/checkpoints";
import type { PendingChange } from "../tools";
import { gitBlobHash, GitReader, GitStopped } from "./git-read";
import { changed, isRegular, MAX_FILES, MAX_WALK_MS, walk, type Listed, type Manifest } from "./manifest";

/** Larger files are not copied: a clean tracked one restores from git, anything else is listed as not restorable. */
export const PER_FILE = 2 * 1024 * 1024;
/** What one command may cost in copies, before and after alike. */
export const PER_CALL = 64 * 1024 * 1024;

type Env = Record<string, string | undefined>;

interface Before {
  root: string;
  /** Files git does not track (and does not ignore). */
  untracked: Set<string>;
  git?: GitReader;
  manifest: Manifest;
  /** The bytes read before the command ran, by path. */
  staged: Map<string, Buffer>;
  /** Files past the caps that were not read, and why. */
  skipped: Map<string, string>;
  tracked: Map<string, string>;
  dirty: Set<string>;
  ignored: Set<string>;
}

export class Checkpoints {
  readonly #session: SessionManager;
  readonly #cwd: string;
  readonly #env: Env;
  #git: Promise<GitReader | undefined> | undefined;
  /** Why bash tracking stopped for this session; said once. */
  #stopped: string | undefined;
  /** Whether the person was told that a command went untracked because git did not answer in time; said once. */
  #toldGitStopped = false;
  /**
   * What the last command left: its listing, what git ignores and which
   * tracked files differ from their objects. Git is asked for the two sets
   * once; after that they are kept up to date from what changed (asking git
   * about new paths only, hashing changed tracked files as git does), so a
   * command costs two listings and one read of the index, not three walks
   * of the tree by git as well.
   */
  #last: { manifest: Manifest; ignored: Set<string>; dirty: Set<string>; untracked: Set<string>; tracked: Map<string, string> } | undefined;
  /** Files whose bytes are stored as they stand (listing entry and blob), so they need not be read again. */
  readonly #stored = new Map<string, { listed: Listed; hash: string }>();

  /** `limits`: when a listing gives up (MAX_FILES files, MAX_WALK_MS); smaller ones only to try the give-up. */
  constructor(session: SessionManager, cwd: string, env: Env, private readonly limits = { files: MAX_FILES, ms: MAX_WALK_MS }) {
    this.#session = session;
    this.#cwd = cwd;
    this.#env = env;
  }

  get #blobs(): BlobStore {
    return new BlobStore(blobDir(this.#session.sessionFile));
  }

  /** Stores both versions and appends the file_change entry; the tool changes the file after this returns. */
  beforeChange = (change: PendingChange): void => {
    const blobs = this.#blobs;
    const before = change.before === null ? null : blobs.put(change.before);
    const after = change.after === null ? null : blobs.put(change.after);
    this.#session.appendFileChange({ path: change.path, before, after, mode: change.mode });
  };

  /**
   * Runs `command` (a shell command's call) between two listings and records
   * what it changed. Tracking that fails or passes its caps never stops the
   * command: `notice` says so, once for the session. A git question that runs
   * out of time (or that `signal` stops) stops only this command's tracking.
   */
  async around<T>(command: () => Promise<T>, notice: (text: string) => void, signal?: AbortSignal): Promise<T> {
    if (this.#stopped) return command();
    let before: Before | undefined;
    try {
      before = await this.#before(signal);
    } catch (error) {
      this.#failed(error, notice, signal);
    }
    const result = await command();
    if (before) {
      try {
        await this.#after(before, signal);
      } catch (error) {
        this.#failed(error, notice, signal);
      }
    }
    return result;
  }

  #failed(error: unknown, notice: (text: string) => void, signal: AbortSignal | undefined): void {
    if (!(error instanceof GitStopped)) return this.#stop(error instanceof Stop ? error.message : `listing the working tree failed (${String(error)})`, notice);
    if (signal?.aborted || this.#toldGitStopped) return;
    this.#toldGitStopped = true;
    notice(`Changes made by a shell command are not tracked when git does not answer in time (${error.message}; AWL_GIT_TIMEOUT_MS waits longer); a rewind cannot restore them.`);
  }

  #stop(why: string, notice: (text: string) => void): void {
    this.#stopped = why;
    notice(`Changes made by shell commands are no longer tracked in this session (${why}); a rewind cannot restore them.`);
  }

  async #root(signal: AbortSignal | undefined): Promise<{ git?: GitReader; root: string }> {
    // A question that ran out of time is asked again by the next command.
    const git = await (this.#git ??= GitReader.find(this.#cwd, this.#env, signal)).catch((error: unknown) => {
      this.#git = undefined;
      throw error;
    });
    return git ? { git, root: git.root } : { root: this.#cwd };
  }

  async #before(signal: AbortSignal | undefined): Promise<Before> {
    const { git, root } = await this.#root(signal);
    const last = this.#last;
    // Asked before the walk, so that git reads beside it; the first call's walk needs what git ignores first.
    const trackedNow = git?.tracked(signal);
    // Handled when awaited below; a rejection left unwatched meanwhile would be reported as unhandled.
    trackedNow?.catch(() => {});
    const [ignoredFirst, dirtyFirst] = last ? [] : await Promise.all([git?.ignored(signal), git?.dirty(signal)]);
    const ignored = last?.ignored ?? ignoredFirst ?? new Set<string>();
    const listed = walk(root, ignored, this.limits);
    if ("stopped" in listed) throw new Stop(listed.stopped);
    const manifest = listed.manifest;
    const tracked = (await trackedNow) ?? new Map<string, string>();
    let dirty = dirtyFirst ?? new Set<string>();
    let untracked: Set<string>;
    if (!last || !git || tracked !== last.tracked) untracked = new Set([...manifest.keys()].filter((path) => !tracked.has(path)));
    else untracked = last.untracked;
    if (last && git) {
      // One pass over the listing: what is new or changed since the last command (the person's, or a write's).
      dirty = last.dirty;
      const fresh: string[] = [];
      const recheck: string[] = [];
      for (const [path, listing] of manifest) {
        const was = last.manifest.get(path);
        if (was && !changed(was, listing)) continue;
        if (tracked.has(path)) recheck.push(path);
        else if (!was) fresh.push(path);
      }
      // The index changed (a commit, an add): files whose object changed are judged again.
      if (tracked !== last.tracked) for (const [path, oid] of tracked) if (last.tracked.get(path) !== oid) recheck.push(path);
      for (const path of fresh) untracked.add(path);
      for (const path of await git.whichIgnored(fresh, signal)) {
        ignored.add(path);
        manifest.delete(path);
        untracked.delete(path);
      }
      for (const path of recheck) {
        const listing = manifest.get(path);
        if (listing && differsFromGit(join(root, path), listing, tracked.get(path)!)) dirty.add(path);
        else dirty.delete(path);
      }
    }
    const before: Before = { root, ...(git ? { git } : {}), manifest, staged: new Map(), skipped: new Map(), tracked, dirty, untracked, ignored };
    let budget = PER_CALL;
    // What git could not give back: untracked files, and tracked ones that differ from their objects.
    for (const path of [...untracked, ...dirty]) {
      const listing = manifest.get(path);
      if (!listing || !isRegular(listing)) continue;
      const stored = this.#stored.get(path);
      if (stored && !changed(stored.listed, listing)) continue;
      if (listing.size > PER_FILE) before.skipped.set(path, `larger than ${PER_FILE / 1048576} MiB, not copied`);
      else if (listing.size > budget) before.skipped.set(path, `past the ${PER_CALL / 1048576} MiB a command's copies may take`);
      else {
        const bytes = readBytes(join(root, path));
        if (bytes) {
          before.staged.set(path, bytes);
          budget -= bytes.length;
        }
      }
    }
    return before;
  }

  async #after(before: Before, signal: AbortSignal | undefined): Promise<void> {
    const { root, git } = before;
    const listed = walk(root, before.ignored, this.limits);
    if ("stopped" in listed) throw new Stop(listed.stopped);
    const after = listed.manifest;
    const made: string[] = [];
    const altered: string[] = [];
    let stillThere = 0;
    for (const [path, listing] of after) {
      const was = before.manifest.get(path);
      if (!was) made.push(path);
      else if (++stillThere && changed(was, listing)) altered.push(path);
    }
    // What the command made that git ignores (a build's output) is not its to track.
    const ignoredNow = git ? await git.whichIgnored(made.filter((path) => !before.tracked.has(path)), signal) : new Set<string>();
    for (const path of ignoredNow) {
      before.ignored.add(path);
      after.delete(path);
    }
    const effects = { created: [] as PathEffect[], modified: [] as PathEffect[], deleted: [] as PathEffect[], untracked: [] as Untracked[] };
    const blobs = this.#blobs;
    let budget = PER_CALL;
    const keepAfter = (path: string, listing: Listed): string | null | undefined => {
      if (!isRegular(listing)) return void effects.untracked.push({ path: join(root, path), reason: "not a regular file" });
      if (listing.size > PER_FILE) return void effects.untracked.push({ path: join(root, path), reason: `its new version is larger than ${PER_FILE / 1048576} MiB, not copied` });
      if (listing.size > budget) return void effects.untracked.push({ path: join(root, path), reason: `its new version is past the ${PER_CALL / 1048576} MiB a command's copies may take` });
      const bytes = readBytes(join(root, path));
      if (!bytes) return void effects.untracked.push({ path: join(root, path), reason: "its new version could not be read" });
      budget -= bytes.length;
      const hash = blobs.put(bytes);
      this.#stored.set(path, { listed: listing, hash });
      return hash;
    };
    const keptBefore = (path: string, listing: Listed): Pick<PathEffect, "before" | "git"> | undefined => {
      const staged = before.staged.get(path);
      if (staged) return { before: blobs.put(staged) };
      const stored = this.#stored.get(path);
      if (stored && !changed(stored.listed, listing)) return { before: stored.hash };
      const oid = before.tracked.get(path);
      if (oid && !before.dirty.has(path)) return { git: oid };
      effects.untracked.push({ path: join(root, path), reason: isRegular(listing) ? `its earlier version was ${before.skipped.get(path) ?? "not kept"}` : "not a regular file" });
      return undefined;
    };
    for (const path of made) {
      const listing = after.get(path);
      if (!listing) continue; // ignored
      const hash = keepAfter(path, listing);
      effects.created.push({ path: join(root, path), before: null, ...(hash ? { after: hash } : {}), mode: listing.mode & 0o7777 });
    }
    for (const path of altered) {
      const listing = after.get(path)!;
      const kept = keptBefore(path, before.manifest.get(path)!);
      const hash = keepAfter(path, listing);
      effects.modified.push({ path: join(root, path), ...kept, ...(hash ? { after: hash } : {}), mode: listing.mode & 0o7777 });
    }
    // Nothing went away when every earlier path is still listed: the usual case, seen without a second pass.
    const deleted = stillThere < before.manifest.size ? before.manifest : new Map<string, Listed>();
    for (const [path, was] of deleted) {
      if (after.has(path)) continue;
      before.untracked.delete(path);
      this.#stored.delete(path);
      effects.deleted.push({ path: join(root, path), ...keptBefore(path, was), after: null, mode: was.mode & 0o7777 });
    }
    const dirty = before.dirty;
    for (const path of [...made, ...altered]) {
      const oid = before.tracked.get(path);
      const listing = after.get(path);
      if (!oid || !listing) continue;
      if (differsFromGit(join(root, path), listing, oid)) dirty.add(path);
      else dirty.delete(path);
    }
    for (const path of made) if (after.has(path) && !before.tracked.has(path)) before.untracked.add(path);
    this.#last = { manifest: after, ignored: before.ignored, dirty, untracked: before.untracked, tracked: before.tracked };
    if (effects.created.length + effects.modified.length + effects.deleted.length === 0) return;
    this.#session.appendBashEffects(effects);
  }

}

class Stop extends Error {}

/** Does the tracked file's content differ from git's object? A file too large to hash here counts as differing (its bytes are then never assumed). */
function differsFromGit(path: string, listing: Listed, oid: string): boolean {
  if (!isRegular(listing) || listing.size > PER_FILE) return true;
  const bytes = readBytes(path);
  return !bytes || gitBlobHash(bytes, oid.length) !== oid;
}

function readBytes(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
