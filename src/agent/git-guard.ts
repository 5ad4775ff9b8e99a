// A read-only git command that runs without the person having seen it runs
// with the programs a repository's configuration could make it run switched
// off: guardGit rewrites each read-only git part in place in the command text
// (see docs/architecture.md, "Approvals").
//
// Finding the repository's own filter drivers takes one `git config` probe,
// one of awl's own git commands (src/git.ts: guarded, and killed at its time
// limit: a configuration that includes a FIFO, or a slow network file system,
// would block it for good). A probe that does not answer in time makes the
// command one to ask about, saying why.

import { resolve } from "node:path";
import { GIT_GUARD_CONFIG, GIT_GUARD_ENV, gitTimeoutMs, runGit } from "../git";
import { gitInvocation, type Judged } from "./read-only";
import { shellQuote } from "../tools/shell-quote";

/** The command as it will run, or why it cannot be guarded (it must then be asked about). */
export type Guarded = { command: string } | { ask: string };

/** The guards' environment, as assignments before the command: no lazy fetch of a partial clone's objects, no transport at all. */
const GIT_ENV = Object.entries(GIT_GUARD_ENV)
  .map(([name, value]) => `${name}=${value}`)
  .join(" ");

/**
 * The command as it runs without the person having seen it: each read-only
 * git part rewritten to `GIT_NO_LAZY_FETCH=1 GIT_ALLOW_PROTOCOL=none … git
 * --no-pager --no-optional-locks -c … [-C dir] <sub> --ignore-submodules=all
 * [--no-ext-diff --no-textconv]`, with the clean/smudge/process filters the
 * repository's own configuration defines emptied (a filter runs on `git
 * status` and `git diff`).
 */
export async function guardGit(command: string, judged: Judged, cwd: string, env: Record<string, string | undefined> = process.env, signal?: AbortSignal): Promise<Guarded> {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const [n, cmd] of judged.commands.entries()) {
    if (!judged.readOnly[n] || cmd.words[0]?.text !== "git") continue;
    const git = gitInvocation(cmd)!;
    const filters = await repositoryFilters(git.dir ? resolve(cwd, git.dir.text) : cwd, env, "repository", signal);
    if ("ask" in filters) return filters;
    const config = [...GIT_GUARD_CONFIG, ...filtersOff(filters.names)];
    const words = [
      GIT_ENV,
      "git --no-pager --no-optional-locks",
      ...config.map((c) => `-c ${shellQuote(c)}`),
      ...(git.dir ? [`-C ${command.slice(git.dir.start, git.dir.end)}`] : []),
      git.sub.text,
      "--ignore-submodules=all",
      ...(git.sub.text === "status" ? [] : ["--no-ext-diff --no-textconv"]),
    ];
    edits.push({ start: cmd.words[0]!.start, end: git.sub.end, text: words.join(" ") });
  }
  edits.sort((a, b) => a.start - b.start);
  if (edits.some((e, i) => i > 0 && e.start < edits[i - 1]!.end)) return { ask: "its git commands overlap in a way awl cannot rewrite safely" };
  let out = command;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return { command: out };
}

/**
 * The filter drivers the configuration defines, by name: with `"repository"`
 * only the repository's own (its .git/config, config.worktree, and what they
 * include; the person's global and system filters, git-lfs typically, are
 * theirs and stay on in their commands), with `"all"` every one (awl's own
 * questions run none). `ask` when they cannot be known in time (or the
 * signal aborts), or a name cannot be passed to `git -c` (it holds `=`).
 */
export async function repositoryFilters(dir: string, env: Record<string, string | undefined> = process.env, scopes: "repository" | "all" = "repository", signal?: AbortSignal): Promise<{ names: string[] } | { ask: string }> {
  const probe = await runGit(["config", "--show-scope", "--null", "--name-only", "--get-regexp", "^filter\\."], { cwd: dir, env, ...(signal ? { signal } : {}) });
  if ("failed" in probe && probe.failed !== "cannot-start") {
    return { ask: probe.failed === "aborted" ? "it was interrupted" : `git did not read the repository's configuration within ${gitTimeoutMs(env) / 1000} s, so awl cannot switch its programs off` };
  }
  // No git, no such directory, exit 1 (no such setting), a broken config: git itself will refuse to run there.
  if ("failed" in probe || probe.code !== 0) return { names: [] };
  const fields = probe.stdout.toString("utf8").split("\0");
  const names = new Set<string>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [scope, key] = [fields[i]!, fields[i + 1]!];
    if (scopes === "repository" && scope !== "local" && scope !== "worktree") continue;
    const name = key.slice("filter.".length, key.lastIndexOf("."));
    if (name.includes("=")) return { ask: `the repository defines a filter whose name awl cannot switch off (${JSON.stringify(name)})` };
    names.add(name);
  }
  return { names: [...names] };
}

/** `-c` settings that switch these filter drivers off: no program, and a missing one is no error. */
export function filtersOff(names: readonly string[]): string[] {
  return names.flatMap((name) => ["clean=", "smudge=", "process=", "required=false"].map((key) => `filter.${name}.${key}`));
}
