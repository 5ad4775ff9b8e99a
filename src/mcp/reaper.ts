// No server outlives awl. Each stdio server runs in a process group of its
// own, ended when awl exits; and because a SIGKILL of awl runs no exit
// handler, one small watcher (a shell reading a pipe only awl holds) is told
// each group as it starts: when the pipe closes, however awl ended, it kills
// every group it was told. It runs in a session of its own, so the terminal's
// Ctrl+C does not end it before it has done its job.

import type { Subprocess } from "bun";
import { killGroup } from "../tools/bash-processes";

let watcher: Subprocess<"pipe", "ignore", "ignore"> | undefined;
const groups = new Set<number>();

const WATCH = 'trap "" INT HUP TERM; groups=; while read g; do groups="$groups $g"; done; for g in $groups; do kill -9 "-$g" 2>/dev/null; done';

/** Ends the group `pid` leads when awl exits, whichever way. */
export function reapOnExit(pid: number): void {
  if (!watcher) {
    watcher = Bun.spawn(["/bin/sh", "-c", WATCH], { stdin: "pipe", stdout: "ignore", stderr: "ignore", detached: true });
    watcher.unref();
    watcher.stdin.unref();
    process.on("exit", endAll);
  }
  groups.add(pid);
  watcher.stdin.write(`${pid}\n`);
  watcher.stdin.flush();
}

/** Ends every server's group now, those still connecting too. */
export function endAll(): void {
  for (const group of groups) killGroup(group);
  groups.clear();
}

/** The group has been ended (the server was closed or exited). */
export function reaped(pid: number): void {
  groups.delete(pid);
}
