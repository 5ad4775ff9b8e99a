// Turns --resume / --resume <id> into an open SessionManager, or a new one.
// An id is only ever matched against the ids of listed sessions, never used as a path.

import { UsageError } from "../errors";
import { SessionManager, describeSessions, findSession, type ModelRef, type SessionInfo } from "../session";
import { continueRecent, findByTitle, mostRecentSession } from "../session/store";
import { forkSession, findTarget, readSessionTree } from "../session/tree";
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
  /** --at ENTRY: the leaf moves there as the session opens (in the fork, with --fork). */
  at?: string;
  /** --fork: continue in a copy, made with the model `forkModel` chooses from the parent's active one. */
  fork?: { model: (parent: ModelRef) => ModelRef };
}

export async function openSession(
  cwd: string,
  resume: true | string | undefined,
  newModel: () => { provider: string; model: string },
  options: OpenOptions = {},
): Promise<OpenedSession> {
  if (resume === undefined) return { session: SessionManager.init({ cwd, ...newModel() }), resumed: false, notices: [] };

  if (options.at !== undefined || options.fork) return openAt(cwd, resume, options);

  let session: SessionManager | null;
  if (resume === true) {
    session = await continueRecent(cwd);
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
  if (session.cwd !== cwd) notices.push(`This session was started in ${session.cwd}; its tools now run here, in ${cwd}.`);
  if (session.recovery) {
    notices.push(`Recovered from a crash: removed an incomplete last line (${session.recovery.trimmedBytes} bytes) from ${session.sessionFile}.`);
  }
  notices.push(...session.notices());
  return { session, resumed: true, notices };
}

/** `--resume ID --at ENTRY` and `--fork [--at ENTRY]`: the session, moved to the entry, or a copy of its path to it. */
async function openAt(cwd: string, resume: true | string, options: OpenOptions): Promise<OpenedSession> {
  const parent = resume === true ? mostRecentSession(cwd) : await pathForId(cwd, resume, options.listedBy ?? "awl sessions");
  if (!parent) throw new UsageError(`no earlier session in this directory to ${options.fork ? "fork" : "go back in"}`);
  if (options.fork) {
    const fork = forkSession({ parentFile: parent, at: options.at, cwd, model: options.fork.model });
    const session = await SessionManager.open(fork.file);
    return { session, resumed: true, notices: [`Forked session ${fork.parent.id} at entry ${fork.entry} into ${session.sessionId}; the original is unchanged.`] };
  }
  // A move's notice quotes the target's words.
  const tree = readSessionTree(parent);
  const target = options.at === undefined ? undefined : findTarget(tree, options.at);
  const session = await SessionManager.open(parent);
  try {
    if (target) session.moveLeaf(target.id);
  } catch (error) {
    session.close();
    throw error;
  }
  return { session, resumed: true, notices: target ? [`Going on from entry ${target.id}: ${oneLine(target.text, 80)}`] : [] };
}

/** An id prefix, else a part of a title (this directory's sessions; others are named in the error). */
export async function pathForId(cwd: string, id: string, listedBy: string): Promise<string> {
  const isId = /^[0-9a-fA-F-]+$/.test(id);
  const { matches, elsewhere } = isId ? await findSession(cwd, id) : { matches: [], elsewhere: [] };
  if (matches.length === 1) return matches[0]!.path;
  if (matches.length > 1) throw new UsageError(ambiguous(id, describeSessions(matches.map((m) => m.path), cwd), cwd));
  const titled = findByTitle(cwd, id);
  if (titled.here.length === 1) return titled.here[0]!.path;
  if (titled.here.length > 1) throw new UsageError(ambiguous(id, describeSessions(titled.here.map((m) => m.path), cwd), cwd, "titles"));
  const where = (list: { cwd: string }[]) => [...new Set(list.map((s) => s.cwd))].join(", ");
  if (elsewhere.length) throw new UsageError(`session ${id} is not from this directory; it belongs to ${where(elsewhere)}: run awl --resume ${id} there`);
  if (titled.elsewhere.length) throw new UsageError(`no session of this directory has '${id}' in its title; a session of ${where(titled.elsewhere)} does: run awl --resume there`);
  throw new UsageError(`no session in this directory matches '${id}' by id or title (${listedBy} lists them)`);
}

function ambiguous(id: string, matches: SessionInfo[], cwd: string, by = "id"): string {
  const length = sessionIdLength(cwd, matches.map((m) => m.id)); // as awl sessions shows them
  const rows = matches.map(
    (m) => `  ${m.id.slice(0, length)}  ${localDateTime(m.created)}  ${oneLine(m.title ?? m.firstPrompt ?? "(no prompt)", 60)}`,
  );
  const more = by === "id" ? "give more of the id" : "give one of their ids";
  return [`'${id}' matches ${matches.length} sessions${by === "id" ? "" : " by title"}; ${more}:`, ...rows].join("\n");
}
