// The REPL's question before a tool acts (`--approve ask`): what the call will
// do (the command; for a call that writes a file, the diff it would make), then one key,
// no Enter: y yes, a always (until awl exits), n no, then one optional line
// of reason for the model (Enter skips it). Esc or Ctrl+C interrupts the
// turn. Keys typed before the question is drawn never answer it: input that
// was already on its way is read and dropped first. Once answered, the
// question is erased, and the turn's renderer shows the call as usual.
//
// Without a terminal on both ends (input piped in), the answer is a line:
// y, a or n, and after n one more line for the reason.

import { isAbsolute, relative } from "node:path";
import type { ApprovalAnswer, ApprovalRequest, Ask } from "../agent/approval";
import { providerSecrets } from "../tools";
import { fileChange } from "../tools/tool";
import type { Colors } from "./colors";
import { renderChange } from "./diff-view";
import { fitWidth, oneLine, previewLines } from "./format";
import { readPipedLine } from "./input-pipe";
import { enterRawMode } from "./input-modes";
import { type Key, KeyDecoder } from "./keys";
import { safeText } from "./safe-text";
import { wrapText } from "./wrap";

export interface AskOptions {
  /** The terminal: its modes are set on it. */
  out: NodeJS.WriteStream;
  /** Where the question is drawn, when not straight to `out` (the REPL's stream that keeps the typed-ahead row under it). */
  draw?: { write(text: string): unknown };
  input?: NodeJS.ReadStream;
  c: Colors;
  /** Where the tools run: relative paths in a write or edit resolve against it. */
  cwd: string;
  /** Interrupts the turn (Esc or Ctrl+C at the question, or the end of piped input). */
  interrupt(): void;
  /** Stops watching for Ctrl+C while the question reads keys itself; returns the function that watches again. */
  pauseWatching(): () => void;
  env?: Record<string, string | undefined>;
}

/** Input already on its way when the question comes is read for this long, and dropped, before the question is drawn. */
export const DRAIN_MS = 30;
/** How long a lone ESC waits for the rest of a sequence before it counts as the Escape key (as in the line editor). */
const ESCAPE_WAIT_MS = 40;
const MAX_COMMAND_LINES = 12;
const MAX_DIFF_ROWS = 20;

export function terminalAsk(options: AskOptions): Ask {
  return async (request, signal) => {
    const input = options.input ?? process.stdin;
    if (signal.aborted) return { kind: "interrupted" };
    if (!input.isTTY || !options.out.isTTY) return askOnLines(request, signal, input, options);
    const watchAgain = options.pauseWatching();
    try {
      return await askOnTerminal(request, signal, input, options);
    } finally {
      watchAgain();
    }
  };
}

/** The rows that show the call: its header, then the command's lines or the diff. Each fits in `width` columns. */
export function describeCall(request: ApprovalRequest, c: Colors, width: number, cwd: string, maxRows = MAX_DIFF_ROWS, env: Record<string, string | undefined> = process.env): string[] {
  const head = `${c.cyan("●")} ${c.bold(request.tool)} `;
  const room = Math.max(10, width - request.tool.length - 3);
  if (request.effect.kind === "exec") {
    const { command } = request.effect;
    // Why a command that would have run unasked is asked about (a git probe that did not answer in time).
    const note = request.note ? wrapText(safeText(`asked because ${request.note}`), width - 4).split("\n").map((l) => c.dim(`    ${l}`)) : [];
    if (!command.includes("\n") && Bun.stringWidth(safeText(command)) <= room) return [head + safeText(command), ...note];
    const { lines, more } = previewLines(command, Math.min(MAX_COMMAND_LINES, maxRows), width - 4);
    return [head.trimEnd(), ...lines.map((l) => `    ${l}`), ...(more ? [c.dim(`    … ${more} more line${more === 1 ? "" : "s"}`)] : []), ...note];
  }
  const rows = [head + oneLine(relativePath(request.effect.path, cwd), room)];
  const proposed = request.proposed;
  if (!proposed) return rows;
  if (proposed.note) rows.push(c.dim(`    (${proposed.note})`));
  const change = fileChange(proposed.change, providerSecrets(env));
  rows.push(...renderChange(change, c, width - 4, maxRows).map((row) => `    ${row}`));
  return rows;
}

/** A path as the person gave it, near enough: relative to the working directory when it is inside it. */
function relativePath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

/** The question's own line: what each key does. */
export function questionLine(request: ApprovalRequest, c: Colors): string {
  const verb = request.effect.kind === "exec" ? "Run it?" : request.proposed?.change.created ? "Write it?" : "Make this edit?";
  const key = (k: string) => c.bold(k);
  const always = request.always ? ` · ${key("a")} always (${safeText(request.always.join(", "))}, until awl exits)` : "";
  return `  ${c.yellow(verb)} ${key("y")} yes${always} · ${key("n")} no · ${key("Esc")} stop`;
}

const REASON_PROMPT = "  Why not? (optional, for the model; Enter to skip) › ";

