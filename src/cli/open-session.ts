// Turns --resume / --resume <id> into an open SessionManager, or a new one.
// An id is only ever matched against the ids of listed sessions, never used as a path.

import { UsageError } from "../errors";
import { SessionManager, describeSessions, findSession, type SessionInfo } from "../session";
import { localDateTime, oneLine } from "../ui/render/format";
import { sessionIdLength } from "../ui/session/session-id";

export interface OpenedSession {
  session: SessionManager;
  resumed: boolean;
  /** Something to tell the person before anything else (new session instead, trimmed tail). */
  notices: string[];
}

export interface OpenOptions {
  /** Where a person sees this directory's sessions, for "no session matches": `awl sessions` on the command line, `/resume` in the REPL. */
  listedBy?: string;
}

export async function openSession(
  cwd: string,
  resume: true | string | undefined,
  newModel: () => { provider: string; model: string },
  options: OpenOptions = {},
): Promise<OpenedSession> {
  if (resume === undefined) return { session: SessionManager.init({ cwd, ...newModel() }), resumed: false, notices: [] };

  let session: SessionManager | null;
  if (resume === true) {
    session = await SessionManager.continueRecent(cwd);
    if (!session) {
      return {
        session: SessionManager.init({ cwd, ...newModel() }),
        resumed: false,
        notices: ["No earlier session in this directory: starting a new one."],
      };
    }
  } else {
    session = await SessionManager.open(await pathForId(cwd, resume, options.listedBy ?? "awl sessions"));
  }
  const notices: string[] = [];
  if (session.recovery) {
    notices.push(`Recovered from a crash: removed an incomplete last line (${session.recovery.trimmedBytes} bytes) from ${session.sessionFile}.`);
  }
  notices.push(...session.notices());
  return { session, resumed: true, notices };
}

async function pathForId(cwd: string, id: string, listedBy: string): Promise<string> {
  const { matches, elsewhere } = await findSession(cwd, id);
  if (matches.length === 1) return matches[0]!.path;
  if (matches.length > 1) throw new UsageError(ambiguous(id, describeSessions(matches.map((m) => m.path), cwd), cwd));
  if (elsewhere.length > 0) {
    const dirs = [...new Set(elsewhere.map((s) => s.cwd))];
    throw new UsageError(`session ${id} is not from this directory; it belongs to ${dirs.join(", ")}: run awl --resume ${id} there`);
  }
  throw new UsageError(`no session in this directory matches '${id}' (${listedBy} lists them)`);
}

function ambiguous(id: string, matches: SessionInfo[], cwd: string): string {
  const length = sessionIdLength(cwd, matches.map((m) => m.id)); // as awl sessions shows them
  const rows = matches.map(
    (m) => `  ${m.id.slice(0, length)}  ${localDateTime(m.created)}  ${m.firstPrompt ? oneLine(m.firstPrompt, 60) : "(no prompt)"}`,
  );
  return [`'${id}' matches ${matches.length} sessions; give more of the id:`, ...rows].join("\n");
}
