// How a session's id is shown: the shortest prefix (at least 8 characters)
// that tells it apart from every other session of its directory, the same on
// the banner, in /session, in the exit hint and in `awl sessions`, so that
// what one shows, `--resume` and `/resume` accept. A session of another
// directory (resumed there by its whole id) is shown whole: a prefix resolves
// only among this directory's sessions. The ids are those of the directory's
// file names (cheap: no session is read), plus any given.

import { dirname } from "node:path";
import { printedId, sessionIdsByName, shortIdLength } from "../../session/store";
import { sessionDir } from "../../session/log";

type Env = Record<string, string | undefined>;

/** The prefix length that tells apart this directory's sessions and `more` (ids read from headers, this session's before its file exists). */
export function sessionIdLength(cwd: string, more: readonly string[] = [], env: Env = process.env): number {
  return shortIdLength([...new Set([...sessionIdsByName(cwd, env), ...more])]);
}

/** The open session's id as shown in `cwd`, unique among this directory's sessions and `also` (a session about to be written: it will be among them). */
export function shortSessionId(cwd: string, session: { sessionId: string; sessionFile: string }, also: readonly string[] = [], env: Env = process.env): string {
  const here = dirname(session.sessionFile) === sessionDir(cwd, env);
  return printedId(cwd, session.sessionId, here ? [session.sessionId, ...also] : also, env);
}
