// Turns --resume / --resume <id> into an open SessionManager, or a new one.
// An id is only ever matched against the ids of listed sessions, never used as a path.

import { UsageError } from "../errors";
import { SessionManager, describeSessions, findSession, shortIdLength, type SessionInfo } from "../session";
import { localDateTime, oneLine } from "../ui/format";

export interface OpenedSession {
  session: SessionManager;
  resumed: boolean;
  /** Something to tell the person before anything else (new session instead, trimmed tail). */
  notices: string[];
}

export async function openSession(
  cwd: string,
  resume: true | string | undefined,
  newModel: () => { provider: string; model: string },
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
    session = await SessionManager.open(await pathForId(cwd, resume));
  }
  const notices: string[] = [];
  if (session.recovery) {
    notices.push(`Recovered from a crash: removed an incomplete last line (${session.recovery.trimmedBytes} bytes) from ${session.sessionFile}.`);
  }
  notices.push(...session.notices());
  return { session, resumed: true, notices };
}

async function pathForId(cwd: string, id: string): Promise<string> {
  const { matches, elsewhere } = await findSession(cwd, id);
  if (matches.length === 1) return matches[0]!.path;
  if (matches.length > 1) throw new UsageError(ambiguous(id, describeSessions(matches.map((m) => m.path), cwd)));
  if (elsewhere.length > 0) {
    const dirs = [...new Set(elsewhere.map((s) => s.cwd))];
    throw new UsageError(`session ${id} is not from this directory; it belongs to ${dirs.join(", ")}: run awl --resume ${id} there`);
  }
  throw new UsageError(`no session in this directory matches '${id}' (awl sessions lists them)`);
}

function ambiguous(id: string, matches: SessionInfo[]): string {
  const length = shortIdLength(matches.map((m) => m.id));
  const rows = matches.map(
    (m) => `  ${m.id.slice(0, length)}  ${localDateTime(m.created)}  ${m.firstPrompt ? oneLine(m.firstPrompt, 60) : "(no prompt)"}`,
  );
  return [`'${id}' matches ${matches.length} sessions; give more of the id:`, ...rows].join("\n");
}
