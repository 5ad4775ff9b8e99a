// Runs a shell command for the model. The command gets its own process group
// (and session), and a mark in its environment (bash-processes.ts), so that a
// timeout or Ctrl+C kills everything it started, not just the shell, and an
// environment without awl's secrets (bash-env.ts). What it leaves running in
// the background is ended when the call returns, unless the person approved
// the command as it stood (ToolContext.keepBackground); it is ended when awl
// exits in any case (what was running when the call returned).
//
// Given a sandbox (ToolContext.sandbox, sandbox/), the command runs inside
// bubblewrap. Its PID namespace ends with the shell, taking the background
// with it; so a call whose background is kept runs under a keeper shell that
// reports the command's exit status on a pipe of its own (fd 3) and then
// waits, inside, until nothing else runs there.

import { closeSync } from "node:fs";
import { stat } from "node:fs/promises";
import { type } from "../ark";
import { bashEnvironment } from "./bash-env";
import { CALL_MARK_VARIABLE, endCall, keepCall, newCallMark } from "./bash-processes";
import { toolInput } from "./input";
import { bwrapArgv, refusalNote, sandboxEnded, sandboxRefusal, sandboxStarted } from "./sandbox";
import { MAX_BYTES, MAX_LINES, TailBuffer } from "./output-cap";
import { failure, interrupted, notStarted, type Tool, type ToolContext, type ToolOutput } from "./tool";

const DEFAULT_TIMEOUT_S = 120;
const MAX_TIMEOUT_S = 600;
// After the shell exits, a background child may still hold the pipe open;
// read what is already there for this long, then stop waiting for it.
const DRAIN_MS = 100;
// Runs the command, reports on fd 3 its exit code and how many processes
// its sandbox's PID namespace holds (the glob counts its own /proc: bwrap's
// init, this shell, and what is left), lets go of the output pipe, then
// stays while anything else runs there.
const KEEPER = 'code=0; "$@" 2>&1 3>&- || code=$?; set -- /proc/[0-9]*; echo "$code $#" >&3; exec 3>&- >/dev/null 2>&1; while [ "$#" -gt 2 ]; do sleep 1; set -- /proc/[0-9]*; done';
/** What the keeper counts when the command left nothing behind: bwrap's init and itself. */
const KEEPER_ALONE = 2;

const Input = type({ "+": "reject", command: "string > 0", "timeout?": `0 < number <= ${MAX_TIMEOUT_S}` });
type BashInput = typeof Input.infer;

const input = toolInput("bash", Input, {
  command: "The shell command to run (bash -c).",
  timeout: `Seconds before the command and everything it started are killed (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S}).`,
});

export const bash: Tool<BashInput> = {
  name: "bash",
  description: [
    "Run a shell command with bash -c in the working directory and return its combined stdout and stderr, then its exit code.",
    "Stdin is closed, so commands must not wait for input. Each call starts a fresh shell: cd and variables do not carry over.",
    `Output is cut to the last ${MAX_LINES} lines or ${MAX_BYTES / 1024} KB, with a note when it is.`,
    `Timeout ${DEFAULT_TIMEOUT_S} s by default; a command that times out is killed with all its child processes.`,
    "Processes a command leaves running in the background are killed when it returns, unless the user approved that command; all are killed when awl exits.",
    "Variables whose names contain KEY, SECRET, TOKEN or PASSWORD are not passed to the command unless the user allowed them.",
  ].join("\n"),
  ...input,
  summary: (i) => i.command,
  summaryField: "command",
  effect: (i) => ({ kind: "exec", command: i.command }),
  shown: (i) => ({ summary: "", body: i.command, language: "sh" }),
  execute: (i, context) => run(i.command, i.timeout ?? DEFAULT_TIMEOUT_S, context),
};

