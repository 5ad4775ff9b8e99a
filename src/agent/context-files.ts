// Project context files: the person's standing instructions, read once when a
// new session starts and placed in its system prompt (which the log persists,
// so a resumed session keeps exactly what it started with).
//
// What is read, in this order (root-first, concatenated):
//   1. the global file, $XDG_CONFIG_HOME/awl/AGENTS.md (a relative
//      XDG_CONFIG_HOME is ignored, as the XDG spec says), else
//      ~/.config/awl/AGENTS.md;
//   2. in each directory from the repository root down to the working
//      directory, AGENTS.md, or CLAUDE.md where there is no usable AGENTS.md.
//      The root is the nearest ancestor holding `.git` (a directory, or a file
//      as in worktrees and submodules); without one, the working directory
//      alone. Nothing else is read: no other directory, no subdirectory.
//
// Whose they are: as git judges a repository before it trusts its
// configuration, instructions are taken only from what the person (or root)
// owns and nobody else can write. A `.git` owned by someone else does not
// make its directory the project's root (on a shared machine anyone can
// create /tmp/.git); an AGENTS.md or CLAUDE.md owned by someone else, or in a
// directory someone else owns or everyone can write to (/tmp), is skipped.
// Each is said, as a skipped file is.
//
// The rules for the odd cases:
//   - An AGENTS.md that is not usable (a directory, a FIFO or device, permission
//     denied, a broken or looping symbolic link, a link out of the project,
//     binary) is skipped and said, and CLAUDE.md is looked for in its place. An
//     empty (or blank) AGENTS.md is usable: it says nothing, and keeps CLAUDE.md out.
//   - A symbolic link is followed when its target is inside the project (the
//     root's tree; `ln -s CLAUDE.md AGENTS.md` is common). A link leading
//     elsewhere (`AGENTS.md -> ~/.ssh/id_rsa` in a cloned repository) is never
//     opened. The global file is the person's own and may link anywhere. A file
//     reached twice (two links to one file) is included once.
//   - Only regular files are opened, non-blocking and without becoming the
//     controlling terminal, so a FIFO named AGENTS.md cannot hang awl.
//   - Text is UTF-8 (a BOM is dropped; a UTF-16 BOM is honoured). Invalid
//     UTF-8 is kept with U+FFFD in place of the bad bytes, and said; a file
//     with NUL bytes is binary and skipped.
//   - A cap of 32 KiB (CONTEXT_LIMIT) on the total: the files' text and their
//     headings, in order. The file that crosses the cap is cut at the last line
//     end that fits, and every later one is left out; the prompt says which,
//     and `ContextFiles` carries it for the CLI to say on screen. No file is
//     ever read past the cap, so a 1 GB AGENTS.md costs what 32 KiB does.
//   - Deep trees cost one lstat per directory to find `.git`, and one or two
//     per directory of the chain (about 0.1 ms for a usual project, 100 ms at
//     1,000 levels, where each lookup walks a long path). A directory whose
//     path is too long for the system (ENAMETOOLONG) holds no file as far as
//     awl can tell. However many files there are, the prompt names at most 20
//     of those it left out, and counts the rest.
//   - The content is untrusted: it goes into the system prompt only, never to
//     the terminal (context-prompt.ts writes it there; src/ui/session/instructions.ts
//     words the files for the screen, through safeText).

import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { configDir } from "../config-dir";
import { kib, promptPath, renderSection } from "./context-prompt";

export type Env = Record<string, string | undefined>;

/** The most the files may take in the prompt, headings included, in bytes of UTF-8. */
export const CONTEXT_LIMIT = 32 * 1024;


export interface ContextFile {
  /** Absolute path, as found (a link's own path, not its target). */
  path: string;
  /** The person's global file, not the project's. */
  global: boolean;
  /** The file's size on disk. */
  bytes: number;
  /** How much of it is in the prompt, in bytes: all of them when full, the kept start's when cut, 0 else. */
  included: number;
  /** full: all of it; cut: its start, up to the cap; omitted: none, the cap was reached before it; empty: blank. */
  status: "full" | "cut" | "omitted" | "empty";
  /** Not valid UTF-8: the bad bytes are U+FFFD in the prompt. */
  invalidUtf8?: boolean;
}

export interface SkippedFile {
  path: string;
  /** A few words: "permission denied", "a directory", "a symbolic link out of the project" … */
  reason: string;
}

export interface ContextFiles {
  /** The repository root (nearest ancestor with .git), or the working directory when there is none. */
  root: string;
  /** In prompt order: the global file first, then root to working directory. */
  files: ContextFile[];
  /** Files that exist but could not be used, with why. */
  skipped: SkippedFile[];
  limit: number;
  /** The system prompt's section; "" when there is nothing to say. */
  section: string;
}

