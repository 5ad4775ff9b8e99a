// Which bash commands only look: the short list that runs without asking
// (`--approve ask`) and is all `--approve read-only` lets through. A command
// is judged part by part (shell-words.ts); every part must be on the list,
// with no leading assignment and no redirection that writes a file, or the
// whole command is not read-only. A command that cannot be parsed is not
// read-only either.
//
// git is on the list only with the programs a repository's configuration can
// make it run switched off, and the command that runs must really have them
// off: guardGit rewrites each read-only git part as it will run (see
// docs/architecture.md, "Approvals").

import { resolve } from "node:path";
import { parseShell, ShellParseError, type SimpleCommand, type Word } from "./shell-words";

/** The programs that may run without asking, with the checks of their arguments below. */
export const READ_ONLY_PROGRAMS = ["ls", "cat", "grep", "rg", "find", "git", "pwd", "head", "tail", "wc"] as const;

const ANY_ARGUMENTS = new Set(["ls", "cat", "grep", "pwd", "head", "tail", "wc"]);
const GIT_SUBCOMMANDS = new Set(["status", "diff", "log", "show"]);
/** find's actions that run a program or write: -exec, -execdir, -ok, -okdir, -delete, -fprint, -fprint0, -fprintf, -fls. */
const FIND_WRITES = /^-(exec|execdir|ok|okdir|delete|fprint.*|fls)$/;
/** rg's options that run a program: --pre, --hostname-bin, and -z/--search-zip (decompressors). */
const RG_RUNS = new Set(["pre", "hostname-bin", "search-zip"]);
/**
 * git options that write a file or run a configured program. git accepts any
 * unambiguous prefix of a long option, so a prefix of one of these counts too.
 */
const GIT_REFUSED = ["output", "ext-diff", "textconv", "show-signature", "open-files-in-pager", "exec-path"];

export interface Judged {
  /** Every part that would run, nested ones included. */
  commands: SimpleCommand[];
  /** For each part: is it read-only? */
  readOnly: boolean[];
}

/** The command's parts and which of them are read-only; undefined when it cannot be parsed. */
export function judge(command: string): Judged | undefined {
  let commands: SimpleCommand[];
  try {
    commands = parseShell(command);
  } catch (error) {
    if (error instanceof ShellParseError) return undefined;
    throw error;
  }
  return { commands, readOnly: commands.map(isReadOnlyPart) };
}

/** True when every part of the command is read-only (and there is at least one). */
export function isReadOnlyCommand(command: string): boolean {
  const judged = judge(command);
  return judged !== undefined && judged.commands.length > 0 && judged.readOnly.every(Boolean);
}

/** A redirection that may write a file: anything but `/dev/null` and a file descriptor's duplication. */
export function writesFile(cmd: SimpleCommand): boolean {
  return cmd.redirects.some(({ op, target }) => {
    if (op === "<" || op === "<<<") return false;
    if ((op === "<&" || op === ">&") && target.literal && /^([0-9]+|-)$/.test(target.text)) return false;
    if (op === "<&") return false;
    return !(target.literal && target.text === "/dev/null");
  });
}

/**
 * An input redirection bash turns into a network connection (`< /dev/tcp/host/port`, whose
 * host name alone can carry data out), or whose file is not known before it runs.
 */
