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
import { privateCacheFolder, trustedCacheFolder } from "../../cache-folder";
import { runGit, runGitSync, type GitAnswer } from "../../git";
import { writeFileAtomic } from "../../private-file";
import type { ProjectRef } from "./schema";

type Env = Record<string, string | undefined>;

export function projectOf(cwd: string, env: Env = process.env): ProjectRef | undefined {
  const found = lookUp(cwd, env);
  return "ask" in found ? found.learnt(rootCommit(runGitSync(ROOT_COMMITS, { cwd: found.ask, env }))) : found.known;
}

/**
 * The same, asked of git without holding awl up: for a turn about to write a
 * new session's first line, which Esc stops (`signal`: no project then).
 */
export async function findProject(cwd: string, env: Env, signal?: AbortSignal): Promise<ProjectRef | undefined> {
  const found = lookUp(cwd, env);
  return "ask" in found ? found.learnt(rootCommit(await runGit(ROOT_COMMITS, { cwd: found.ask, env, ...(signal ? { signal } : {}) }))) : found.known;
}

const ROOT_COMMITS = ["rev-list", "--max-parents=0", "HEAD"];

/** The project as far as it is known without git: known (or none), or the repository top git must be asked in, and what to do with its root commit. */
function lookUp(cwd: string, env: Env): { known: ProjectRef | undefined } | { ask: string; learnt: (root: string | undefined) => ProjectRef | undefined } {
  const top = repositoryTop(cwd);
  if (!top) return { known: undefined };
  const gitDir = gitDirOf(top);
  if (!gitDir || existsSync(join(gitDir, "shallow"))) return { known: undefined };
  const path = relative(top, cwd) || ".";
  const known = readCache(env);
  const cached = known[gitDir];
  if (cached) return { known: { root: cached, path } };
  return {
    ask: top,
    learnt: (root) => {
      if (!root) return undefined;
      writeCache(env, { ...known, [gitDir]: root });
      return { root, path };
    },
  };
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

/** The smallest root commit rev-list gave; undefined when git is missing, failed or ran out of time (no project, asked again next time). */
function rootCommit(git: GitAnswer): string | undefined {
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