function askOnTerminal(request: ApprovalRequest, signal: AbortSignal, input: NodeJS.ReadStream, o: AskOptions): Promise<ApprovalAnswer> {
  const { c } = o;
  const out = o.draw ?? o.out;
  const size = o.out;
  return new Promise((settle) => {
    const restore = enterRawMode(input, o.out);
    const decoder = new KeyDecoder();
    let phase: "draining" | "choosing" | "reason" = "draining";
    let reason = "";
    /** Rows above the cursor's row that the question drew (the cursor stays on its last row). */
    let above = 0;
    let drawn = false;
    let done = false;
    let escapeTimer: ReturnType<typeof setTimeout> | undefined;
    let drainTimer: ReturnType<typeof setTimeout> | undefined;
    const width = () => Math.max(20, (size.columns || 80) - 1);

    const draw = () => {
      const rowsFree = Math.max(3, (size.rows || 24) - 6);
      const rows = [...describeCall(request, c, width(), o.cwd, Math.min(MAX_DIFF_ROWS, rowsFree), o.env), questionLine(request, c)].map((r) => fitWidth(r, width()));
      out.write(rows.join("\n"));
      above = rows.length - 1;
      drawn = true;
    };
    const drawReason = () => {
      const room = Math.max(5, width() - Bun.stringWidth(REASON_PROMPT));
      const shown = safeText(reason);
      const tail = Bun.stringWidth(shown) > room ? `…${Bun.sliceAnsi(shown, Bun.stringWidth(shown) - room + 1)}` : shown;
      out.write(`\r\x1b[K${c.yellow(REASON_PROMPT)}${tail}`);
    };
    const finish = (answer: ApprovalAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(escapeTimer);
      clearTimeout(drainTimer);
      input.off("data", onData);
      signal.removeEventListener("abort", onAbort);
      try {
        if (drawn) out.write(`\r${above > 0 ? `\x1b[${above}A` : ""}\x1b[J`);
      } finally {
        restore();
        settle(answer);
      }
    };
    const onAbort = () => finish({ kind: "interrupted" });

    const apply = (keys: Key[]) => {
      for (const key of keys) {
        if (done) return;
        if (key.type === "key" && ((key.name === "c" && key.ctrl) || (key.name === "escape" && !key.alt))) {
          o.interrupt();
          return finish({ kind: "interrupted" });
        }
        if (phase === "draining") continue; // typed before the question was there
        if (phase === "choosing") {
          if (key.type !== "text") continue;
          const choice = key.text[0]!.toLowerCase();
          if (choice === "y") return finish({ kind: "yes" });
          if (choice === "a" && request.always) return finish({ kind: "always" });
          if (choice === "n") {
            phase = "reason";
            reason = key.text.slice(1);
            drawReason();
          }
          continue;
        }
        if (key.type === "text" || key.type === "paste") reason += key.text.replace(/\s*\n\s*/g, " ");
        else if (key.name === "enter" && !key.alt && !key.ctrl && !key.shift) return finish({ kind: "no", ...(reason.trim() ? { reason: reason.trim() } : {}) });
        else if (key.name === "backspace") reason = Array.from(reason).slice(0, -1).join("");
        else if (key.name === "u" && key.ctrl) reason = "";
        else continue;
        drawReason();
      }
    };
    const onData = (chunk: Buffer | string) => {
      clearTimeout(escapeTimer);
      try {
        apply(decoder.push(chunk));
        if (!done && decoder.pending) escapeTimer = setTimeout(() => apply(decoder.flush()), ESCAPE_WAIT_MS);
      } catch {
        finish({ kind: "interrupted" }); // the terminal failed: stop, as Ctrl+C would
      }
    };

    signal.addEventListener("abort", onAbort, { once: true });
    input.on("data", onData);
    input.resume();
    drainTimer = setTimeout(() => {
      if (done) return;
      try {
        draw();
        phase = "choosing";
      } catch {
        o.interrupt();
        finish({ kind: "interrupted" });
      }
    }, DRAIN_MS);
  });
}

/** Piped input: the question as lines, the answer as a line (y, a or n), and after n the reason as one more. */
async function askOnLines(request: ApprovalRequest, signal: AbortSignal, input: NodeJS.ReadStream, o: AskOptions): Promise<ApprovalAnswer> {
  const { out, c } = o;
  const width = Math.max(20, (out.columns || 100) - 1);
  out.write(`${[...describeCall(request, c, width, o.cwd, MAX_DIFF_ROWS, o.env), questionLine(request, c)].join("\n")}\n`);
  const aborted = new Promise<"aborted">((done) => signal.addEventListener("abort", () => done("aborted"), { once: true }));
  const line = async () => {
    const got = await Promise.race([readPipedLine(input), aborted]);
    return got === "aborted" || got.kind === "quit" ? undefined : got.text;
  };
  for (;;) {
    const answer = await line();
    if (answer === undefined) {
      if (!signal.aborted) o.interrupt();
      return { kind: "interrupted" };
    }
    const choice = answer.trim()[0]?.toLowerCase();
    if (choice === "y") return { kind: "yes" };
    if (choice === "a" && request.always) return { kind: "always" };
    if (choice === "n") {
      out.write(`${c.yellow(REASON_PROMPT.trimEnd())}\n`);
      const reason = (await line())?.trim();
      return { kind: "no", ...(reason ? { reason } : {}) };
    }
    out.write(`${c.dim(`  Answer y${request.always ? ", a" : ""} or n.`)}\n`);
  }
}
