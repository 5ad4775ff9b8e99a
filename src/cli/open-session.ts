// Turns --resume / --resume <text> into an open SessionManager, or a new one.
// Which session the text names is the session store's one rule (session/store/resolve.ts);
// several matches are offered in the picker on a terminal, else listed in the error.

import { UsageError } from "../errors";
import { SessionManager, type ModelRef, type SessionInfo } from "../session";
import { continueRecent, forkTitle, mostRecentSession, resolveSession, type Resolution } from "../session/store";
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
  /** Several sessions match: offer them in the picker (a person at a terminal) rather than list them in the error. */
  pick?: boolean;
  /** --at ENTRY: the leaf moves there as the session opens (in the fork, with --fork). */
  at?: string;
  /** --fork: continue in a copy, made with the model `forkModel` chooses from the parent's active one. */
  fork?: { model: (parent: ModelRef) => ModelRef };
}

export async function openSession(
  cwd: string,
  /** true: the most recent session here; text: what names one (resolve.ts); a path: one already resolved. */
  resume: true | string | { path: string } | undefined,
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
    session = await SessionManager.open(await pathOf(cwd, resume, options));
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
async function openAt(cwd: string, resume: true | string | { path: string }, options: OpenOptions): Promise<OpenedSession> {
  const parent = resume === true ? mostRecentSession(cwd) : await pathOf(cwd, resume, options);
  if (!parent) throw new UsageError(`no earlier session in this directory to ${options.fork ? "fork" : "go back in"}`);
  if (options.fork) {
    const fork = forkSession({ parentFile: parent, at: options.at, cwd, model: options.fork.model });
    const session = await SessionManager.open(fork.file);
    const title = forkTitle(parent, fork.parent.id, fork.file);
    if (title) session.setTitle(title.title, title.source);
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

function pathOf(cwd: string, resume: string | { path: string }, options: OpenOptions): Promise<string> | string {
  return typeof resume === "string" ? pathForId(cwd, resume, { listedBy: options.listedBy ?? "awl sessions", pick: options.pick ?? false }) : resume.path;
}

/** The session `text` names (resolve.ts); several: the one picked among them, or a usage error listing them. */
export async function pathForId(cwd: string, text: string, o: { listedBy: string; pick: boolean }): Promise<string> {
  const found = await resolveSession(cwd, text, o.listedBy);
  if (found.kind === "one") return found.path;
  if (!o.pick) throw new UsageError(ambiguous(text, found, cwd));
  const { pickSession } = await import("../ui/session/session-picker");
  const id = await pickSession(found.sessions, idLength(cwd, found.sessions), { escape: "leaves" });
  const chosen = found.sessions.find((s) => s.id === id);
  if (!chosen) throw new UsageError(`'${text}' matches ${found.sessions.length} sessions, and none was chosen`);
  return chosen.path;
}

/** A person is there to pick: stdin and stdout are a terminal. */
export const atTerminal = (): boolean => !!process.stdin.isTTY && !!process.stdout.isTTY;

/** As awl sessions shows them. */
const idLength = (cwd: string, sessions: SessionInfo[]) => sessionIdLength(cwd, sessions.map((m) => m.id));

function ambiguous(text: string, found: Extract<Resolution, { kind: "several" }>, cwd: string): string {
  const length = idLength(cwd, found.sessions);
  const rows = found.sessions.map(
    (m) => `  ${m.id.slice(0, length)}  ${localDateTime(m.created)}  ${oneLine(m.title ?? m.firstPrompt ?? "(no prompt)", 60)}`,
  );
  const more = found.by === "id" ? "give more of the id" : "give one of their ids";
  return [`'${text}' matches ${found.sessions.length} sessions${found.by === "id" ? "" : " by title"}; ${more}:`, ...rows].join("\n");
}
