// A listing of the working tree (path, size, mtime, ctime, inode, mode), taken
// before and after each shell command to find what it changed. It walks the
// repository root (or, outside any repository, the working directory),
// skipping `.git` and what git ignores. Walking is one lstat per entry and
// nothing else; it stops at MAX_FILES entries or MAX_WALK_MS, past which
// tracking is not worth its cost and the caller stops it for the session.
import { lstatSync, readdirSync, type Stats } from "node:fs";

export const MAX_FILES = 100_000;
export const MAX_WALK_MS = 1000;

/** What a listing keeps of one entry: enough to tell that it changed. */
export interface Listed {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
}

/** Paths relative to the root, `/`-separated. */
export type Manifest = Map<string, Listed>;

export type Walk = { manifest: Manifest } | { stopped: string };

/**
 * Lists every file under `root` but `.git` and the paths `ignored` names (a
 * name ending in `/` is a whole folder). Folders themselves are not listed:
 * a command's effect is on files.
 */
export function walk(root: string, ignored: ReadonlySet<string>, limits = { files: MAX_FILES, ms: MAX_WALK_MS }): Walk {
  const manifest: Manifest = new Map();
  const started = performance.now();
  const pending = [""];
  let seen = 0;
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let names: string[];
    // Joined by hand: path.join normalises every path, a cost paid 100,000 times here.
    const prefix = dir === "" ? `${root}/` : `${root}/${dir}/`;
    try {
      names = readdirSync(prefix);
    } catch {
      continue; // gone or unreadable: nothing in it can be listed
    }
    for (const name of names) {
      if (name === ".git") continue;
      const rel = dir === "" ? name : `${dir}/${name}`;
      if (++seen > limits.files) return { stopped: `the working tree has over ${limits.files.toLocaleString("en-US")} files` };
      let info: Stats | undefined;
      try {
        info = lstatSync(prefix + name);
      } catch {
        // A name that is not UTF-8 reads back spelled otherwise ("\uFFFD"): looked up by its bytes, listed by that spelling.
        info = name.includes("\uFFFD") ? byBytes(prefix, name) : undefined;
        if (!info) continue;
      }
      if (info.isDirectory()) {
        if (!ignored.has(`${rel}/`)) pending.push(rel);
      } else if (!ignored.has(rel)) {
        manifest.set(rel, info); // the Stats object itself: copying its fields costs an object per file
      }
    }
    if (performance.now() - started > limits.ms) return { stopped: `listing the working tree took over ${limits.ms / 1000} s` };
  }
  return { manifest };
}

/** The entry of `folder` whose name, read as UTF-8, is `spelled`: found by its bytes. */
function byBytes(folder: string, spelled: string): Stats | undefined {
  const path = rawPath(folder, spelled);
  try {
    return path ? lstatSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** The full path, as bytes, of the entry of `folder` (ending in `/`) whose name reads as `spelled`. */
function rawPath(folder: string, spelled: string): Buffer | undefined {
  try {
    const name = readdirSync(folder, { encoding: "buffer" }).find((bytes) => bytes.toString("utf8") === spelled);
    return name ? Buffer.concat([Buffer.from(folder), name]) : undefined;
  } catch {
    return undefined;
  }
}

/** A listed path whose name is not UTF-8 (spelled with "\uFFFD"): its bytes are what reach the disk. */
export const unspellable = (path: string): boolean => path.includes("\uFFFD");

/**
 * Where `rel` (a listed path) is on the disk: a string, or for a name that is
 * not UTF-8 its bytes (only the last part of a path may be such a name: the
 * listing does not go into a folder it cannot spell); undefined when it is gone.
 */
export function onDisk(root: string, rel: string): string | Buffer | undefined {
  if (!unspellable(rel)) return `${root}/${rel}`;
  const slash = rel.lastIndexOf("/");
  if (unspellable(rel.slice(0, slash + 1))) return undefined;
  return rawPath(`${root}/${rel.slice(0, slash + 1)}`, rel.slice(slash + 1));
}

/** Did the entry change between two listings (its size, mtime, ctime, inode or mode)? */
export function changed(a: Listed, b: Listed): boolean {
  return a.size !== b.size || a.mtimeMs !== b.mtimeMs || a.ctimeMs !== b.ctimeMs || a.ino !== b.ino || a.mode !== b.mode;
}

/** A regular file (not a link, a FIFO or a device), whose bytes can be kept and written back. */
export function isRegular(l: Listed): boolean {
  return (l.mode & 0o170000) === 0o100000;
}

/** A symbolic link: kept and put back as its target text. */
export function isLink(l: Listed): boolean {
  return (l.mode & 0o170000) === 0o120000;
}
