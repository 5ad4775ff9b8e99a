// The terminal modes awl changes while it reads keys: raw mode (keys arrive
// one by one, Ctrl+C as a key, no echo) and bracketed paste. Whoever sets them
// puts them back (readLine, watchInterrupt); whatever way awl stops instead (a
// signal, an uncaught error), restoreTerminal does: a shell left in raw mode
// echoes nothing and its Enter no longer ends a line, and one left in
// bracketed paste wraps every paste in `^[[200~`.

// node:fs and node:tty are required where used, on the way out: main loads
// this file before every command, and importing them at the top cost `awl
// --version` 3 ms of its 5 (measured).

export const PASTE_ON = "\x1b[?2004h";
export const PASTE_OFF = "\x1b[?2004l";

interface Modes {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  wasRaw: boolean;
  paste: boolean;
}

/** Streams muteTerminal (or a failed write) silenced. */
const muted = new WeakSet<NodeJS.WriteStream>();

/** The modes awl has on right now (readLine and watchInterrupt never overlap). */
let active: Modes | undefined;

/** The terminal holdKeys put in raw mode, until the first reader takes it over. */
let held: { input: NodeJS.ReadStream; wasRaw: boolean } | undefined;

/**
 * Raw mode from now until the first reader takes it over: keys typed while
 * the REPL starts wait, unechoed, exactly as typed. In cooked mode the
 * terminal would echo them over the banner and turn their Enter into a
 * newline (Ctrl+J), so a prompt typed at once was never sent.
 */
export function holdKeys(input: NodeJS.ReadStream): void {
  if (!input.isTTY || input.isRaw || held) return;
  held = { input, wasRaw: false };
  input.setRawMode(true);
}

/** Raw mode and bracketed paste on; returns the function that puts the terminal back as it was (as it was before holdKeys, when it held it). */
export function enterRawMode(input: NodeJS.ReadStream, output: NodeJS.WriteStream): () => void {
  const wasRaw = held?.input === input ? held.wasRaw : input.isRaw;
  held = undefined;
  const modes: Modes = { input, output, wasRaw, paste: output.isTTY === true };
  input.setRawMode(true);
  active = modes;
  if (modes.paste) output.write(PASTE_ON);
  return () => {
    if (active === modes) active = undefined;
    input.setRawMode(modes.wasRaw);
    // Paused, the stream keeps unread bytes for the next reader and lets the process exit.
    input.pause();
    if (!modes.paste) return;
    if (muted.has(output)) return pasteOffDirect(output);
    try {
      output.write(PASTE_OFF);
    } catch {
      // The terminal is gone (or failing); there is no paste mode left to switch off.
    }
  };
}

/**
 * On the way out: raw mode off and bracketed paste off, synchronously (the
 * process exits right after), and a line break so the shell's prompt starts on
 * a line of its own. A terminal that hung up is written nothing: after SIGHUP
 * it is gone and a write to it fails; whether it is gone is asked of the
 * terminal itself (isatty fails on a hung-up one), since `kill -HUP` alone
 * leaves it there, still in raw mode and bracketed paste.
 */
export function restoreTerminal(): void {
  const modes = active ?? (held && { input: held.input, output: process.stdout, wasRaw: held.wasRaw, paste: false });
  active = held = undefined;
  if (!modes) {
    // Not ours (the session picker's prompt library sets raw mode itself): raw mode at least.
    try {
      if (process.stdin.isTTY && process.stdin.isRaw) process.stdin.setRawMode(false);
    } catch {
      // Gone with the terminal.
    }
    return;
  }
  try {
    modes.input.setRawMode(modes.wasRaw);
  } catch {
    // Gone with the terminal.
  }
  if (modes.paste) pasteOffDirect(modes.output, "\n");
}

/** Bracketed paste off, straight to the descriptor (the stream may be muted, and process.exit may follow); nothing to a terminal that hung up. */
function pasteOffDirect(output: NodeJS.WriteStream, after = ""): void {
  if (!terminalIsThere(output)) return;
  try {
    const { writeSync } = require("node:fs") as typeof import("node:fs");
    writeSync((output as { fd?: number }).fd ?? 1, PASTE_OFF + after);
  } catch {
    // Hung up between the check and the write.
  }
}

/**
 * Rows drawn under the cursor (the live area's status line), each by what
 * erases them. muteTerminal erases them first: awl stops drawing, and the
 * shell's next prompt, written where the cursor is, must not find a status
 * line left below it.
 */
const drawnBelow = new Set<() => void>();

/** Registers rows drawn under the cursor; the function returned says they are gone. */
export function drawnUnderCursor(erase: () => void): () => void {
  drawnBelow.add(erase);
  return () => drawnBelow.delete(erase);
}

/**
 * Stops drawing: from now on every write to a terminal (stdout or stderr) is
 * dropped. After a stop signal awl draws nothing more (a spinner, the rest of
 * a stream, a prompt): after SIGHUP the terminal is gone and a write to it
 * fails, and otherwise the person asked awl to stop. Done on the streams
 * themselves so that every writer, awl's own and a library's, is covered.
 */
export function muteTerminal(): void {
  for (const erase of drawnBelow) erase();
  drawnBelow.clear();
  for (const stream of [process.stdout, process.stderr]) if (stream.isTTY) mute(stream);
}

/** Whether `stream`'s terminal is still there to be written to (a hung-up one is not, and a write to it fails). */
export function terminalIsThere(stream: NodeJS.WriteStream): boolean {
  const { isatty } = require("node:tty") as typeof import("node:tty");
  return isatty((stream as { fd?: number }).fd ?? 1);
}

/** Makes every later write to `stream` a no-op that succeeds (callbacks still run, so nobody waits forever). */
export function mute(stream: NodeJS.WriteStream): void {
  muted.add(stream);
  stream.write = ((_chunk: unknown, encodingOrCallback?: unknown, callback?: unknown) => {
    const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    if (typeof done === "function") queueMicrotask(() => done());
    return true;
  }) as typeof stream.write;
}
