// A rewind's reads and writes of the project's files, kept inside the
// session's project root (the repository's top folder, or the working
// directory outside any repository). A path from the log is taken only when
// it names a place under the root, written plainly (absolute, no `.` or `..`
// part); every folder between the root and the file is looked at with lstat
// and a symbolic link among them is refused, so nothing is ever written
// through a link (a ~/.ssh behind `cfg` on another branch stays untouched).
// A file is written as tools write (a temporary file beside it, fsync'd, then
// renamed over it: rename replaces a link itself, never what it names) and
// is created with its final mode; a link is written as a link.
import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readlinkSync, readSync, realpathSync, rmdirSync, symlinkSync, unlinkSync } from "node:fs";
import { open, rename } from "node:fs/promises";
import { isAbsolute, normalize, sep } from "node:path";
import { sha256 } from "../session/checkpoints";
import { specialKind } from "../tools/regular-file";
import { unspellable } from "./manifest";

/** A file's bytes, their SHA-256 (hex, computed once: compared and stored by it) and its permission bits. */
export type FileBytes = { kind: "file"; bytes: Buffer; sha: string; mode: number };

/** What a path holds on the disk now. */
export type Disk = { kind: "absent" } | FileBytes | { kind: "link"; text: string } | { kind: "other"; what: string };

/** What a rewind puts at a path: bytes with their permission bits, a link's text, or nothing. */
export type Wanted = FileBytes | { kind: "link"; text: string } | { kind: "absent" };

/** Files written at once: enough for their fsyncs to share the disk's flushes, few enough to keep descriptors and memory small. */
const WRITERS = 8;

/** Where a path is on the disk: a string, or the bytes of a name that is not UTF-8. */
export type RealPath = string | Buffer;

/** A path from the log, placed: its real path under the root, or why it is refused. */
export type Placed = { real: RealPath } | { refused: string };

export class ProjectDisk {
  /** Each spelling of the root a log path may start with, and the real folder it stands for. */
  readonly #aliases: { prefix: string; real: string }[];
  readonly #root: string;
  /** Folders written into by this batch, checked (or made) at its first file: fsync'd once each at the end. */
  readonly #touched = new Set<string>();
  /** Folders a removal of this batch left, perhaps empty. */
  readonly #emptied = new Set<string>();
  /** What `place` found of each folder it looked at (a rewind places hundreds of files in a few folders). */
  readonly #folders = new Map<string, string | undefined>();

