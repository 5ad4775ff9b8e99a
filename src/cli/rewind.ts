// `awl rewind [ID] --to ENTRY [--files | --conversation] [--dry-run] [--yes]
// [--force]`: the session goes back to its state at ENTRY (a message,
// compaction or branch summary): the files return to their state after ENTRY
// and the conversation goes on from it. A prompt as ENTRY means the moment
// before it was sent: the prompt is left out and printed, to be sent again or
// changed. `--undo` goes back to where the latest rewind (or move) left,
// which undoes it; again, it redoes it. Nothing is removed: the files' own
// file_change entries and one `leaf` entry are appended, so going back to the
// entry before the rewind undoes it. A file changed since awl last changed it
// is refused unless --force: then nothing is changed (exit 1), so the same
// command with --force does what the refusal said. Without a terminal to
// confirm on, --yes is needed.

import { isatty } from "node:tty";
import { confirm, isCancel } from "@clack/prompts";
import { previewScope, rewindTo, type RewindScope } from "../agent/rewind";
import type { RewindFiles } from "../agent/rewind-files";
import { UsageError } from "../errors";
import { SessionManager } from "../session";
import { mostRecentSession, printedId } from "../session/store";
import { goBackTarget, promptWords, readSessionTree, readWholeLog, rewindPoints, type SessionTree } from "../session/tree";
import { colorsFor } from "../ui/render/colors";
import { localDateTime, oneLine } from "../ui/render/format";
import { goesToText, refusedPaths, rewindPreview } from "../ui/render/rewind-preview";
import { safeText } from "../ui/render/safe-text";
import type { Args } from "./args";
import { atTerminal, pathForId } from "./open-session";

const WHAT: Record<RewindScope, string> = { both: "the conversation and the files", conversation: "the conversation only", files: "the files only" };

export async function rewind(args: Args, cwd: string): Promise<number> {
  const path = args.session === undefined ? mostRecentSession(cwd) : await pathForId(cwd, args.session, { listedBy: "awl sessions", pick: atTerminal() });
  if (!path) throw new UsageError("no session in this directory to rewind (awl sessions lists them)");
  const tree = readSessionTree(path);
  const scope: RewindScope = args.only ?? "both";
  const c = colorsFor(process.stdout);
  const short = printedId(cwd, tree.header.id); // as --resume finds it from here
  if (!args.dryRun && !args.yes && (!isatty(0) || !isatty(1))) throw new UsageError("rewind asks before it changes a session; without a terminal, add --yes");
  const session = await SessionManager.open(path);
  try {
    const goal = args.undo ? latestRewind(session, short) : toEntry(tree, args.to!, path, scope === "files");
    const what = `session ${short} ${goal.where}, ${WHAT[scope]}`;
    const o = { scope, force: args.force };
    const preview = await previewScope(session, goal.targetId, o);
    const lines = scope === "conversation" ? [] : rewindPreview(preview, cwd, c);
    if (args.dryRun) {
      console.log([`Would rewind ${what} (--dry-run: nothing was changed).`, ...lines].join("\n"));
      return 0;
    }
    if (preview.refused) return refusedAll(`Not rewinding ${what}:`, lines, preview);
    if (!args.yes) {
      console.log([`Rewinding ${what}:`, ...lines].join("\n"));
      const answer = await confirm({ message: "Rewind?", initialValue: true });
      if (isCancel(answer) || !answer) return 1;
    }
    const done = await rewindTo(session, goal.targetId, o);
    // Changed between the question and the answer: still nothing written.
    if (done.refused) return refusedAll(`Not rewinding ${what}:`, rewindPreview(done, cwd, c), done);
    const after = scope === "files" ? "" : ` awl --resume ${short} goes on from there.`;
    const leftOut = goal.leftOut !== undefined && scope !== "files" ? [`The prompt left out, to send again or change:`, ...goal.leftOut.split("\n").map((line) => `  ${safeText(line)}`)] : [];
    console.log([`Rewound ${what}.${after}`, ...(scope === "conversation" ? [] : rewindPreview(done, cwd, c)), ...leftOut].join("\n"));
    return 0;
  } finally {
    session.close();
  }
}

/** Where a rewind goes: the entry, how the report names it, and the prompt it leaves out. */
interface Goal {
  targetId: string;
  where: string;
  leftOut?: string;
}

/** `--to ENTRY`: the entry, or for a prompt the moment before it (the prompt's words read whole, to be printed). */
function toEntry(tree: SessionTree, to: string, path: string, filesOnly: boolean): Goal {
  const { target, leftOut } = goBackTarget(tree, to, filesOnly);
  if (leftOut) {
    const words = promptWords(path, leftOut);
    return { targetId: target.id, where: `back to before the prompt ${leftOut.id} (${safeText(oneLine(words, 60))})`, leftOut: words };
  }
  return { targetId: target.id, where: `back to ${target.id} (${target.kind === "message" ? target.role : target.kind}: ${safeText(oneLine(target.text, 60))})` };
}

/** `--undo`: back to where the latest rewind or move on this path left (an undo is a rewind too: a second one redoes). */
function latestRewind(session: SessionManager, short: string): Goal {
  const point = rewindPoints(readWholeLog(session.sessionFile), session.getLeafId()).find((p) => p.kind === "rewind");
  if (!point) throw new UsageError(`session ${short} has no rewind to undo`);
  return { targetId: point.targetId, where: `undoing its rewind of ${localDateTime(point.time)} (${goesToText(point)})` };
}

/** A rewind refused whole: what it would have done, and the one line saying what --force would overwrite. */
function refusedAll(heading: string, lines: string[], files: RewindFiles): number {
  const refused = refusedPaths(files);
  console.log([heading, ...lines].join("\n"));
  const [one, them] = refused.length === 1 ? ["1 file", "it"] : [`${refused.length} files`, "them"];
  console.error(`awl: nothing was changed: ${one} changed since awl last changed ${them}; --force overwrites ${them}`);
  return 1;
}
