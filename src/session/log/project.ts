// Which git repository a directory belongs to, told by the repository's
// root commit (the smallest sha, when history has several; none for a shallow
// clone, whose root is not the repository's) and the directory's path inside
// it. Neither changes when a checkout is moved or renamed, and another clone
// of the same repository has the same root: so a session is found from there.
// Asked of git read-only (rev-list, no optional locks), 200 ms at most, and
// cached per git directory under the cache folder: a root commit never changes.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { ProjectRef } from "./schema";

type Env = Record<string, string | undefined>;

/** The most git may take: a session must not wait on a huge or slow repository. */
const GIT_TIMEOUT_MS = 200;

export function projectOf(cwd: string, env: Env = process.env): ProjectRef | undefined {
  const top = repositoryTop(cwd);
  if (!top) return undefined;
  const gitDir = gitDirOf(top);
  if (!gitDir || existsSync(join(gitDir, "shallow"))) return undefined;
  const cache = cacheFile(env);
  const known = readCache(cache);
  let root = known[gitDir];
  if (!root) {
    root = rootCommit(top, env);
    if (!root) return undefined;
    writeCache(cache, { ...known, [gitDir]: root });
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

function rootCommit(top: string, env: Env): string | undefined {
  try {
    const git = Bun.spawnSync(["git", "-C", top, "--no-optional-locks", "rev-list", "--max-parents=0", "HEAD"], {
      env: { ...env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" } as Record<string, string>,
      stdout: "pipe",
      stderr: "ignore",
      timeout: GIT_TIMEOUT_MS,
    });
    if (git.exitCode !== 0) return undefined;
    const roots = git.stdout.toString().split("\n").filter((l) => /^[0-9a-f]{40,64}$/.test(l)).sort();
    return roots[0];
  } catch {
    return undefined; // no git: no project
  }
}

function cacheFile(env: Env): string {
  const base = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(env.HOME || homedir(), ".cache");
  return join(base, "awl", "project-roots.json");
}

function readCache(file: string): Record<string, string> {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {}; // none yet, or unreadable: asked again, and written anew
  }
}

/** Best effort: a cache that cannot be written only costs asking git again next time. */
function writeCache(file: string, value: Record<string, string>): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(value), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // see above
  }
}

export const sameProject = (a: ProjectRef | undefined, b: ProjectRef | undefined): boolean => !!a && !!b && a.root === b.root && a.path === b.path;
