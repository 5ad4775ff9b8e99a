// Every way awl can be stopped keeps what it has (docs/architecture.md, "A
// turn"). A stop signal (SIGHUP: the terminal closed or ssh dropped; SIGTERM,
// SIGINT from outside or Ctrl+C under -p; SIGQUIT) is handled like Ctrl+C, in
// this order:
//
//   1. stop drawing: the rows under the output (the status line) are erased
//      while the terminal is still there, then nothing more is written to it
//      (after SIGHUP it is gone, and a write to it fails);
//   2. abort: the request stops, and a running tool is killed with its whole
//      process group as the abort reaches it (tools/bash.ts);
//   3. wait, up to 3 s, for the work a command holds (a turn) to settle: its
//      partial answer or its tool results are appended exactly as after
//      Ctrl+C; a second signal does not cut this short;
//   4. restore the terminal (raw mode, bracketed paste);
//   5. exit with 128 + the signal's number.
//
// With nothing held (at the prompt, during start-up) step 3 is empty and awl
// exits at once. An uncaught error restores the terminal too and is one line.
// Output that cannot be written is handled here as well: a closed pipe
// (`awl -p … | head -1`) ends quietly, anything else (a full disk) is one line.

import { mute, muteTerminal, restoreTerminal } from "../ui/input/input-modes";
import { safeText } from "../ui/render/safe-text";

export const STOP_SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 } as const;
/** SIGPIPE is not caught (Bun ignores it, and writes fail with EPIPE): `awl -p --json` stops with its number when its reader goes (stopForClosedOutput). */
const EXIT_NUMBERS = { ...STOP_SIGNALS, SIGPIPE: 13 } as const;
export type StopSignal = keyof typeof EXIT_NUMBERS;

/** How long a stop waits for what it must keep to be appended. */
const GRACE_MS = 3000;

const controller = new AbortController();
/** Aborted by the first stop signal: commands abort their turn with it. */
export const stopSignal: AbortSignal = controller.signal;

let stopping: StopSignal | undefined;
let held = 0;
/** What must be written before a stop exits (the result line of -p --json), within the grace period; it may name the exit code. */
let beforeStopExit: ((code: number, error?: string) => Promise<number>) | undefined;
let exiting = false;
/** Set when stdout failed for a reason other than a closed pipe; main exits 1. */
let outputFailed = false;

/** Installs the handlers; main calls it first thing, before any command runs. */
export function guardProcess(): void {
  for (const name of Object.keys(STOP_SIGNALS) as StopSignal[]) process.on(name, () => onStopSignal(name));
  process.on("uncaughtException", crashed);
  process.on("unhandledRejection", crashed);
}

/**
 * Handles failed writes to stdout and stderr (onOutputError). Called by the
 * commands that write through process.stdout/stderr (-p, the REPL), not by
 * main: merely touching process.stdout costs ~20 ms of start-up in a compiled
 * binary, which `awl --version` and `awl sessions` (console.log) do not pay.
 */
export function guardOutput(): void {
  process.stdout.on("error", (error) => onOutputError(process.stdout, error, true));
  process.stderr.on("error", (error) => onOutputError(process.stderr, error, false));
}

/**
 * Runs `work` as something a stop must wait for: a stop signal that arrives
 * meanwhile lets it finish (it sees `stopSignal` aborted), then exits.
 */
export async function hold<T>(work: () => Promise<T>): Promise<T> {
  held++;
  try {
    return await work();
  } finally {
    held--;
    // After the caller's own finally blocks (the session closes, releasing its lock).
    if (stopping && held === 0) setTimeout(exitStopped, 0);
  }
}

/**
 * Runs `finish` with the exit code before a stop exits: its promise is
 * awaited, up to the grace period, and gives the code awl exits with (the run's
 * own, when its result was already being written as the signal came). An
 * internal error runs it too, with exit code 1 and the error's words.
 */
export function finishBeforeStopExit(finish: (code: number, error?: string) => Promise<number>): void {
  beforeStopExit = finish;
}

/** The signal that is stopping awl, if one is. */
export function stoppedBy(): StopSignal | undefined {
  return stopping;
}

/** 128 + the number of the signal that is stopping awl, if one is. */
export function stopExitCode(): number | undefined {
  return stopping && 128 + EXIT_NUMBERS[stopping];
}

/**
 * Stdout's reader is gone (`awl -p --json | head -1`): stop as SIGPIPE would
 * stop a program that does not catch it, keeping what was received, quietly
 * (nothing more on stderr), and exit 141.
 */
export function stopForClosedOutput(): void {
  if (stopping) return;
  mute(process.stderr);
  onStopSignal("SIGPIPE");
}

/** True once stdout failed for a reason other than a closed pipe (already said, in one line). */
export function outputHasFailed(): boolean {
  return outputFailed;
}

function onStopSignal(name: StopSignal): void {
  if (stopping) return; // the first signal's work goes on; the 3 s bound still holds
  stopping = name;
  muteTerminal();
  controller.abort();
  if (held === 0) return exitStopped();
  // Not unref'd: the bound must hold even when nothing else keeps awl alive.
  setTimeout(exitStopped, GRACE_MS);
}

function exitStopped(): void {
  restoreTerminal();
  const code = stopExitCode()!;
  if (!beforeStopExit || exiting) return process.exit(code);
  exiting = true;
  setTimeout(() => process.exit(code), GRACE_MS);
  beforeStopExit(code).then(
    (final) => process.exit(final),
    () => process.exit(code),
  );
}

function crashed(error: unknown): void {
  // While stopping, the stop's own bound ends awl; an error then must not cut its append short.
  if (stopping) return;
  restoreTerminal();
  const message = error instanceof Error ? error.message : String(error);
  const said = `internal error: ${safeText(message.split("\n")[0] ?? "")} (please report this with the command you ran)`;
  try {
    process.stderr.write(`awl: ${said}\n`);
  } catch {
    // Nowhere to say it.
  }
  if (!beforeStopExit || exiting) return process.exit(1);
  // The result line of -p --json says it too, within the grace period.
  exiting = true;
  setTimeout(() => process.exit(1), GRACE_MS);
  beforeStopExit(1, said).then(
    () => process.exit(1),
    () => process.exit(1),
  );
}

/**
 * A write to stdout or stderr failed. EPIPE: the reader is gone (`| head -1`),
 * which is no error worth a word; EIO: the terminal hung up. Either way the
 * stream is muted and awl goes on (what matters is in the session). Anything
 * else on stdout (ENOSPC on `> /dev/full`) is said once, on stderr, and awl
 * exits 1.
 */
function onOutputError(stream: NodeJS.WriteStream, error: Error, isStdout: boolean): void {
  mute(stream);
  const code = (error as NodeJS.ErrnoException).code;
  if (!isStdout || code === "EPIPE" || code === "EIO" || outputFailed) return;
  outputFailed = true;
  process.exitCode = 1;
  // "ENOSPC: no space left on device, write" -> "no space left on device"
  const reason = error.message.replace(/^[A-Z]+:\s*/, "").replace(/,\s*write$/, "");
  try {
    process.stderr.write(`awl: could not write to standard output: ${reason}\n`);
  } catch {
    // stderr is failing too.
  }
}
