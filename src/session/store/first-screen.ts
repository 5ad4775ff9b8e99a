// What the session picker shows before it has read every session: the
// sessions started last, found from the file names alone (a name begins with
// its start time, so the sorted names are in the order the sessions began),
// read whole (they are few). Finding the files modified last instead meant a
// stat of every file: 50 ms over 10,000 sessions (5 us each, measured), half
// the first screen's budget. A session started long ago and active since
// joins the list, ranked as --resume ranks it, when the whole list fills in a
// moment later.
import { join } from "node:path";
import { describeSessions, sessionFiles, type SessionInfo } from "./listing";
import { encodeCwd, idFromFileName, sessionRoot } from "../log";

type Env = Record<string, string | undefined>;

export interface FirstScreen {
  /** Up to `count` sessions of `cwd`, the ones started last. */
  sessions: SessionInfo[];
  /**
   * The ids of every session file's name here, in the names' order, and of the sessions read whose header says
   * otherwise (a file renamed by hand): the short ids are told apart among them all, as ui/session/session-id.ts does.
   */
  ids: string[];
}

/**
 * The sessions of `cwd` started last (moved ones aside), and the ids of all its files, from one read of the folder.
 * Reads `count` files, and as many again at most in place of those a look-alike cwd shares the folder with.
 */
export function newestSessions(cwd: string, count: number, env: Env = process.env): FirstScreen {
  const dir = join(sessionRoot(env), encodeCwd(cwd));
  const names = sessionFiles(dir);
  const sessions: SessionInfo[] = [];
  const oldestRead = Math.max(0, names.length - 2 * count);
  for (let end = names.length; end > oldestRead && sessions.length < count; ) {
    const start = Math.max(oldestRead, end - (count - sessions.length));
    const paths = names.slice(start, end).map((name) => join(dir, name));
    // Folders shared by look-alike cwds are told apart by the header.
    sessions.push(...describeSessions(paths, cwd).filter((s) => s.cwd === cwd));
    end = start;
  }
  const ids = names.flatMap((name) => idFromFileName(name) ?? []);
  // Appended only when there are any: in the names' order the ids come sorted, which spares shortIdLength a sort.
  for (const s of sessions) if (s.id !== idFromFileName(s.path)) ids.push(s.id);
  return { sessions, ids };
}