/** Reads the context files for a session starting in `cwd`. Never throws on a file's account. */
export function loadContextFiles(options: { cwd: string; env?: Env; limit?: number }): ContextFiles {
  const env = options.env ?? process.env;
  const limit = options.limit ?? CONTEXT_LIMIT;
  const cwd = realCwd(options.cwd);
  const skipped: SkippedFile[] = [];
  const root = trustedRoot(cwd, skipped);
  const files: ContextFile[] = [];
  const chunks: string[] = [];
  const seen = new Set<string>(); // dev:ino of the files taken
  let used = 0;
  let full = false; // the cap was reached: every later file is left out

  /** Takes one candidate, read only as far as the room left under the cap; false when it is absent or not usable. */
  const take = (path: string, global: boolean, folder?: string): boolean => {
    const opened = openContextFile(path, global ? undefined : root);
    if (opened === "absent") return false;
    if ("reason" in opened) {
      skipped.push({ path, reason: opened.reason });
      return false;
    }
    try {
      const whose = folder ?? foreign(opened.stats); // a link's target judged, as what is read
      if (whose !== undefined) {
        skipped.push({ path, reason: whose });
        return false;
      }
      const key = `${opened.stats.dev}:${opened.stats.ino}`;
      if (seen.has(key)) return true; // the same file again (a link to one already taken): there, and included once
      const heading = `## ${promptPath(path)}\n\n`;
      const separator = chunks.length > 0 ? 2 : 0; // "\n\n" between files
      const room = full ? 0 : limit - used - separator - byteLength(heading);
      let read: ReadText | "binary";
      try {
        read = readText(opened.fd, room > 0 ? room + 4 : 0);
      } catch (error) {
        skipped.push({ path, reason: describeError(error) });
        return false;
      }
      if (read === "binary") {
        skipped.push({ path, reason: "binary (NUL bytes)" });
        return false;
      }
      seen.add(key);
      const file: ContextFile = { path, global, bytes: Math.max(opened.stats.size, read.bytesRead), included: 0, status: "omitted" };
      if (read.invalidUtf8) file.invalidUtf8 = true;
      if (file.bytes === 0 || (read.complete && read.text.trim() === "")) {
        file.status = "empty";
      } else if (room > 0) {
        let text = read.text.replace(/\s+$/, "");
        let cut = !read.complete;
        if (byteLength(text) > room) {
          text = cutAtLine(text, room);
          cut = true;
        }
        if (text.trim() !== "") {
          used += separator + byteLength(heading) + byteLength(text);
          file.status = cut ? "cut" : "full";
          file.included = cut ? byteLength(text) : file.bytes;
          const rest = file.bytes - file.included;
          chunks.push(heading + text + (cut ? `\n\n[awl: the rest of this file (about ${rest} bytes) is cut: project instructions are limited to ${kib(limit)}]` : ""));
        }
      }
      if (file.status === "cut" || file.status === "omitted") full = true;
      files.push(file);
      return true;
    } finally {
      closeSync(opened.fd);
    }
  };

  take(globalContextPath(env), true);
  for (const dir of chain(root, cwd)) {
    const folder = foreignPath(dir, "in a directory");
    if (!take(join(dir, "AGENTS.md"), false, folder)) take(join(dir, "CLAUDE.md"), false, folder);
  }
  return { root, files, skipped, limit, section: renderSection(files, chunks, limit) };
}

/** $XDG_CONFIG_HOME/awl/AGENTS.md, or ~/.config/awl/AGENTS.md; a relative XDG_CONFIG_HOME is ignored. */
export function globalContextPath(env: Env = process.env): string {
  return join(configDir(env), "AGENTS.md");
}

/** The nearest ancestor of `cwd` (itself included) holding `.git` (a directory, a file or a link), else `cwd`. */
export function repositoryRoot(cwd: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (exists(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}

/**
 * The repository root when its `.git` and its directory are the person's (or
 * root's), as git requires before it uses a repository; else the working
 * directory alone, with the `.git` said in `skipped`.
 */
function trustedRoot(cwd: string, skipped: SkippedFile[]): string {
  const root = repositoryRoot(cwd);
  if (root === cwd && !exists(join(cwd, ".git"))) return cwd;
  const git = join(root, ".git");
  const reason = foreignPath(git, "") ?? foreignPath(root, "in a directory");
  if (reason === undefined) return root;
  skipped.push({ path: git, reason: `${reason}: not taken as the project's root` });
  // The instructions that .git would have brought in are named too: they are what the person would miss, or be spared.
  for (const dir of chain(root, cwd).slice(0, -1)) {
    for (const name of ["AGENTS.md", "CLAUDE.md"]) if (exists(join(dir, name))) skipped.push({ path: join(dir, name), reason: "in a repository whose .git is not taken" });
  }
  return cwd;
}

/**
 * Why something at `path` may hold another person's words: owned by another
 * user (root aside), or writable by everyone. Undefined when it is the
 * person's own; `where` prefixes the reason ("in a directory owned by …").
 * A path that cannot be looked at is left to the reads that follow.
 */
function foreignPath(path: string, where: string): string | undefined {
  let stats: Stats | undefined;
  try {
    stats = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  const reason = stats && foreign(stats);
  return reason && (where ? `${where} ${reason}` : reason);
}

function foreign(stats: Stats): string | undefined {
  const me = process.geteuid?.();
  if (me === undefined) return undefined; // no owners to compare (Windows)
  if (stats.uid !== me && stats.uid !== 0) return `owned by another user (uid ${stats.uid})`;
  if (stats.mode & 0o002) return "writable by everyone";
  return undefined;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | constants.O_NOFOLLOW;

/** The working directory with its links resolved (as the root and the chain are). */
export function realCwd(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return resolve(cwd);
  }
}

function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENAMETOOLONG, EACCES, ENOTDIR: nothing awl can see
  }
}

/** root, its child toward cwd, …, cwd. */
function chain(root: string, cwd: string): string[] {
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.push(dir);
    if (dir === root || dirname(dir) === dir) break;
  }
  return dirs.reverse();
}

