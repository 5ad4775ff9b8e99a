// What a bash call started, found and ended. Each call runs in a session and
// process group of its own (bash.ts spawns it detached), which a kill of the
// group ends; but a command can leave it: `setsid`, a double fork, a job that
// outlives its shell. So each call's environment also carries a mark,
// AWL_BASH_CALL=<awl's pid>.<n>, which every process it starts inherits unless
// it clears its environment, and which /proc/<pid>/environ shows for as long
// as the process lives. Ending a call's processes is: kill its group, then
// every process still carrying its mark. When awl exits, every process
// carrying one of its marks is ended, whatever the person approved.
//
// The scan reads /proc (Linux); elsewhere only the group is ended.

import { readdirSync, readFileSync } from "node:fs";

export const CALL_MARK_VARIABLE = "AWL_BASH_CALL";

let calls = 0;
let endOnExit = false;

/** A fresh mark for one call; the first one also makes awl end them all when it exits. */
export function newCallMark(): string {
  if (!endOnExit) {
    endOnExit = true;
    process.on("exit", () => endMarked(`${process.pid}.`));
  }
  return `${process.pid}.${++calls}`;
}

/** Ends the call's process group and every process carrying its mark. */
export function endCall(pid: number, mark: string): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is already empty.
  }
  endMarked(mark, true);
}

/** SIGKILLs every process whose environment carries `mark` (exactly, or as a prefix with `prefix`). */
function endMarked(mark: string, exact = false): void {
  const wanted = `\0${CALL_MARK_VARIABLE}=${mark}`;
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return; // no /proc
  }
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let environ: string;
    try {
      environ = `\0${readFileSync(`/proc/${name}/environ`, "latin1")}`;
    } catch {
      continue; // gone, or not ours to read
    }
    const at = environ.indexOf(wanted);
    if (at === -1) continue;
    if (exact && environ[at + wanted.length] !== "\0" && at + wanted.length !== environ.length) continue;
    try {
      process.kill(Number(name), "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
  }
}
