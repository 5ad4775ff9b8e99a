// Every git command awl runs on its own (the file tracking's questions, the
// project's identity, the probe for a repository's filters) runs here, so
// that a repository cannot make one run a program, see a key or hold awl up:
//
// - The configuration in GIT_GUARD_CONFIG, given on the command line, which
//   beats every file: no fsmonitor hook, no hooks, no external diff, no pager,
//   no transport at all (a partial clone's lazy fetch would run the remote's
//   `uploadpack` program), no look into submodules. A submodule's own
//   configuration (`.git/modules/<n>/config`, its filters) is out of the
//   command line's reach: git clears `-c` for the child it runs there, and
//   `diff.ignoreSubmodules` binds only porcelain. So a command that takes
//   `--ignore-submodules=all` is given it (the caller's job, per command).
// - A minimal environment: PATH, and where git finds the person's own
//   configuration (HOME, XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL and the like),
//   the guards below, nothing else; so no provider key, and no GIT_DIR,
//   GIT_CONFIG_PARAMETERS or GIT_EXTERNAL_DIFF of the person's either.
// - A time limit (gitTimeoutMs: 1 s unless AWL_GIT_TIMEOUT_MS raises it) and
//   the caller's AbortSignal (Esc, Ctrl+C): a configuration that includes a
//   FIFO blocks git for good, and it must never block awl.
//
// See docs/architecture.md, "awl's own git commands".

type Env = Record<string, string | undefined>;

/** How long one of awl's own git commands may take when AWL_GIT_TIMEOUT_MS does not raise it. */
export const GIT_TIMEOUT_MS = 1000;

/**
 * Configuration given on git's command line for awl's own commands and for
 * the read-only ones the person did not see: the programs a repository's
 * configuration could make git run, switched off.
 */
export const GIT_GUARD_CONFIG = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "diff.external=",
  "log.showSignature=false",
  "gpg.program=gpg",
  "gpg.openpgp.program=gpg",
  "gpg.x509.program=gpgsm",
  "gpg.ssh.program=ssh-keygen",
  "protocol.allow=never",
  "submodule.recurse=false",
  "diff.ignoreSubmodules=all",
  "diff.submodule=short",
  "status.submoduleSummary=false",
  "log.diffMerges=separate",
];

/**
 * Environment that binds every git, whatever its configuration: no lazy fetch
 * of a partial clone's missing objects (git 2.44 and later), no protocol
 * allowed (older gits, and whatever a fetch would use), no optional locks
 * (not even the index's stat cache is refreshed), no prompt for a password.
 */
export const GIT_GUARD_ENV = { GIT_NO_LAZY_FETCH: "1", GIT_ALLOW_PROTOCOL: "none", GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" } as const;

/** The person's variables git needs to find their own configuration (where they keep it, whether the system's counts) and programs. */
const PASSED = ["PATH", "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM"];

/** What one of awl's own git commands came to. */
export type GitAnswer = { code: number; stdout: Buffer } | { failed: "timeout" | "aborted" | "cannot-start" };

export interface GitOptions {
  cwd: string;
  /** The person's environment: only the variables above and AWL_GIT_TIMEOUT_MS are read from it. */
  env: Env;
  /** More `-c` settings (the repository's filters, emptied). */
  config?: readonly string[];
  stdin?: string;
  signal?: AbortSignal;
}

/** The limit in force: 1 s, or AWL_GIT_TIMEOUT_MS when it is a larger whole number of milliseconds. */
export function gitTimeoutMs(env: Env): number {
  const raised = Number(env.AWL_GIT_TIMEOUT_MS);
  return Number.isSafeInteger(raised) && raised > GIT_TIMEOUT_MS ? raised : GIT_TIMEOUT_MS;
}

/** Runs one of awl's own git commands, guarded, killed at the time limit or when `signal` aborts. */
export async function runGit(args: readonly string[], o: GitOptions): Promise<GitAnswer> {
  if (o.signal?.aborted) return { failed: "aborted" };
  let proc;
  try {
    proc = Bun.spawn(gitArgv(args, o.config), {
      cwd: o.cwd,
      env: gitEnvironment(o.env),
      stdin: o.stdin === undefined ? "ignore" : new TextEncoder().encode(o.stdin),
      stdout: "pipe",
      stderr: "ignore",
    });
  } catch {
    return { failed: "cannot-start" }; // no git, or no such directory
  }
  let stopped: "timeout" | "aborted" | undefined;
  const stop = (why: "timeout" | "aborted") => {
    stopped ??= why;
    proc.kill("SIGKILL");
  };
  const timer = setTimeout(() => stop("timeout"), gitTimeoutMs(o.env));
  const onAbort = () => stop("aborted");
  o.signal?.addEventListener("abort", onAbort);
  try {
    const [stdout, code] = await Promise.all([new Response(proc.stdout).arrayBuffer(), proc.exited]);
    return stopped ? { failed: stopped } : { code, stdout: Buffer.from(stdout) };
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener("abort", onAbort);
  }
}

/** The same, for the few callers that cannot wait asynchronously (a session's identity as it opens); killed at the time limit. */
export function runGitSync(args: readonly string[], o: Omit<GitOptions, "signal" | "stdin">): GitAnswer {
  try {
    const proc = Bun.spawnSync(gitArgv(args, o.config), { cwd: o.cwd, env: gitEnvironment(o.env), stdin: "ignore", stdout: "pipe", stderr: "ignore", timeout: gitTimeoutMs(o.env), killSignal: "SIGKILL" });
    if (proc.exitCode === null) return { failed: "timeout" };
    return { code: proc.exitCode, stdout: proc.stdout };
  } catch {
    return { failed: "cannot-start" };
  }
}

/** One of awl's own git commands whose output is read as it comes (the `@` picker's file list), guarded as the others; the caller stops it. */
export function spawnGit(args: readonly string[], o: { cwd: string; env: Env }): Bun.Subprocess<"ignore", "pipe", "ignore"> | undefined {
  try {
    return Bun.spawn(gitArgv(args), { cwd: o.cwd, env: gitEnvironment(o.env), stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  } catch {
    return undefined; // no git, or no such directory
  }
}

function gitArgv(args: readonly string[], config: readonly string[] = []): string[] {
  return ["git", "--no-pager", "--no-optional-locks", ...[...GIT_GUARD_CONFIG, ...config].flatMap((c) => ["-c", c]), ...args];
}

function gitEnvironment(env: Env): Record<string, string> {
  const kept: Record<string, string> = { ...GIT_GUARD_ENV };
  for (const name of PASSED) if (env[name] !== undefined) kept[name] = env[name];
  return kept;
}