  /** `root`: the project's top folder; `cwd`: the session's working directory (tools' paths start from it, perhaps through a link). */
  constructor(root: string, cwd: string) {
    this.#root = realpathSync(root);
    this.#aliases = [{ prefix: root, real: this.#root }];
    const realCwd = tryRealpath(cwd);
    if (realCwd && within(this.#root, realCwd) !== undefined) this.#aliases.push({ prefix: cwd, real: realCwd });
    this.#aliases.push({ prefix: this.#root, real: this.#root });
  }

  /** Where `path` (from the log) is on the disk, or why awl will not touch it. */
  place(path: string): Placed {
    if (!isAbsolute(path) || normalize(path) !== path || path.endsWith(sep)) return { refused: "not a plain absolute path; awl writes only inside the project" };
    for (const { prefix, real } of this.#aliases) {
      const rest = within(prefix, path);
      if (rest === undefined || rest === "") continue;
      const full = `${real}${sep}${rest}`;
      const parent = this.#parentProblem(full);
      return parent ? { refused: parent } : { real: full };
    }
    return { refused: "outside the project; awl writes only inside it" };
  }

  /**
   * A path whose name is not UTF-8: placed by its spelling (`path`, as UTF-8
   * reads it), reached by its bytes (`pathBytes`, base64). Only the last part
   * may be such a name, and the bytes must read as the spelling.
   */
  placeBytes(path: string, pathBytes: string): Placed {
    const bytes = Buffer.from(pathBytes, "base64");
    if (bytes.toString("utf8") !== path || unspellable(path.slice(0, path.lastIndexOf(sep)))) return { refused: "its recorded bytes do not match its name; awl writes only where it can tell" };
    const placed = this.place(path);
    if ("refused" in placed) return placed;
    const real = placed.real as string;
    return { real: Buffer.concat([Buffer.from(real.slice(0, real.lastIndexOf(sep) + 1)), bytes.subarray(bytes.lastIndexOf(0x2f) + 1)]) };
  }

  /** The path's contents now, never following a link. */
  read(real: RealPath): Disk {
    let info;
    try {
      info = lstatSync(real);
    } catch {
      return { kind: "absent" };
    }
    if (info.isSymbolicLink()) return { kind: "link", text: readlinkSync(real, "utf8") };
    if (!info.isFile()) return { kind: "other", what: specialKind(info) ?? "a folder" };
    const fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const { size, mode } = fstatSync(fd);
      const bytes = Buffer.allocUnsafe(size);
      let done = 0;
      for (let n = 1; done < size && n > 0; done += n) n = readSync(fd, bytes, done, size - done, done);
      const read = done === size ? bytes : bytes.subarray(0, done);
      return { kind: "file", bytes: read, sha: sha256(read), mode: mode & 0o777 };
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Puts each wanted state at its real path (paths `place` gave), a few files
   * at a time so their fsyncs overlap (one after another, 500 files wait on
   * 500 disk flushes); then makes the folders' changes durable. Returns why
   * each path that could not be written failed; the others are written.
   */
  async writeAll(writes: readonly { real: RealPath; wanted: Wanted }[]): Promise<Map<RealPath, string>> {
    const failed = new Map<RealPath, string>();
    let next = 0;
    const worker = async () => {
      while (next < writes.length) {
        const { real, wanted } = writes[next++]!;
        await this.#write(real, wanted).catch((error) => failed.set(real, error instanceof Error ? error.message : String(error)));
      }
    };
    await Promise.all(Array.from({ length: Math.min(WRITERS, writes.length) }, worker));
    this.#removeEmptyFolders();
    this.#syncFolders();
    return failed;
  }

  /** Puts `wanted` at `real`, creating the folders it needs; they are checked again (a link may have appeared since `place`). */
  async #write(real: RealPath, wanted: Wanted): Promise<void> {
    const { dir, name } = parts(real);
    if (!this.#touched.has(dir)) {
      this.#makeFolders(dir);
      this.#touched.add(dir);
    }
    if (wanted.kind === "absent") {
      if (lstatSync(real, { throwIfNoEntry: false })) unlinkSync(real);
      this.#emptied.add(dir);
      return;
    }
    const temp = Buffer.concat([Buffer.from(`${dir}${sep}.`), name.subarray(0, 40), Buffer.from(`.${randomBytes(6).toString("hex")}.awl-tmp`)]);
    try {
      if (wanted.kind === "link") symlinkSync(wanted.text, temp);
      else await writeNew(temp, wanted.bytes, wanted.mode);
      await rename(temp, real);
    } catch (error) {
      rmQuietly(temp);
      throw error;
    }
  }

  /**
   * A folder the removals left empty goes too, and so on up to the root: the
   * turn that made the files made the folders they needed (a tool's write or
   * `mkdir -p`). A folder that still holds anything stays.
   */
  #removeEmptyFolders(): void {
    for (const start of [...this.#emptied].sort((a, b) => b.length - a.length)) {
      for (let dir = start; dir.length > this.#root.length; dir = dir.slice(0, dir.lastIndexOf(sep))) {
        try {
          rmdirSync(dir);
        } catch {
          break; // not empty (or gone): it and the folders above it stay
        }
        this.#touched.add(dir.slice(0, dir.lastIndexOf(sep)));
      }
    }
    this.#emptied.clear();
  }

  /** Makes the renames and removals durable: each folder once. Best effort, as for tools' writes. */
  #syncFolders(): void {
    for (const dir of this.#touched) {
      try {
        const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
        try {
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
      } catch {
        // some file systems refuse fsync on a folder; the files' own fsyncs hold their bytes
      }
    }
    this.#touched.clear();
  }

  /** Why a folder between the root and `full` cannot be written through (a link, not a folder), or undefined. */
  #parentProblem(full: string): string | undefined {
    const dir = full.slice(0, full.lastIndexOf(sep));
    if (dir === this.#root) return undefined;
    if (this.#folders.has(dir)) return this.#folders.get(dir);
    const info = lstatSync(dir, { throwIfNoEntry: false });
    const shown = dir.slice(this.#root.length + 1);
    // A missing folder is created when written; its parents are looked at all the same.
    const problem = !info ? this.#parentProblem(dir) : info.isSymbolicLink() ? `its folder ${shown} is a symbolic link; awl never writes through one` : !info.isDirectory() ? `${shown} is not a folder` : this.#parentProblem(dir);
    this.#folders.set(dir, problem);
    return problem;
  }

  /** Creates the missing folders down to `dir` one at a time, refusing a link anywhere on the way (it may have appeared since `place`). */
  #makeFolders(dir: string): void {
    let at = this.#root;
    for (const part of dir.slice(this.#root.length + 1).split(sep).filter(Boolean)) {
      at = `${at}${sep}${part}`;
      const info = lstatSync(at, { throwIfNoEntry: false });
      if (!info) mkdirSync(at);
      else if (info.isSymbolicLink()) throw new Error(`its folder ${at.slice(this.#root.length + 1)} is a symbolic link; awl never writes through one`);
      else if (!info.isDirectory()) throw new Error(`${at.slice(this.#root.length + 1)} is not a folder`);
    }
  }
}

/** A new file with its final mode from the start (set on the descriptor, whatever the umask), its bytes fsync'd. */
async function writeNew(path: RealPath, bytes: Buffer, mode: number): Promise<void> {
  const file = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    for (let done = 0; done < bytes.length; ) done += (await file.write(bytes, done, bytes.length - done)).bytesWritten;
    await file.chmod(mode & 0o777);
    await file.sync();
  } finally {
    await file.close();
  }
}

/** A real path's folder (always UTF-8: only a last part may not be) and its name's bytes. */
function parts(real: RealPath): { dir: string; name: Buffer } {
  if (typeof real === "string") {
    const at = real.lastIndexOf(sep);
    return { dir: real.slice(0, at), name: Buffer.from(real.slice(at + 1)) };
  }
  const at = real.lastIndexOf(0x2f);
  return { dir: real.subarray(0, at).toString("utf8"), name: real.subarray(at + 1) };
}

/** `path` relative to `prefix` ("" for the prefix itself), or undefined when it is not under it. */
function within(prefix: string, path: string): string | undefined {
  if (path === prefix) return "";
  const base = prefix.endsWith(sep) ? prefix : `${prefix}${sep}`;
  return path.startsWith(base) ? path.slice(base.length) : undefined;
}

function tryRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function rmQuietly(path: RealPath): void {
  try {
    unlinkSync(path);
  } catch {
    // never created
  }
}
