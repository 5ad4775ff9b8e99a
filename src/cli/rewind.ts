// `awl rewind [ID] --to ENTRY [--files | --conversation] [--dry-run] [--yes]
// [--force]`: the session goes back to its state at ENTRY (a message,
// compaction or branch summary): the files return to their state after ENTRY
// and the conversation goes on from it. Nothing is removed: the files' own
// file_change entries and one `leaf` entry are appended, so going back to the
// entry before the rewind undoes it. A file changed since awl last changed it
// is refused (exit 1, after the rest are restored) unless --force. Without a
// terminal to confirm on, --yes is needed.

import { isatty } from "node:tty";
import { confirm, isCancel } from "@clack/prompts";
import { previewScope, rewindTo, type RewindScope } from "../agent/rewind";
import { UsageError } from "../errors";
import { SessionManager } from "../session";
import { mostRecentSession, printedId } from "../session/store";
import { findTarget, readSessionTree } from "../session/tree";
import { colorsFor } from "../ui/render/colors";
import { oneLine } from "../ui/render/format";
import { refusedPaths, rewindPreview } from "../ui/render/rewind-preview";
import { safeText } from "../ui/render/safe-text";
import type { Args } from "./args";
import { atTerminal, pathForId } from "./open-session";

const WHAT: Record<RewindScope, string> = { both: "the conversation and the files", conversation: "the conversation only", files: "the files only" };

export async function rewind(args: Args, cwd: string): Promise<number> {
  const path = args.session === undefined ? mostRecentSession(cwd) : await pathForId(cwd, args.session, { listedBy: "awl sessions", pick: atTerminal() });
  if (!path) throw new UsageError("no session in this directory to rewind (awl sessions lists them)");
  const tree = readSessionTree(path);
  const target = findTarget(tree, args.to!);
  const scope: RewindScope = args.only ?? "both";
  const c = colorsFor(process.stdout);
  const short = printedId(cwd, tree.header.id); // as --resume finds it from here
  const what = `session ${short} back to ${target.id} (${target.kind === "message" ? target.role : target.kind}: ${safeText(oneLine(target.text, 60))}), ${WHAT[scope]}`;
  if (!args.dryRun && !args.yes && (!isatty(0) || !isatty(1))) throw new UsageError("rewind asks before it changes a session; without a terminal, add --yes");
  const session = await SessionManager.open(path);
  try {
    const o = { scope, force: args.force };
    const preview = await previewScope(session, target.id, o);
    const lines = scope === "conversation" ? [] : rewindPreview(preview, cwd, c);
    if (args.dryRun) {
      console.log([`Would rewind ${what} (--dry-run: nothing was changed).`, ...lines].join("\n"));
      return 0;
    }
    if (!args.yes) {
      console.log([`Rewinding ${what}:`, ...lines].join("\n"));
      const answer = await confirm({ message: "Rewind?", initialValue: true });
      if (isCancel(answer) || !answer) return 1;
    }
    const done = await rewindTo(session, target.id, o);
    const refused = refusedPaths(done);
    const after = scope === "files" ? "" : ` awl --resume ${short} goes on from there.`;
    console.log([`Rewound ${what}.${after}`, ...(scope === "conversation" ? [] : rewindPreview(done, cwd, c))].join("\n"));
    if (!refused.length) return 0;
    console.error(`awl: ${refused.length === 1 ? "1 file was" : `${refused.length} files were`} left alone because ${refused.length === 1 ? "it" : "they"} changed since awl last changed ${refused.length === 1 ? "it" : "them"}; --force overwrites them`);
    return 1;
  } finally {
    session.close();
  }
}
