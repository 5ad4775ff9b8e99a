// Whether a session file and its folder are safe to open (docs/session-format.md, "Where the files live").
// A transcript is replayed to a model that can run commands, and open may
// truncate the file (crash recovery) and appends to it. So awl refuses, rather
// than warns about:
// - a symlinked session file or folder: the trim and the appends would land
//   in whatever it points to (any file the user can write);
// - a file or folder owned by another user, or writable by group or others:
//   someone else could have planted or could rewrite the history (fake tool
//   results and instructions the model would act on).
// awl itself only ever makes 0700 folders and 0600 files, so none of this
// refuses anything it wrote. The session root above the folders may be a
// symlink (a data directory moved to another disk); it is not checked.
import { constants, lstatSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { UserError } from "../../errors";

/** Open flag that refuses a symlink as the last path component (ELOOP). */
export const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Throws a UserError when `file` (already open, `stats` from fstat) or its folder is not safe. */
export function checkSafeToOpen(file: string, stats: Stats): void {
  if (!stats.isFile()) throw new UserError(`${file} is not a regular file; refusing to open it as a session`);
  const problem = whyUnsafe(stats);
  if (problem) throw new UserError(`${file} ${problem}; refusing to open it (fix: chmod 600 and chown it to yourself, if you trust its content)`);
  checkFolder(dirname(file));
}

/** The folder a session file lives or will live in: a real directory, ours, not writable by others. */
export function checkFolder(dir: string): void {
  let stats: Stats;
  try {
    stats = lstatSync(dir);
  } catch {
    return; // not there yet: it is created 0700 by mkdirPrivate
  }
  if (stats.isSymbolicLink()) throw new UserError(`session folder ${dir} is a symbolic link; refusing to use it (sessions must live in a real directory)`);
  const problem = whyUnsafe(stats);
  if (problem) throw new UserError(`session folder ${dir} ${problem}; refusing to use it (fix: chmod 700 and chown it to yourself)`);
}

function whyUnsafe(stats: Stats): string | undefined {
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) return `is owned by another user (uid ${stats.uid})`;
  if (stats.mode & 0o022) return `is writable by ${stats.mode & 0o002 ? "everyone" : "its group"} (mode ${(stats.mode & 0o777).toString(8).padStart(4, "0")})`;
  return undefined;
}

/** Read-only open flags, for `| NO_FOLLOW`. */
export const READ_FLAGS = constants.O_RDONLY;
