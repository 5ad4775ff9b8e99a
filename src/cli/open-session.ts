// Turns --resume / --resume <id> into an open SessionManager, or a new one.
// An id is only ever matched against the ids of listed sessions, never used as a path.

import { UsageError } from "../errors";
import { SessionManager, describeSessions, findSession, type ModelRef, type SessionInfo } from "../session";
import { findByTitle } from "../session/find-title";
import { forkSession } from "../session/fork";
import { mostRecentSession } from "../session/recent";
import { goBackTarget, promptWords, readSessionTree, type TreeNode } from "../session/tree";
import { localDateTime, oneLine } from "../ui/render/format";
import { sessionIdLength } from "../ui/session/session-id";

export interface OpenedSession {
  session: SessionManager;
  resumed: boolean;
  /** Something to tell the person before anything else (new session instead, trimmed tail). */
  notices: string[];
  /** A prompt --at left out (it named one: the session goes on from before it), offered back: the REPL's input box starts with it. */
  offered?: string;
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
    const left = fork.leftOut && leftOut(parent, fork.leftOut);
    const notice = `Forked session ${fork.parent.id} at entry ${fork.entry}${left ? `, before the prompt ${fork.leftOut!.id},` : ""} into ${session.sessionId}; the original is unchanged.`;
    return { session, resumed: true, notices: [notice, ...(left ? [left.notice] : [])], ...(left ? { offered: left.words } : {}) };
  }
  // A move's notice quotes the target's words.
  const tree = readSessionTree(parent);
  const goal = options.at === undefined ? undefined : goBackTarget(tree, options.at);
  const session = await SessionManager.open(parent);
  try {
    if (goal) session.moveLeaf(goal.target.id);
  } catch (error) {
    session.close();
    throw error;
  }
  if (!goal) return { session, resumed: true, notices: [] };
  const { target } = goal;
  const left = goal.leftOut && leftOut(parent, goal.leftOut);
  if (!left) return { session, resumed: true, notices: [`Going on from entry ${target.id}: ${oneLine(target.text, 80)}`] };
  return { session, resumed: true, notices: [`Going on from before the prompt ${goal.leftOut!.id} (entry ${target.id}).`, left.notice], offered: left.words };
}

/** The prompt a target left out: its words whole, and the line that offers them back. */
function leftOut(file: string, prompt: TreeNode): { words: string; notice: string } {
  const words = promptWords(file, prompt);
  return { words, notice: `Left out, to send again or change: ${oneLine(words, 80)}` };
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
