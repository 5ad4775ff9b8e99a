// Which bash commands only look: the short list that runs without asking
// (`--approve ask`) and is all `--approve read-only` lets through. A command
// is judged part by part (shell-words.ts); every part must be on the list,
// with no leading assignment and no redirection that writes a file, or the
// whole command is not read-only. A command that cannot be parsed, or that
// puts a job in the background (`&`), is not read-only either.
//
// git is on the list only with the programs a repository's configuration can
// make it run switched off, and the command that runs must really have them
// off: guardGit (git-guard.ts) rewrites each read-only git part as it will run.

import { argumentsAllowed, GIT_TABLES, RG_TABLE } from "./option-tables";
import type { SimpleCommand, Word } from "./shell-command";
import { parseCommandLine, ShellParseError } from "./shell-words";

/** The programs that may run without asking, with the checks of their arguments below. */
export const READ_ONLY_PROGRAMS = ["ls", "cat", "grep", "rg", "find", "git", "pwd", "head", "tail", "wc"] as const;

const ANY_ARGUMENTS = new Set(["ls", "cat", "grep", "pwd", "head", "tail", "wc"]);
/** find's actions that run a program or write: -exec, -execdir, -ok, -okdir, -delete, -fprint, -fprint0, -fprintf, -fls. */
const FIND_WRITES = /^-(exec|execdir|ok|okdir|delete|fprint.*|fls)$/;

export interface Judged {
  /** Every part that would run, nested ones included. */
  commands: SimpleCommand[];
  /** For each part: is it read-only? */
  readOnly: boolean[];
}

/** The command's parts and which of them are read-only; undefined when it cannot be parsed. */
export function judge(command: string): Judged | undefined {
  let line: ReturnType<typeof parseCommandLine>;
  try {
    line = parseCommandLine(command);
  } catch (error) {
    if (error instanceof ShellParseError) return undefined;
    throw error;
  }
  // A job put in the background (`tail -f x &`) outlives what the person was told runs: none of it is read-only.
  const { commands, background } = line;
  return { commands, readOnly: commands.map((part) => !background && isReadOnlyPart(part)) };
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
  if (program.text === "rg") return argumentsAllowed(args, RG_TABLE);
  if (program.text === "git") return gitInvocation(cmd) !== undefined;
  return false;
}

interface GitInvocation {
  /** status, diff, log or show. */
  sub: Word;
  /** The directory of `git -C <dir>`. */
  dir?: Word;
}

/**
 * `git [--no-pager] [-C <dir>] status|diff|log|show …` without `-c` before the
 * subcommand, an option that writes a file, runs an external program or looks
 * into submodules (option-tables.ts), or an argument that could expand to such
 * an option; undefined for anything else.
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
  if (!sub?.literal || !Object.hasOwn(GIT_TABLES, sub.text)) return undefined;
  if (!argumentsAllowed(args.slice(i + 1), GIT_TABLES[sub.text]!)) return undefined;
  return { sub, ...(dir ? { dir } : {}) };
}