export function readsNetwork(cmd: SimpleCommand): boolean {
  return cmd.redirects.some(({ op, target }) => (op === "<" || op === "<&") && (!target.literal || /^\/dev\/(tcp|udp)\//.test(target.text)));
}

export function isReadOnlyPart(cmd: SimpleCommand): boolean {
  if (cmd.assignments.length > 0 || writesFile(cmd) || readsNetwork(cmd)) return false;
  const [program, ...args] = cmd.words;
  if (!program) return cmd.redirects.length > 0; // redirections alone (after a subshell): harmless once none writes
  if (!program.literal) return false;
  if (ANY_ARGUMENTS.has(program.text)) return true;
  if (program.text === "find") return args.every((w) => (w.literal ? !FIND_WRITES.test(w.text) : !w.mayBeOption));
  if (program.text === "rg") return rgReadOnly(args);
  if (program.text === "git") return gitInvocation(cmd) !== undefined;
  return false;
}

function rgReadOnly(args: Word[]): boolean {
  for (const w of args) {
    if (!w.literal) {
      if (w.mayBeOption) return false;
      continue;
    }
    if (w.text === "--") return true;
    if (w.text.startsWith("--") && RG_RUNS.has(w.text.slice(2).split("=")[0]!)) return false;
    if (/^-[^-]/.test(w.text) && w.text.includes("z")) return false;
  }
  return true;
}

interface GitInvocation {
  /** status, diff, log or show. */
  sub: Word;
  /** The directory of `git -C <dir>`. */
  dir?: Word;
}

/**
 * `git [--no-pager] [-C <dir>] status|diff|log|show …` without `-c`, an
 * option that writes a file or runs an external program, or an argument that
 * could expand to such an option; undefined for anything else.
 */
export function gitInvocation(cmd: SimpleCommand): GitInvocation | undefined {
  const args = cmd.words.slice(1);
  let i = 0;
  let dir: Word | undefined;
  for (; i < args.length && args[i]!.literal && args[i]!.text.startsWith("-"); i++) {
    const option = args[i]!.text;
    if (option === "--no-pager") continue;
    if (option === "-C" && !dir && args[i + 1]?.literal) {
      dir = args[++i];
      continue;
    }
    return undefined;
  }
  const sub = args[i];
  if (!sub?.literal || !GIT_SUBCOMMANDS.has(sub.text)) return undefined;
  const refused = sub.text === "status" ? [...GIT_REFUSED, "verbose"] : GIT_REFUSED;
  for (const w of args.slice(i + 1)) {
    if (!w.literal) {
      if (w.mayBeOption) return undefined;
      continue;
    }
    const t = w.text;
    if (t === "--") break;
    if (t.startsWith("--")) {
      const name = t.slice(2).split("=")[0]!;
      if (refused.some((r) => r.startsWith(name))) return undefined;
    } else if (t.startsWith("-") && t.length > 1) {
      if (t === "-c") return undefined;
      if (sub.text === "status" && t.includes("v")) return undefined; // -v shows a diff, through textconv
    }
  }
  return { sub, ...(dir ? { dir } : {}) };
}

/** Environment for a read-only git: no lazy fetch of missing objects in a partial clone, and no transport at all. */
const GIT_ENV = "GIT_NO_LAZY_FETCH=1 GIT_ALLOW_PROTOCOL=none";
/**
 * Configuration given on git's command line, which beats every file: no
 * fsmonitor hook, no hooks, no external diff, no signature checks, and the
 * signature programs by their standard names rather than a repository's.
 */
const GIT_CONFIG = [
  "core.fsmonitor=",
  "core.hooksPath=/dev/null",
  "diff.external=",
  "log.showSignature=false",
  "gpg.program=gpg",
  "gpg.openpgp.program=gpg",
  "gpg.x509.program=gpgsm",
  "gpg.ssh.program=ssh-keygen",
];

/**
 * The command as it runs without the person having seen it: each read-only
 * git part rewritten to `GIT_NO_LAZY_FETCH=1 GIT_ALLOW_PROTOCOL=none git
 * --no-pager --no-optional-locks -c … [-C dir] <sub> [--no-ext-diff
 * --no-textconv]`, with the clean/smudge/process filters the repository's own
 * configuration defines emptied (a filter runs on `git status` and `git diff`).
 * Undefined when that cannot be done safely (a filter name git's -c cannot
 * carry); the command must then be asked about.
 */
export function guardGit(command: string, judged: Judged, cwd: string, env: Record<string, string | undefined> = process.env): string | undefined {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const [n, cmd] of judged.commands.entries()) {
    if (!judged.readOnly[n] || cmd.words[0]?.text !== "git") continue;
    const git = gitInvocation(cmd)!;
    const filters = repositoryFilters(git.dir ? resolve(cwd, git.dir.text) : cwd, env);
    if (!filters) return undefined;
    const config = [...GIT_CONFIG, ...filters.flatMap((name) => ["clean=", "smudge=", "process=", "required=false"].map((key) => `filter.${name}.${key}`))];
    const words = [
      GIT_ENV,
      "git --no-pager --no-optional-locks",
      ...config.map((c) => `-c ${shellQuote(c)}`),
      ...(git.dir ? [`-C ${command.slice(git.dir.start, git.dir.end)}`] : []),
      git.sub.text,
      ...(git.sub.text === "status" ? [] : ["--no-ext-diff --no-textconv"]),
    ];
    edits.push({ start: cmd.words[0]!.start, end: git.sub.end, text: words.join(" ") });
  }
  edits.sort((a, b) => a.start - b.start);
  if (edits.some((e, i) => i > 0 && e.start < edits[i - 1]!.end)) return undefined;
  let out = command;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/**
 * The filter drivers the repository's own configuration (its .git/config,
 * config.worktree, and what they include) defines, by name. The person's
 * global and system filters (git-lfs, typically) are theirs and stay on.
 * Undefined when a name cannot be passed to `git -c` (it holds `=`).
 */
export function repositoryFilters(dir: string, env: Record<string, string | undefined> = process.env): string[] | undefined {
  let out: string;
  try {
    const probe = Bun.spawnSync(["git", "config", "--show-scope", "--null", "--name-only", "--get-regexp", "^filter\\."], {
      cwd: dir,
      env: env as Record<string, string>,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
    });
    // 1: no such setting. Anything else (no git, a broken config): git itself will refuse to run there.
    if (probe.exitCode !== 0) return [];
    out = probe.stdout.toString();
  } catch {
    return []; // the directory does not exist: git -C fails before it reads anything
  }
  const fields = out.split("\0");
  const names = new Set<string>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [scope, key] = [fields[i]!, fields[i + 1]!];
    if (scope !== "local" && scope !== "worktree") continue;
    const name = key.slice("filter.".length, key.lastIndexOf("."));
    if (name.includes("=")) return undefined;
    names.add(name);
  }
  return [...names];
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./=:@%+-]*$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}
