// How a session's id is shown: the shortest prefix (at least 8 characters)
// that tells it apart from every other session of its directory, the same on
// the banner, in /session, in the exit hint and in `awl sessions`, so that
// what one shows, `--resume` and `/resume` accept. The ids are those of the
// directory's file names (cheap: no session is read), plus any given.

import { sessionIdsByName, shortIdLength } from "../../session/store";

type Env = Record<string, string | undefined>;

/** The prefix length that tells apart this directory's sessions and `more` (ids read from headers, this session's before its file exists). */
export function sessionIdLength(cwd: string, more: readonly string[] = [], env: Env = process.env): number {
  return shortIdLength([...new Set([...sessionIdsByName(cwd, env), ...more])]);
}

/** `id`'s shortest unique prefix among this directory's sessions and `also` (a session about to be written: it will be among them). */
export function shortSessionId(cwd: string, id: string, also: readonly string[] = [], env: Env = process.env): string {
  return id.slice(0, sessionIdLength(cwd, [id, ...also], env));
}
