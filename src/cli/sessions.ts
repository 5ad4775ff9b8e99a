// `awl sessions`: this directory's sessions. Plain lines when piped (or
// --plain), oldest first; JSON with --json; on a terminal, a picker, most
// recently active first, that resumes the choice: its first screen is drawn
// from the few sessions started last, and the whole list fills in after.
// Listing judges every line as open does (src/session/store/listing.ts), so what it
// calls fine opens, and what it calls damaged names the line open refuses.

import { isatty } from "node:tty";
import { newestSessions, listSessions, shortIdLength, type SessionInfo, movedSessions } from "../session/store";
import { localDateTime, oneLine } from "../ui/render/format";
import { sessionIdLength } from "../ui/session/session-id";
import { safeText } from "../ui/render/safe-text";
import type { Args } from "./args";

/** Sessions read for the picker's first screen: its rows (MAX_ITEMS in ui/session/session-picker.ts). */
const FIRST_SCREEN = 12;

export async function sessions(args: Args, cwd: string): Promise<number> {
  switch (args.action) {
    case "rm":
    case "restore":
    case "prune":
    case "trash":
    case "purge":
      return (await import("./sessions-clean"))[args.action](args, cwd);
    case "du":
      return (await import("./sessions-du")).du(args, cwd);
    case "stats":
      return (await import("./sessions-stats")).stats(args, cwd);
    case "search":
      return (await import("./sessions-search")).search(args, cwd);
  }
  if (!args.json && !args.plain && isatty(1) && isatty(0)) return pickAndResume(args, cwd);
  const list = await listSessions(cwd, process.env, movedSessions(cwd));
  // console.log, not process.stdout: see main.ts (start-up cost).
  if (args.json) {
    console.log(JSON.stringify(list, null, 2));
    return 0;
  }
  if (list.length === 0) {
    console.log(`No sessions in ${cwd} yet. Start one with: awl`);
    return 0;
  }
  // The same prefixes as the banner, /session and the exit hint show (ui/session/session-id.ts).
  const length = sessionIdLength(cwd, list.map((s) => s.id));
  const listed = new Set(list.map((s) => s.id));
  console.log(list.map((s) => plainLine(s, length, cwd, listed)).join("\n"));
  return 0;
}

/** The picker: its first screen from the sessions started last, then the whole list (moved sessions too) fills in. */
async function pickAndResume(args: Args, cwd: string): Promise<number> {
  const picked = await pickFast(cwd, {});
  if (picked.none) console.log(`No sessions in ${cwd} yet. Start one with: awl`);
  if (!picked.id) return 0;
  const { chat } = await import("./chat");
  return chat({ ...args, resume: picked.id }, cwd);
}

/**
 * The session picker on a terminal, as `awl sessions` and /resume open it: the
 * first screen from the files started last (no stat of every file), then the
 * whole list fills in. `none`: nothing to pick (besides `current`).
 */
export async function pickFast(cwd: string, options: { current?: string; escape?: string }): Promise<{ id?: string; none: boolean }> {
  const { sessions: first, ids } = newestSessions(cwd, FIRST_SCREEN);
  const whole = (signal?: AbortSignal) => listSessions(cwd, process.env, movedSessions(cwd), signal);
  const other = (list: SessionInfo[]) => list.some((s) => s.id !== options.current);
  // None here: perhaps some from a moved checkout, which only the whole list finds.
  const all = other(first) ? undefined : await whole();
  if (all && !other(all)) return { none: true };
  const { pickSession } = await import("../ui/session/session-picker");
  // The ids of file names, as the banner's (sessionIdLength, without reading the folder again); a moved session's may need more, rarely: ids are random.
  const length = shortIdLength([...ids, ...(all ?? []).map((s) => s.id), ...(options.current ? [options.current] : [])]);
  const rest = async (signal: AbortSignal) => {
    await Bun.sleep(0); // the first screen is out before the whole list is read
    return whole(signal);
  };
  const id = await pickSession(all ?? first, length, { ...options, ...(all ? {} : { rest }) });
  return { id, none: false };
}

/**
 * The spec's line: `019dc5ba  2026-04-25 17:40  14 messages`, and what else is worth knowing: `, 2 compactions`,
 * then the title, and for a session of this project started at another path (a moved checkout), that path.
 */
export function plainLine(s: SessionInfo, length: number, cwd: string, listed: ReadonlySet<string>): string {
  const title = s.title && !s.damaged ? `  ${oneLine(s.title, 80)}` : "";
  const from = s.cwd !== cwd ? `  (from ${oneLine(s.cwd, 80)})` : "";
  return `${s.id.slice(0, length)}  ${localDateTime(s.created)}  ${contents(s, length, listed)}${title}${from}`;
}

/** `listed`: the ids of the rows, whose prefixes of `length` tell them apart; a fork's parent that is not among them is named whole. */
function contents(s: SessionInfo, length: number, listed: ReadonlySet<string>): string {
  if (s.damaged) return `damaged: ${s.damaged}`;
  const parts = [`${s.messageCount} message${s.messageCount === 1 ? "" : "s"}`];
  if (s.compactions) parts.push(`${s.compactions} compaction${s.compactions === 1 ? "" : "s"}`);
  if (s.forkedFrom) parts.push(`fork of ${safeText(listed.has(s.forkedFrom.session) ? s.forkedFrom.session.slice(0, length) : s.forkedFrom.session)} at ${safeText(s.forkedFrom.entry)}`);
  if (s.damagedBeforeCompaction) parts.push(`damaged before the latest compaction (resumable): ${s.damagedBeforeCompaction}`);
  return parts.join(", ");
}
