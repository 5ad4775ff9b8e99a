// What a bash call started, found and ended. Each call runs in a session and
// process group of its own (bash.ts spawns it detached), which a kill of the
// group ends; but a command can leave it: `setsid`, a double fork, a job that
// outlives its shell. So each call's environment also carries a mark,
// AWL_BASH_CALL=<awl's pid>.<n>, which every process it starts inherits unless
// it clears its environment, and which /proc/<pid>/environ shows for as long
// as the process lives. Ending a call's processes is: kill its group, then
// every process still carrying its mark.
//
// A call whose background is kept (the person approved it) is ended when awl
// exits, but only what awl started: its group, and each process carrying its
// mark that the call's processes started, or that they left behind (its
// parent no longer carries the mark: it was adopted). One whose parent is
// another process carrying the mark outside the call's session was started
// by a server the call launched, since: a tmux window the person opens, a
// build daemon's next build. It is the person's, and awl leaves it. A call
// still running when awl exits is ended whole.
//
// The scan reads /proc (Linux); elsewhere only the group is ended.

import { readdirSync, readFileSync } from "node:fs";

export const CALL_MARK_VARIABLE = "AWL_BASH_CALL";

let calls = 0;
/** The calls whose background was kept, by mark: their process group's (and session's) id. */
const kept = new Map<string, number>();

/** A fresh mark for one call; the first one also makes awl end what they started when it exits. */
export function newCallMark(): string {
  if (calls === 0) process.on("exit", endAll);
  return `${process.pid}.${++calls}`;
}

/** Ends the call's process group and every process carrying its mark. */
export function endCall(pid: number, mark: string): void {
  killGroup(pid);
  for (const found of marked()) if (found.mark === mark) kill(found.pid);
}

/** The call returned and its background stays (the person approved it) until awl exits. */
export function keepCall(pid: number, mark: string): void {
  kept.set(mark, pid);
}

/** At exit: each kept call's group and what it started (see the top of this file); a call still running, whole. */
function endAll(): void {
  const found = marked();
  const byPid = new Map(found.map((p) => [p.pid, p]));
  const doomed = found.filter((p) => {
    const session = kept.get(p.mark);
    if (session === undefined || p.session === session) return true;
    const parent = byPid.get(p.parent);
    return parent === undefined || parent.session === session;
  });
  for (const session of kept.values()) killGroup(session);
  for (const p of doomed) kill(p.pid);
}

export function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is already empty.
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Gone meanwhile.
  }
}

interface Marked {
  pid: number;
  mark: string;
  parent: number;
  session: number;
}

/** Every process carrying one of this awl's marks, with its parent and session. */
function marked(): Marked[] {
  const variable = `\0${CALL_MARK_VARIABLE}=`;
  const ours = `${variable}${process.pid}.`;
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return []; // no /proc
  }
  const found: Marked[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const environ = `\0${readFileSync(`/proc/${name}/environ`, "latin1")}`;
      const at = environ.indexOf(ours);
      if (at === -1) continue;
      const end = environ.indexOf("\0", at + 1);
      const mark = environ.slice(at + variable.length, end === -1 ? undefined : end);
      // After the command name (in parentheses, and it may hold spaces): state, parent, group, session.
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      const [, parent, , session] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      found.push({ pid: Number(name), mark, parent: Number(parent), session: Number(session) });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}
