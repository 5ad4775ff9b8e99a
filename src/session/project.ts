// Which git repository a directory belongs to, told by the repository's
// root commit (the smallest sha, when history has several; none for a shallow
// clone, whose root is not the repository's) and the directory's path inside
// it. Neither changes when a checkout is moved or renamed, and another clone
// of the same repository has the same root: so a session is found from there.
// Asked of git read-only (rev-list, one of awl's own guarded git commands:
// src/git.ts), and cached per git directory under the cache folder: a root
// commit never changes.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { privateCacheFolder, trustedCacheFolder } from "../cache-folder";
import { runGitSync } from "../git";
import { writeFileAtomic } from "../private-file";
import type { ProjectRef } from "./schema";

type Env = Record<string, string | undefined>;

export function projectOf(cwd: string, env: Env = process.env): ProjectRef | undefined {
  const top = repositoryTop(cwd);
  if (!top) return undefined;
  const gitDir = gitDirOf(top);
  if (!gitDir || existsSync(join(gitDir, "shallow"))) return undefined;
  const known = readCache(env);
  let root = known[gitDir];
  if (!root) {
    root = rootCommit(top, env);
    if (!root) return undefined;
    writeCache(env, { ...known, [gitDir]: root });
  }
  return { root, path: relative(top, cwd) || "." };
}

/** The nearest directory at or above `cwd` holding `.git` (a folder, or a file naming one). */
function repositoryTop(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

function gitDirOf(top: string): string | undefined {
  const dotGit = join(top, ".git");
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const named = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
    return named ? resolve(top, named) : undefined;
  } catch {
    return undefined;
  }
}

/** The smallest root commit; undefined without git, or when git fails or runs out of time (no project, asked again next time). */
function rootCommit(top: string, env: Env): string | undefined {
  const git = runGitSync(["rev-list", "--max-parents=0", "HEAD"], { cwd: top, env });
  if (!("code" in git) || git.code !== 0) return undefined;
  return git.stdout.toString().split("\n").filter((l) => /^[0-9a-f]{40,64}$/.test(l)).sort()[0];
}

const CACHE = "project-roots.json";

/** The roots known so far, by git directory; none when the cache folder is not this user's alone. */
function readCache(env: Env): Record<string, string> {
  const folder = trustedCacheFolder(env);
  if (!folder) return {};
  try {
    const value = JSON.parse(readFileSync(join(folder, CACHE), "utf8")) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {}; // none yet, or unreadable: asked again, and written anew
  }
}

/** Best effort: a cache that cannot be written only costs asking git again next time. */
function writeCache(env: Env, value: Record<string, string>): void {
  try {
    const folder = privateCacheFolder(env);
    if (folder) writeFileAtomic(join(folder, CACHE), JSON.stringify(value));
  } catch {
    // see above
  }
}

export const sameProject = (a: ProjectRef | undefined, b: ProjectRef | undefined): boolean => !!a && !!b && a.root === b.root && a.path === b.path;
