// What `awl sessions <action>` and `awl export` accept: which words and options
// go with which action, checked once the whole command line is read, so that a
// misplaced option is a usage error rather than ignored.
import { UsageError } from "../errors";
import type { Args } from "./args";

export const SESSION_ACTIONS = ["rm", "restore", "prune", "trash", "purge", "du", "stats", "search"] as const;
export type SessionAction = (typeof SESSION_ACTIONS)[number];

/** Options each form takes (beyond --json/--plain, which listing and the reports share). */
const TAKES: Record<SessionAction | "list" | "export" | "chat", readonly string[]> = {
  list: [],
  rm: ["--all"],
  restore: ["--all"],
  prune: ["--older-than", "--dry-run", "--all"],
  trash: ["--all"],
  purge: ["--older-than", "--dry-run", "--all"],
  du: [],
  stats: ["--since", "--all"],
  search: ["--all"],
  export: ["--md", "--html", "--jsonl", "-o"],
  chat: [],
};

export function checkSessionsArgs(args: Args, command: "sessions" | "export" | "chat", hint: string): void {
  const form = command === "sessions" ? (args.action ?? "list") : command;
  const name = command === "chat" ? "" : form === "export" ? "awl export" : form === "list" ? "awl sessions" : `awl sessions ${form}`;
  const given: [string, boolean][] = [
    ["--older-than", args.olderThan !== undefined],
    ["--since", args.since !== undefined],
    ["--dry-run", args.dryRun],
    ["--all", args.all],
    ["--md", args.format !== undefined],
    ["-o", args.output !== undefined],
  ];
  for (const [option, present] of given) {
    if (present && !TAKES[form].includes(option)) {
      const label = option === "--md" ? `--${args.format}` : option;
      throw new UsageError(command === "chat" ? `${label} belongs to awl sessions and awl export ${hint}` : `${name} takes no ${label} ${hint}`);
    }
  }
  if (command === "chat") return;
  const wanted = form === "rm" || form === "restore" || form === "search" ? "some" : form === "export" ? "one" : "none";
  if (wanted === "none" && args.targets.length) throw new UsageError(`unexpected argument '${args.targets[0]}': ${name} takes none ${hint}`);
  if (wanted === "some" && !args.targets.join("").trim()) throw new UsageError(`${name} needs ${form === "search" ? "the text to look for" : "a session id"} ${hint}`);
  if (wanted === "one" && args.targets.length !== 1) throw new UsageError(`${name} needs one session id ${hint}`);
  if (form === "prune" && args.olderThan === undefined) throw new UsageError(`awl sessions prune needs --older-than, e.g. --older-than 90d ${hint}`);
  if (form === "export" && args.json) throw new UsageError(`awl export takes no --json; use --jsonl for the raw log ${hint}`);
}