/**
 * Opens one candidate: "absent" when nothing is there, a reason when something
 * is there but is not usable, else an open regular file. `within`: a link must
 * lead inside this directory (undefined: anywhere).
 */
function openContextFile(path: string, within: string | undefined): "absent" | { reason: string } | { fd: number; stats: Stats } {
  let target = path;
  try {
    const link = lstatSync(path, { throwIfNoEntry: false });
    if (!link) return "absent";
    if (link.isSymbolicLink()) {
      try {
        target = realpathSync(path);
      } catch (error) {
        const code = errorCode(error);
        if (code === "ENOENT") return { reason: "a broken symbolic link" };
        if (code === "ELOOP") return { reason: "a symbolic link loop" };
        return { reason: describeError(error) };
      }
      if (within !== undefined && !inside(target, within)) return { reason: "a symbolic link out of the project" };
      const stats = statSync(target);
      if (!stats.isFile()) return { reason: kind(stats) };
    } else if (!link.isFile()) {
      return { reason: kind(link) };
    }
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR" || code === "ENAMETOOLONG") return "absent";
    return { reason: describeError(error) };
  }
  let fd: number;
  try {
    fd = openSync(target, OPEN_FLAGS); // O_NOFOLLOW: a link swapped in since the check is refused
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT") return "absent"; // gone since the check
    if (code === "ELOOP") return { reason: "a symbolic link loop" };
    return { reason: describeError(error) };
  }
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    return { reason: kind(stats) };
  }
  return { fd, stats };
}

/** Whether `path` is `dir` or lies below it. */
export function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function kind(stats: Stats): string {
  return stats.isDirectory() ? "a directory" : "not a regular file";
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function describeError(error: unknown): string {
  const code = errorCode(error);
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return code ? `unreadable: ${code}` : "unreadable";
}

type ReadText = { text: string; complete: boolean; bytesRead: number; invalidUtf8: boolean };

/** Up to `max` bytes of the file, decoded (complete: that was all of it); "binary" when they hold a NUL byte. */
function readText(fd: number, max: number): ReadText | "binary" {
  const want = max + 1; // one more byte tells whether the file goes on
  const buffer = Buffer.alloc(want);
  let length = 0;
  while (length < want) {
    const n = readSync(fd, buffer, length, want - length, null);
    if (n === 0) break;
    length += n;
  }
  const complete = length < want;
  let bytes = buffer.subarray(0, complete ? length : max);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { ...decodeUtf16(bytes.subarray(2), "utf-16le"), complete, bytesRead: length };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { ...decodeUtf16(bytes.subarray(2), "utf-16be"), complete, bytesRead: length };
  if (bytes.includes(0)) return "binary";
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  if (!complete) bytes = bytes.subarray(0, utf8Boundary(bytes));
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), complete, bytesRead: length, invalidUtf8: false };
  } catch {
    return { text: new TextDecoder("utf-8").decode(bytes), complete, bytesRead: length, invalidUtf8: true };
  }
}

function decodeUtf16(bytes: Buffer, encoding: "utf-16le" | "utf-16be"): { text: string; invalidUtf8: boolean } {
  const even = bytes.subarray(0, bytes.length - (bytes.length % 2));
  return { text: new TextDecoder(encoding).decode(even), invalidUtf8: false };
}

/** The end of the last whole UTF-8 character in `bytes` (a read cut short may end inside one). */
function utf8Boundary(bytes: Uint8Array): number {
  let i = bytes.length;
  let back = 0;
  while (i > 0 && back < 4 && (bytes[i - 1]! & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i === 0) return bytes.length;
  const lead = bytes[i - 1]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return back + 1 >= need ? bytes.length : i - 1;
}

/** The longest start of `text` within `max` bytes of UTF-8, ending at a line end when it holds one. */
function cutAtLine(text: string, max: number): string {
  const buffer = Buffer.from(text);
  const head = new TextDecoder().decode(buffer.subarray(0, utf8Boundary(buffer.subarray(0, max))));
  const line = head.lastIndexOf("\n");
  return (line > 0 ? head.slice(0, line) : head).replace(/\s+$/, "");
}

function byteLength(text: string): number {
  return Buffer.byteLength(text);
}
