// Runs one command hook as Claude Code does: `bash -c command` in the working
// directory, the event's JSON on stdin, stdout and stderr kept apart. Like a
// bash call (tools/bash.ts) it runs in a process group of its own, carrying
// the call mark, and without the provider keys or secret-named variables in
// its environment; its time limit or Esc kills the group and what it started.

import type { Subprocess } from "bun";
import { bashEnvironment } from "../../tools/bash-env";
import { CALL_MARK_VARIABLE, endCall, newCallMark } from "../../tools/bash-processes";

/** Claude Code's limit for a hook that sets none, in seconds. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;
/** What is kept of a hook's stdout or stderr: more is cut, with a note. */
const MAX_OUTPUT_CHARS = 256 * 1024;
/** After the hook exits and its group is ended, how long its pipes may take to close. */
const DRAIN_MS = 2000;

export interface CommandRun {
  /** null: killed (timeout, Esc) or ended by a signal. */
  code: number | null;
  stdout: string;
  stderr: string;
  stopped?: "timeout" | "abort";
}

export interface CommandOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** The provider keys' variable names: never passed. */
  keys: readonly string[];
  /** Set in the hook's environment as Claude Code sets CLAUDE_PROJECT_DIR. */
  projectDir: string;
  timeoutS?: number;
  signal: AbortSignal;
}

export async function runCommand(command: string, stdin: string, o: CommandOptions): Promise<CommandRun> {
  const mark = newCallMark();
  const shell = Bun.which("bash") ?? "/bin/sh";
  const env = { ...bashEnvironment(o.env, o.keys), CLAUDE_PROJECT_DIR: o.projectDir, AWL_PROJECT_DIR: o.projectDir, [CALL_MARK_VARIABLE]: mark };
  let proc: Subprocess<"pipe", "pipe", "pipe">;
  try {
    proc = Bun.spawn([shell, "-c", command], { cwd: o.cwd, env, detached: true, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  } catch (error) {
    return { code: null, stdout: "", stderr: error instanceof Error ? error.message : String(error) };
  }
  let stopped: CommandRun["stopped"];
  const stop = (why: "timeout" | "abort") => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    stopped ??= why;
    endCall(proc.pid, mark);
  };
  const timeoutS = o.timeoutS ?? DEFAULT_HOOK_TIMEOUT_S;
  const timer = setTimeout(() => stop("timeout"), timeoutS * 1000);
  const onAbort = () => stop("abort");
  o.signal.addEventListener("abort", onAbort, { once: true });
  if (o.signal.aborted) onAbort();
  try {
    // Read from the start: a hook may write before it reads its stdin.
    const reading = Promise.all([text(proc.stdout), text(proc.stderr)]);
    try {
      proc.stdin.write(stdin);
      await proc.stdin.end();
    } catch {
      // A hook that never reads its stdin closes the pipe early: that is its business, not an error.
    }
    await proc.exited;
    // What it left in the background ends with it, as a bash call's does; then its pipes close.
    endCall(proc.pid, mark);
    let drain: Timer | undefined;
    const heldOpen = new Promise<[string, string]>((resolve) => (drain = setTimeout(() => resolve(["", "[its output could not be read: something it started held it open]"]), DRAIN_MS)));
    // The timer is cleared at once: a pending one would keep awl from exiting for its length.
    const [stdout, stderr] = await Promise.race([reading, heldOpen]).finally(() => clearTimeout(drain));
    return { code: stopped ? null : proc.exitCode, stdout, stderr, ...(stopped ? { stopped } : {}) };
  } finally {
    clearTimeout(timer);
    o.signal.removeEventListener("abort", onAbort);
  }
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  const all = await new Response(stream).text();
  return all.length > MAX_OUTPUT_CHARS ? `${all.slice(0, MAX_OUTPUT_CHARS)}\n[cut: more than ${MAX_OUTPUT_CHARS} characters]` : all;
}
