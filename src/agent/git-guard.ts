// A read-only git command that runs without the person having seen it runs
// with the programs a repository's configuration could make it run switched
// off: guardGit rewrites each read-only git part in place in the command text
// (see docs/architecture.md, "Approvals").
//
// Finding the repository's own filter drivers takes one `git config` probe.
// It runs asynchronously and is killed after PROBE_LIMIT_MS: a configuration
// that includes a FIFO (or a slow network file system) would block it for good,
// and it must never hold up awl's event loop (Esc, Ctrl+C, signals). A probe
// that does not answer in time makes the command one to ask about, saying why.

import { resolve } from "node:path";
import { keyVariables } from "../providers/registry";
import { bashEnvironment } from "../tools/bash-env";
import { gitInvocation, type Judged } from "./read-only";

/** How long awl waits for its own `git config` probe before it gives up and asks instead. */
export const PROBE_LIMIT_MS = 1000;

/** The command as it will run, or why it cannot be guarded (it must then be asked about). */
export type Guarded = { command: string } | { ask: string };

/** Environment for a read-only git: no lazy fetch of missing objects in a partial clone, and no transport at all. */
const GIT_ENV = "GIT_NO_LAZY_FETCH=1 GIT_ALLOW_PROTOCOL=none";
/**
 * Configuration given on git's command line, which beats every file: no
 * fsmonitor hook, no hooks, no external diff, no signature checks, the
 * signature programs by their standard names rather than a repository's, no
 * look into submodules (whose own configuration the command line does not
 * reach), and merges shown without re-merging them (which runs merge drivers).
 */
export const GIT_CONFIG = [
  "core.fsmonitor=",
  "core.hooksPath=/dev/null",
  "diff.external=",
  "log.showSignature=false",
  "gpg.program=gpg",
  "gpg.openpgp.program=gpg",
  "gpg.x509.program=gpgsm",
  "gpg.ssh.program=ssh-keygen",
  "submodule.recurse=false",
  "diff.ignoreSubmodules=all",
  "diff.submodule=short",
  "status.submoduleSummary=false",
  "log.diffMerges=separate",
];

/**
 * The command as it runs without the person having seen it: each read-only
 * git part rewritten to `GIT_NO_LAZY_FETCH=1 GIT_ALLOW_PROTOCOL=none git
 * --no-pager --no-optional-locks -c … [-C dir] <sub> --ignore-submodules=all
 * [--no-ext-diff --no-textconv]`, with the clean/smudge/process filters the
 * repository's own configuration defines emptied (a filter runs on `git
 * status` and `git diff`).
 */
export async function guardGit(command: string, judged: Judged, cwd: string, env: Record<string, string | undefined> = process.env): Promise<Guarded> {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const [n, cmd] of judged.commands.entries()) {
    if (!judged.readOnly[n] || cmd.words[0]?.text !== "git") continue;
    const git = gitInvocation(cmd)!;
    const filters = await repositoryFilters(git.dir ? resolve(cwd, git.dir.text) : cwd, env);
    if ("ask" in filters) return filters;
    const config = [...GIT_CONFIG, ...filters.names.flatMap((name) => ["clean=", "smudge=", "process=", "required=false"].map((key) => `filter.${name}.${key}`))];
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
 * The filter drivers the repository's own configuration (its .git/config,
 * config.worktree, and what they include) defines, by name. The person's
 * global and system filters (git-lfs, typically) are theirs and stay on.
 * `ask` when they cannot be known in time, or a name cannot be passed to
 * `git -c` (it holds `=`).
 */
export async function repositoryFilters(dir: string, env: Record<string, string | undefined> = process.env): Promise<{ names: string[] } | { ask: string }> {
  const argv = ["git", "config", "--show-scope", "--null", "--name-only", "--get-regexp", "^filter\\."];
  const probe = await runProbe(argv, dir, env);
  if (probe === "timeout") return { ask: `git did not read the repository's configuration within ${PROBE_LIMIT_MS / 1000} s, so awl cannot switch its programs off` };
  // No git, no such directory, exit 1 (no such setting), a broken config: git itself will refuse to run there.
  if (probe === undefined || probe.exitCode !== 0) return { names: [] };
  const fields = probe.stdout.split("\0");
  const names = new Set<string>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [scope, key] = [fields[i]!, fields[i + 1]!];
    if (scope !== "local" && scope !== "worktree") continue;
    const name = key.slice("filter.".length, key.lastIndexOf("."));
    if (name.includes("=")) return { ask: `the repository defines a filter whose name awl cannot switch off (${JSON.stringify(name)})` };
    names.add(name);
  }
  return { names: [...names] };
}

/** Runs one of awl's own probes, killed after PROBE_LIMIT_MS; undefined when it cannot start at all. */
async function runProbe(argv: string[], cwd: string, env: Record<string, string | undefined>): Promise<{ exitCode: number | null; stdout: string } | "timeout" | undefined> {
  let proc;
  try {
    // Without the keys, as bash gets it: a child's /proc/<pid>/environ is readable as long as it runs.
    proc = Bun.spawn(argv, { cwd, env: bashEnvironment(env, keyVariables()), stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  } catch {
    return undefined; // no git, or the directory does not exist: git -C fails before it reads anything
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    proc.kill("SIGKILL");
  }, PROBE_LIMIT_MS);
  try {
    const [stdout] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    return timedOut ? "timeout" : { exitCode: proc.exitCode, stdout };
  } finally {
    clearTimeout(timer);
  }
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./=:@%+-]*$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}
