// awl's caches live in $XDG_CACHE_HOME/awl (else ~/.cache/awl): the model
// lists and the projects' root commits. What they hold is taken as fact (the
// models in force, which sessions are this project's), so each folder on the
// way must be this user's alone: a real folder (not a link), owned by them,
// that nobody else may enter. One that is not was not made by awl, or was
// opened up since: anything could have been planted in it. A reader then
// ignores the cache; a writer removes the folder and makes it anew (a cache
// loses nothing by it), or gives up when it cannot.
import { lstatSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { mkdirPrivate } from "./private-file";

type Env = Record<string, string | undefined>;

/** The folder `parts` under awl's cache folder, whether or not it is there. */
export function cachePath(env: Env, ...parts: string[]): string {
  const base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(env.HOME || homedir(), ".cache");
  return join(base, "awl", ...parts);
}

/** The cache folder `parts` when it can be read from: it and awl's folder are this user's alone. */
export function trustedCacheFolder(env: Env, ...parts: string[]): string | undefined {
  return levels(env, parts).every(isPrivate) ? cachePath(env, ...parts) : undefined;
}

/** The cache folder `parts`, made (0700) where missing and made anew where it is not this user's alone; undefined when that cannot be done. */
export function privateCacheFolder(env: Env, ...parts: string[]): string | undefined {
  for (const dir of levels(env, parts)) {
    if (isPrivate(dir)) continue;
    try {
      rmSync(dir, { recursive: true, force: true }); // a link goes, not what it names
      mkdirPrivate(dir);
    } catch {
      return undefined;
    }
    if (!isPrivate(dir)) return undefined;
  }
  return cachePath(env, ...parts);
}

/** awl's cache folder, then each folder down to `parts`. */
function levels(env: Env, parts: string[]): string[] {
  return [cachePath(env), ...parts.map((_, i) => cachePath(env, ...parts.slice(0, i + 1)))];
}

function isPrivate(dir: string): boolean {
  try {
    const s = lstatSync(dir);
    return s.isDirectory() && s.uid === process.getuid!() && (s.mode & 0o077) === 0;
  } catch {
    return false;
  }
}
