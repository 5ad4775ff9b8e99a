// `awl rewind [ID] --to ENTRY [--conversation] [--dry-run] [--yes]`: the
// session's conversation goes back to ENTRY (a message, compaction or branch
// summary): one `leaf` entry is appended, nothing is removed, and the next
// `awl --resume` goes on from ENTRY. Restoring files is not in this version:
// only the conversation moves, and awl says so. Without a terminal to confirm
// on, --yes is needed.

import { isatty } from "node:tty";
import { confirm, isCancel } from "@clack/prompts";
import { UsageError } from "../errors";
import { SessionManager } from "../session";
import { mostRecentSession } from "../session/recent";
import { findTarget, readSessionTree } from "../session/tree";
import { oneLine } from "../ui/render/format";
import { safeText } from "../ui/render/safe-text";
import type { Args } from "./args";
import { pathForId } from "./open-session";

export async function rewind(args: Args, cwd: string): Promise<number> {
  const path = args.session === undefined ? mostRecentSession(cwd) : await pathForId(cwd, args.session, "awl sessions");
  if (!path) throw new UsageError("no session in this directory to rewind (awl sessions lists them)");
  const tree = readSessionTree(path);
  const target = findTarget(tree, args.to!);
  const what = `${tree.header.id.slice(0, 8)} back to ${target.id} (${target.kind === "message" ? target.role : target.kind}: ${safeText(oneLine(target.text, 60))})`;
  const note = "only the conversation goes back: restoring files is not in this version of awl";
  if (args.dryRun) {
    console.log(`Would move session ${what}; ${note}.`);
    return 0;
  }
  if (!args.yes) {
    if (!isatty(0) || !isatty(1)) throw new UsageError("awl rewind asks before it moves a session; without a terminal, add --yes");
    const answer = await confirm({ message: `Move session ${what}? (${note})`, initialValue: true });
    if (isCancel(answer) || !answer) return 1;
  }
  const session = await SessionManager.open(path);
  try {
    session.moveLeaf(target.id);
  } finally {
    session.close();
  }
  console.log(`Moved session ${what}; ${note}. awl --resume ${tree.header.id.slice(0, 8)} goes on from there.`);
  return 0;
}