async function run(command: string, timeoutS: number, { cwd, signal, onOutput, keepBackground, secrets, sandbox }: ToolContext): Promise<ToolOutput> {
  // Spawning in a missing directory fails with an ENOENT that names /bin/sh, which would mislead.
  if (!(await stat(cwd).catch(() => undefined))?.isDirectory()) {
    return failure(`the working directory ${cwd} does not exist`);
  }
  if (signal.aborted) return notStarted();
  const shell = Bun.which("bash") ?? "/bin/sh";
  const mark = newCallMark();
  const keeper = sandbox !== undefined && keepBackground === true;
  // sh points stderr at the stdout pipe, then becomes the shell: one pipe keeps
  // stdout and stderr in the order they were written, and the command's own
  // line numbers in error messages stay right.
  const inner = ["/bin/sh", "-c", keeper ? KEEPER : 'exec "$@" 2>&1', "sh", shell, "-c", command];
  const proc = Bun.spawn(sandbox ? bwrapArgv(sandbox, cwd, inner) : inner, {
    cwd,
    env: { ...bashEnvironment(process.env, Object.keys(secrets ?? {})), [CALL_MARK_VARIABLE]: mark },
    detached: true,
    stdio: keeper ? ["ignore", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"],
  });
  if (sandbox) {
    sandboxStarted();
    void proc.exited.then(sandboxEnded);
  }
  const output = new TailBuffer();
  const readers = [proc.stdout.getReader(), proc.stderr.getReader()];
  const reading = Promise.all(readers.map((reader) => pump(reader, output, onOutput)));
  // The command's exit code; null when a signal ended it.
  const exited = proc.exited.then(() => proc.exitCode);
  const status = keeper ? statusLine(proc.stdio[3] as number) : undefined;
  const finished = status ? status.then((said) => (said ? said.code : exited)) : exited;
  let done = false;
  void finished.then(() => (done = true));

  let stopped: "timeout" | "abort" | undefined;
  const killGroup = (why: "timeout" | "abort") => {
    // A command that already finished is not reported as killed, even if the
    // timer fires while its output is still being drained.
    if (done) return;
    stopped ??= why;
    endCall(proc.pid, mark);
  };
  const timer = setTimeout(() => killGroup("timeout"), timeoutS * 1000);
  const onAbort = () => killGroup("abort");
  signal.addEventListener("abort", onAbort, { once: true });
  // An abort during the spawn fired no listener yet.
  if (signal.aborted) onAbort();
  let code: number | null;
  try {
    code = await finished;
    // Background jobs (`tail -f x &`, setsid, nohup) end with the call, unless the person approved them.
    if (keepBackground) keepCall(proc.pid, mark);
    else endCall(proc.pid, mark);
    // A keeper still running holds the background until awl exits (bash-processes.ts ends it then): awl need not wait for it.
    if (keeper) proc.unref();
    // A keeper left alone ends at once: waiting for it lets the sandbox's stand-ins go before the call returns (and the file tracking lists the project).
    const alone = (await status)?.processes === KEEPER_ALONE;
    await Promise.all([alone ? proc.exited : undefined, Promise.race([reading, Bun.sleep(DRAIN_MS)])]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
    for (const reader of readers) reader.cancel().catch(() => {});
  }

  const text = output.text();
  const body = text === "" ? "(no output)" : text;
  if (stopped === "timeout") return failure(`${body}\ncommand timed out after ${timeoutS} s and was killed`);
  if (stopped === "abort") return interrupted(`${body}\ninterrupted; the command and everything it started were killed`);
  if (code === null) return failure(`${body}\nkilled by signal ${proc.signalCode}`);
  const result = `${body}\nexit code: ${code}`;
  const refused = code !== 0 && sandbox ? sandboxRefusal(text, sandbox) : undefined;
  if (refused && sandbox) return { content: `${result}\n${refusalNote(refused, sandbox)}`, isError: true, sandboxRefusal: refused };
  return { content: result, isError: code !== 0 };
}

/** The keeper's report on fd 3: the command's exit code and the processes left in the sandbox, or undefined when the sandbox never ran it (bwrap said why on stderr). */
async function statusLine(fd: number): Promise<{ code: number; processes: number } | undefined> {
  try {
    const [code, processes] = (await new Response(Bun.file(fd).stream()).text()).trim().split(" ").map(Number);
    return Number.isInteger(code) && Number.isInteger(processes) ? { code: code!, processes: processes! } : undefined;
  } catch {
    return undefined;
  } finally {
    // The pipe's end is awl's to close (Subprocess.stdio hands it over).
    try {
      closeSync(fd);
    } catch {
      // Closed already.
    }
  }
}

/** Reads one pipe into `output`, passing each piece on to `onOutput` (the person watching) as it arrives. */
async function pump(reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> }, output: TailBuffer, onOutput: ToolContext["onOutput"]): Promise<void> {
  const decoder = new TextDecoder();
  const take = (text: string) => {
    output.push(text);
    if (text && onOutput) {
      try {
        onOutput(text);
      } catch {
        // Showing it failed: the command and its result go on regardless.
      }
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      take(decoder.decode(value, { stream: true }));
    }
  } catch {
    // Cancelled after the drain window: what arrived is kept.
  }
  take(decoder.decode());
}
