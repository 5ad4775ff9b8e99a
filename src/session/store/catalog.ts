// The session files under a root, as the clean-up commands see them: every
// folder of the root (or of its trash) except awl's own dot-folders, each file
// with its header's id and cwd. "This project" is the sessions whose header
// names this directory (a folder shared by a look-alike cwd is filtered by the
// header, as listing does). An id prefix is only ever compared with ids, never
// used as a path.
import { closeSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors";
import { headerView, readHeader, sessionFiles } from "./listing";
import { encodeCwd, idFromFileName } from "../log";
import type { ProjectRef } from "../log";

export interface CatalogEntry {
  path: string;
  /** The folder below the root (or the trash), kept so the file can go back where it was. */
  folder: string;
  name: string;
  id: string;
  /** The header's cwd and timestamp; undefined when the header cannot be read. */
  cwd: string | undefined;
  created: string | undefined;
  project?: ProjectRef;
}

/** Folders awl keeps beside the per-directory ones: the trash and the file checkpoints. */
const isOwnFolder = (name: string) => name.startsWith(".");

/** Session files under `base` (the root or the trash): this directory's only, unless `all`. */
export function catalog(base: string, cwd: string, all: boolean): CatalogEntry[] {
  const folders = all ? folderNames(base) : [encodeCwd(cwd)];
  const found: CatalogEntry[] = [];
  const scratch = Buffer.allocUnsafe(SHORT_HEADER);
  for (const folder of folders) {
    for (const name of sessionFiles(join(base, folder))) {
      const path = join(base, folder, name);
      const header = shortHeader(path, scratch) ?? readHeader(path);
      if (!all && header && header.cwd !== cwd) continue;
      found.push({ path, folder, name, id: header?.id ?? idFromFileName(name) ?? name, cwd: header?.cwd, created: header?.timestamp, ...(header?.project && { project: header.project }) });
    }
  }
  return found;
}

/** A header is a few hundred bytes: most are read whole into one reused buffer (a fresh one per file of 10,000 is ~640 MB of garbage). */
const SHORT_HEADER = 4096;

function shortHeader(path: string, scratch: Buffer): ReturnType<typeof readHeader> {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const read = readSync(fd, scratch, 0, scratch.length, 0);
    const end = scratch.subarray(0, read).indexOf(0x0a);
    return end === -1 ? undefined : headerView(scratch.subarray(0, end));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Every session file under `base`, in every directory's folder; no file is read. */
export function sessionPaths(base: string): string[] {
  return folderNames(base).flatMap((folder) => sessionFiles(join(base, folder)).map((name) => join(base, folder, name)));
}

function folderNames(base: string): string[] {
  try {
    return readdirSync(base, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !isOwnFolder(d.name))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/** The one entry whose id starts with `prefix`; a usage error names none or several. */
export function pickById<T extends { id: string }>(entries: readonly T[], prefix: string, where: string, describe: (e: T) => string): T {
  if (!/^[0-9a-fA-F-]+$/.test(prefix)) throw new UsageError(`'${prefix}' is not a session id: ids are hexadecimal digits and dashes`);
  const lower = prefix.toLowerCase();
  const matches = entries.filter((e) => e.id.toLowerCase().startsWith(lower));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new UsageError(`no session ${where} matches '${prefix}'`);
  throw new UsageError([`'${prefix}' matches ${matches.length} sessions; give more of the id:`, ...matches.map((m) => `  ${describe(m)}`)].join("\n"));
}
