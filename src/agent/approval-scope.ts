// What answering "always" to a bash command allows until awl exits. The scope
// the person sees must reach no further than what they approved, so it is one
// of two things:
//
// - program + subcommand (`git add`, `npm run`, `cargo test`): offered when
//   every part of the command that is not read-only is a subcommand listed
//   below, and covering a later part with any arguments, except arguments
//   that make it delete or overwrite wholesale or run a program the person did
//   not see (`git push --force`, `npm run --script-shell=…`), which are asked
//   about. Never program + options: `git -C x add` or `npm --prefix x test`
//   has no subcommand scope.
// - the exact command, for everything else (`rm -rf d1`, `mv a b`, `make`):
//   only the same text runs unasked later. Offered only when no word of it
//   expands at run time (`$X`, `$(…)`, a glob), since the same text could then
//   do something else.
//
// A command that cannot be parsed gets no "always" at all.

import { readsNetwork, writesFile, type Judged } from "./read-only";
import type { SimpleCommand, Word } from "./shell-command";

export type AlwaysScope = { kind: "subcommands"; keys: string[] } | { kind: "exact"; command: string };

/** An argument refused in a subcommand scope, given as a test on its text. */
type Refuses = (arg: string) => boolean;

/** The long option's name without dashes or value (`--force=x` -> force), or undefined for anything else. */
const longName = (arg: string) => (arg.startsWith("--") && arg.length > 2 ? arg.slice(2).split("=")[0]! : undefined);
/** git takes any unambiguous prefix of a long option (`--forc`): a prefix of a refused one is refused too. */
const gitLong = (names: string[]) => (arg: string) => {
  const name = longName(arg);
  return name !== undefined && names.some((n) => n.startsWith(name));
};
/** Short options, alone or in a cluster (`-fu`), that are refused. */
const shortIn = (letters: string) => (arg: string) => /^-[^-]/.test(arg) && [...arg.slice(1)].some((ch) => letters.includes(ch));
const any = (...tests: Refuses[]): Refuses => (arg) => tests.some((t) => t(arg));

/** git: forcing, deleting, mirroring, pruning, aborting a merge, another program for the transport, a refspec that forces (+) or deletes (:x). */
const GIT_REFUSED = any(
  gitLong(["force", "force-with-lease", "force-if-includes", "delete", "mirror", "prune", "prune-tags", "upload-pack", "receive-pack", "exec", "discard-changes", "orphan", "recurse-submodules", "abort"]),
  shortIn("fdDCp"),
  (arg) => /^[+:]/.test(arg),
);
/** npm, pnpm, yarn: an option before `--` sets their configuration, which can name the shell scripts run in. */
const PACKAGE_MANAGER_REFUSED: Refuses = (arg) => arg.startsWith("-");
/** Options that load code or configuration the person did not see, or write elsewhere. */
const BUN_REFUSED = any(gitLong(["preload", "config"]), shortIn("rc"));
const CARGO_REFUSED = any((arg) => ["config", "manifest-path"].includes(longName(arg) ?? ""), (arg) => arg.startsWith("-Z"));
const GO_REFUSED: Refuses = (arg) => /^--?(exec|toolexec|o|overlay|modfile|C)(=|$)/.test(arg);

/** Programs with real subcommands, the subcommands an "always" may cover, and the arguments it never covers. */
const SUBCOMMANDS: Record<string, { subcommands: readonly string[]; refuses: Refuses; optionsEnd?: boolean }> = {
  git: { subcommands: ["add", "commit", "fetch", "pull", "push", "switch", "merge"], refuses: GIT_REFUSED },
  npm: { subcommands: ["test", "run", "run-script"], refuses: PACKAGE_MANAGER_REFUSED, optionsEnd: true },
  pnpm: { subcommands: ["test", "run"], refuses: PACKAGE_MANAGER_REFUSED, optionsEnd: true },
  yarn: { subcommands: ["test", "run"], refuses: PACKAGE_MANAGER_REFUSED, optionsEnd: true },
  bun: { subcommands: ["test"], refuses: BUN_REFUSED },
  cargo: { subcommands: ["build", "check", "test", "clippy", "fmt", "doc", "run"], refuses: CARGO_REFUSED },
  go: { subcommands: ["build", "test", "vet"], refuses: GO_REFUSED },
};

/** The programs whose subcommands awl knows (a saved `Bash(git push:*)` covers what "always" would for them, no more). */
export const SUBCOMMAND_PROGRAMS: ReadonlySet<string> = new Set(Object.keys(SUBCOMMANDS));

/** The subcommand scope of one part (`git add`), or undefined when it has none. */
export function subcommandKey(part: SimpleCommand): string | undefined {
  const [program, sub, ...args] = part.words;
  if (!program?.literal || !sub?.literal || part.assignments.length > 0 || writesFile(part) || readsNetwork(part)) return undefined;
  const table = SUBCOMMANDS[program.text];
  if (!table?.subcommands.includes(sub.text)) return undefined;
  let optionsEnded = false;
  for (const arg of args) {
    // An argument that could expand to an option could be a refused one.
    if (!arg.literal && arg.mayBeOption) return undefined;
    if (!arg.literal) continue;
    if (table.optionsEnd && arg.text === "--") optionsEnded = true;
    if (!optionsEnded && table.refuses(arg.text)) return undefined;
  }
  return `${program.text} ${sub.text}`;
}

/** What "always" would allow for this command, or undefined when nothing can be offered. */
export function alwaysScope(command: string, judged: Judged | undefined): AlwaysScope | undefined {
  if (!judged || judged.commands.length === 0) return undefined;
  const acting = judged.commands.filter((_, i) => !judged.readOnly[i]);
  const keys = acting.map(subcommandKey);
  if (keys.every((k) => k !== undefined)) return { kind: "subcommands", keys: [...new Set(keys as string[])] };
  return judged.commands.every(fixed) ? { kind: "exact", command } : undefined;
}

/** Is every word of the part exactly the text written (no expansion that could change between runs)? */
function fixed(part: SimpleCommand): boolean {
  const words: Word[] = [...part.assignments, ...part.words, ...part.redirects.map((r) => r.target)];
  return words.every((w) => w.literal);
}

/** How the question names a scope: `git add …` (with any arguments), or the exact command. */
export function describeScope(scope: AlwaysScope): string[] {
  return scope.kind === "subcommands" ? scope.keys.map((k) => `${k} …`) : ["only this exact command"];
}
