// `awl sessions`: this directory's sessions. Plain lines when piped (or
// --plain), oldest first; JSON with --json; on a terminal, a picker, most
// recently active first, that resumes the choice.
// Listing judges every line as open does (src/session/listing.ts), so what it
// calls fine opens, and what it calls damaged names the line open refuses.

import { isatty } from "node:tty";
import { listSessions, type SessionInfo } from "../session/listing";
import { movedSessions } from "../session/moved";
import { localDateTime, oneLine } from "../ui/render/format";
import { sessionIdLength } from "../ui/session/session-id";
import type { Args } from "./args";

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
  if (args.plain || !isatty(1) || !isatty(0)) {
    console.log(list.map((s) => plainLine(s, length, cwd)).join("\n"));
    return 0;
  }
  const { pickSession } = await import("../ui/session/session-picker");
  const picked = await pickSession(list, length);
  if (!picked) return 0;
  const { chat } = await import("./chat");
  return chat({ ...args, resume: picked }, cwd);
}

/**
 * The spec's line: `019dc5ba  2026-04-25 17:40  14 messages`, and what else is worth knowing: `, 2 compactions`,
 * then the title, and for a session of this project started at another path (a moved checkout), that path.
 */
export function plainLine(s: SessionInfo, length: number, cwd: string): string {
  const title = s.title && !s.damaged ? `  ${oneLine(s.title, 80)}` : "";
  const from = s.cwd !== cwd ? `  (from ${oneLine(s.cwd, 80)})` : "";
  return `${s.id.slice(0, length)}  ${localDateTime(s.created)}  ${contents(s)}${title}${from}`;
}

function contents(s: SessionInfo): string {
  if (s.damaged) return `damaged: ${s.damaged}`;
  const parts = [`${s.messageCount} message${s.messageCount === 1 ? "" : "s"}`];
  if (s.compactions) parts.push(`${s.compactions} compaction${s.compactions === 1 ? "" : "s"}`);
  if (s.damagedBeforeCompaction) parts.push(`damaged before the latest compaction (resumable): ${s.damagedBeforeCompaction}`);
  return parts.join(", ");
}
