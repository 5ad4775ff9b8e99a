// Which session a person means by the text they gave `--resume`, `/resume`,
// `awl export`, `awl rewind` or `awl sessions tree`: one rule for all, in this
// order (docs/architecture.md, "Finding a session"):
//
// 1. a whole session id, from any directory: ids are unique on the machine;
// 2. a prefix of an id among this directory's sessions (and its project's,
//    from a moved checkout);
// 3. a case-insensitive part of a title among this directory's sessions, so
//    `--resume "flaky test"` finds the session named for it.
//
// Several matches are returned for the caller to offer (a picker) or list; no
// match is a usage error that says where a match lies when another directory
// holds one. The text is only ever compared with ids and titles, never used as
// a path. `printedId` is the other direction: how to print an id so that this
// rule gives the same session back.

import { UsageError } from "../../errors";
import { findByTitle } from "./find-title";
import { describeSessions, findSession, sessionIdsByName, shortIdLength, type SessionInfo } from "./listing";

type Env = Record<string, string | undefined>;

export type Resolution = { kind: "one"; path: string } | { kind: "several"; by: "id" | "title"; sessions: SessionInfo[] };

/** `listedBy`: where the person sees this directory's sessions, for "no session matches" (`awl sessions`, `/resume`). */
export async function resolveSession(cwd: string, text: string, listedBy: string, env: Env = process.env): Promise<Resolution> {
  const isId = /^[0-9a-fA-F-]+$/.test(text);
  const { matches, elsewhere } = isId ? await findSession(cwd, text, env) : { matches: [], elsewhere: [] };
  const whole = [...matches, ...elsewhere].filter((m) => m.id.toLowerCase() === text.toLowerCase());
  if (whole.length === 1) return { kind: "one", path: whole[0]!.path };
  if (matches.length === 1) return { kind: "one", path: matches[0]!.path };
  if (matches.length > 1) return { kind: "several", by: "id", sessions: describeSessions(matches.map((m) => m.path), cwd) };
  const titled = findByTitle(cwd, text, env);
  if (titled.here.length === 1) return { kind: "one", path: titled.here[0]!.path };
  if (titled.here.length > 1) return { kind: "several", by: "title", sessions: describeSessions(titled.here.map((m) => m.path), cwd) };
  const where = (list: { cwd: string }[]) => [...new Set(list.map((s) => s.cwd))].join(", ");
  if (elsewhere.length === 1) {
    const [other] = elsewhere;
    throw new UsageError(`no session of this directory has an id starting with ${text}; session ${other!.id} of ${other!.cwd} does: give its whole id to open it from here`);
  }
  if (elsewhere.length) throw new UsageError(`no session of this directory has an id starting with ${text}; sessions of ${where(elsewhere)} do: give the whole id of one`);
  if (titled.elsewhere.length) {
    const ids = titled.elsewhere.slice(0, 3).map((s) => s.id);
    throw new UsageError(`no session of this directory has '${text}' in its title; ${plural(titled.elsewhere.length)} of ${where(titled.elsewhere)} ${titled.elsewhere.length === 1 ? "does" : "do"}: give the whole id (${ids.join(", ")}${titled.elsewhere.length > ids.length ? ", …" : ""})`);
  }
  throw new UsageError(`no session in this directory matches '${text}' by id or title (${listedBy} lists them)`);
}

const plural = (n: number) => (n === 1 ? "a session" : `${n} sessions`);

/**
 * How to print a session's id for `cwd` so that resolveSession gives it back:
 * the shortest prefix (at least 8) that tells apart this directory's sessions
 * and `also` (sessions about to be written here) when it is one of them, else
 * the whole id. Ids come from file names: no session is read.
 */
export function printedId(cwd: string, id: string, also: readonly string[] = [], env: Env = process.env): string {
  const ids = [...new Set([...sessionIdsByName(cwd, env), ...also])];
  return ids.includes(id) ? id.slice(0, shortIdLength(ids)) : id;
}
