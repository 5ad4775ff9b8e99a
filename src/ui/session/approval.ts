// The REPL's question before a tool acts (`--approve ask`): what the call will
// do (the command; for a call that writes a file, the diff it would make), then one key,
// no Enter: y yes, a always (until awl exits), s always and save (the rule
// goes into the person's settings.json, for later sessions too), n no, then one optional line
// of reason for the model (Enter skips it). Esc or Ctrl+C interrupts the
// turn. Every row is wrapped between words to the terminal's width, never
// cut: the command, the path, the diff and the choices. A call taller than
// the screen is shown through a window that ↑ ↓ PgUp PgDn Home End move,
// with the rows shown and their total under it; the choices stay on screen
// below, and a resize draws it all again at the new width. Keys typed before
// the question is drawn never answer it: input that was already on its way is
// read and dropped first. Once answered, the question is erased, and the
// turn's renderer shows the call as usual. What the turn writes meanwhile (a
// subagent that ends while another's question is up) goes above the
// question, which is drawn again under it: nothing is ever written after its
// last row, where the erase that follows the answer would miscount its rows.
//
// Without a terminal on both ends (input piped in), the answer is a line:
// y, a, s or n, and after n one more line for the reason.

import { isAbsolute, relative } from "node:path";
import type { ApprovalAnswer, ApprovalRequest, Ask } from "../../agent/approval";
import { providerSecrets } from "../../providers/registry";
import { fileChange } from "../../tools/tool";
import type { Colors } from "../render/colors";
import { renderChange } from "../render/diff-view";
import { eraseRows } from "../render/erase-rows";
import { expandTabs, joinParts, wrapLine } from "../render/format";
import { readPipedLine } from "../input/input-pipe";
import { enterRawMode } from "../input/input-modes";
import { type Key, KeyDecoder } from "../input/keys";
import { safeText } from "../render/safe-text";

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
  /** Given, while the question is up, the function the turn's other output goes through (it writes above the question); given undefined once the question is gone. */
  showAbove?(write: ((text: string) => void) | undefined): void;
  env?: Record<string, string | undefined>;
}

/** Input already on its way when the question comes is read for this long, and dropped, before the question is drawn. */
export const DRAIN_MS = 30;
/** How long a lone ESC waits for the rest of a sequence before it counts as the Escape key (as in the line editor). */
const ESCAPE_WAIT_MS = 40;
/** Rows of diff shown at most, in the window or on lines: past them, a count of the lines left out. */
const MAX_DIFF_ROWS = 2000;
/** Rows kept free under the question's window: the typed-ahead row, a margin. */
const SCREEN_MARGIN = 3;

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
  // A subagent's call is labelled with it: the person knows whose question it is.
  const head = `${c.cyan("●")} ${request.agent ? c.magenta(`[${safeText(request.agent)}] `) : ""}${c.bold(request.tool)} `;
  const wrap = (text: string) => wrapLine(text, width, "    ");
  if (request.effect.kind === "exec") {
    const command = safeText(request.effect.command);
    // Why a command that would have run unasked is asked about (a git probe that did not answer in time).
    const note = request.note ? wrap(`    ${c.dim(`asked because ${safeText(request.note)}`)}`) : [];
    if (!command.includes("\n")) return [...wrap(head + command), ...note];
    return [head.trimEnd(), ...command.split("\n").flatMap((line) => wrap(`    ${expandTabs(line)}`)), ...note];
  }
  const rows = wrap(head + safeText(relativePath(request.effect.path, cwd)));
  const proposed = request.proposed;
  if (!proposed) return rows;
  if (proposed.note) rows.push(...wrap(`    ${c.dim(`(${proposed.note})`)}`));
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
  return `  ${choices(request, c).join(" · ")}`;
}

/** The question's rows at `width`: the choices kept whole where they fit, a choice wider than a row wrapped between words. */
export function questionRows(request: ApprovalRequest, c: Colors, width: number): string[] {
  return joinParts(choices(request, c), width - 2)
    .split("\n")
    .flatMap((row) => wrapLine(`  ${row}`, width, "    "));
}

function choices(request: ApprovalRequest, c: Colors): string[] {
  const verb = request.effect.kind === "exec" ? "Run it?" : request.proposed?.whole ? "Write it?" : "Make this edit?";
  const key = (k: string) => c.bold(k);
  const always = request.always ? [`${key("a")} always (${safeText(request.always.join(", "))}, until awl exits)`] : [];
  const save = request.save ? [`${key("s")} always, and save (${safeText(request.save.join(", "))} in your settings)`] : [];
  return [`${c.yellow(verb)} ${key("y")} yes`, ...always, ...save, `${key("n")} no`, `${key("Esc")} stop`];
}

/**
 * What the question shows on a screen `rows` high: the call's rows through a
 * window from `top` when they do not all fit (the header stays above it, a
 * dim line under it says which rows are shown), then the question's rows.
 * `top` comes back clamped to where the window can be.
 */
export function questionScreen(call: readonly string[], question: readonly string[], rows: number, top: number, c: Colors, width = Number.POSITIVE_INFINITY): { rows: string[]; top: number; room: number } {
  const room = Math.max(3, rows - question.length - SCREEN_MARGIN);
  if (call.length <= room) return { rows: [...call, ...question], top: 0, room };
  const [header = "", ...body] = call;
  const where = (at: number, end: number) => wrapLine(c.dim(`    rows ${at + 1}-${end} of ${body.length} · ↑ ↓ PgUp PgDn to scroll`), width, "    ");
  // The header, then the window, then the line (or two, on a narrow screen) saying where it is.
  const height = Math.max(1, room - 1 - where(body.length, body.length).length);
  const at = Math.max(0, Math.min(top, body.length - height));
  const end = Math.min(body.length, at + height);
  return { rows: [header, ...body.slice(at, end), ...where(at, end), ...question], top: at, room: height };
}

const REASON_PROMPT = "  Why not? (optional, for the model; Enter to skip) › ";
/** The prompt on a screen too narrow for it and a few words of reason. */
const SHORT_REASON_PROMPT = "  Why not? › ";

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
    let top = 0;
    let page = 1;
    /** The rows last drawn, by width: what a resize reflows. */
    let drawnWidths: number[] = [];
    let questionHeight = 1;
    let callRows: { width: number; rows: string[] } | undefined;
    /** Output for above the question that has not ended its row yet: it waits for the row's end, or for the question to go. */
    let pendingAbove = "";

    const erase = (columns?: number) => {
      if (!drawn) return "";
      // After a resize the terminal has reflowed the rows (tmux and most terminals do): a row wider than the screen now takes several.
      const heights = drawnWidths.map((w) => (columns ? Math.max(1, Math.ceil(w / columns)) : 1));
      const up = heights.reduce((a, b) => a + b, 0) - 1;
      return eraseRows(up);
    };
    /** Draws the question (again), with `before` written where it was: output that goes above it. */
    const draw = (columns?: number, before = "") => {
      const w = width();
      if (callRows?.width !== w) callRows = { width: w, rows: describeCall(request, c, w, o.cwd, MAX_DIFF_ROWS, o.env) }; // read and diffed once a width, not once a key
      const call = callRows.rows;
      const question = questionRows(request, c, w);
      questionHeight = question.length;
      const screen = questionScreen(call, question, size.rows || 24, top, c, w);
      top = screen.top;
      page = screen.room;
      // While the reason is typed, its row has taken the place of the question's.
      const rows = phase === "reason" ? [...screen.rows.slice(0, screen.rows.length - question.length), reasonRow()] : screen.rows;
      out.write(erase(columns) + before + rows.join("\n"));
      drawnWidths = rows.map((row) => Bun.stringWidth(row));
      above = rows.length - 1;
      drawn = true;
    };
    /** The turn's other output while the question is up: written where the question was, whole rows at a time, the question drawn again under it. */
    const writeAbove = (text: string) => {
      if (done || !drawn) {
        out.write(text);
        return;
      }
      pendingAbove += text;
      const end = pendingAbove.lastIndexOf("\n") + 1;
      if (!end) return;
      const rows = pendingAbove.slice(0, end);
      pendingAbove = pendingAbove.slice(end);
      try {
        draw(undefined, rows);
      } catch {
        finish({ kind: "interrupted" }); // the terminal failed: stop, as Ctrl+C would
      }
    };
    const onResize = () => {
      try {
        draw(size.columns || 80); // at the reason too: its row in place of the question's
      } catch {
        finish({ kind: "interrupted" }); // the terminal failed: stop, as Ctrl+C would
      }
    };
    const scroll: Partial<Record<string, () => number>> = {
      up: () => top - 1,
      down: () => top + 1,
      pageup: () => top - page,
      pagedown: () => top + page,
      home: () => 0,
      end: () => Number.MAX_SAFE_INTEGER,
    };
    const reasonRow = () => {
      const prompt = width() - REASON_PROMPT.length >= 20 ? REASON_PROMPT : SHORT_REASON_PROMPT;
      const room = Math.max(5, width() - prompt.length);
      const shown = safeText(reason);
      const tail = Bun.stringWidth(shown) > room ? `…${Bun.sliceAnsi(shown, Bun.stringWidth(shown) - room + 1)}` : shown;
      return `${c.yellow(prompt)}${tail}`;
    };
    const drawReason = () => {
      const row = reasonRow();
      drawnWidths[drawnWidths.length - 1] = Bun.stringWidth(row);
      out.write(`\r\x1b[K${row}`);
    };
    const finish = (answer: ApprovalAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(escapeTimer);
      clearTimeout(drainTimer);
      input.off("data", onData);
      size.off?.("resize", onResize);
      signal.removeEventListener("abort", onAbort);
      try {
        // (A row of the output that had not ended yet goes where the question was: the output's next write continues it.)
        if (drawn) out.write(eraseRows(above) + pendingAbove);
      } finally {
        o.showAbove?.(undefined);
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
          const move = key.type === "key" ? scroll[key.name] : undefined;
          if (move) {
            top = Math.max(0, move());
            draw();
            continue;
          }
          if (key.type !== "text") continue;
          const choice = key.text[0]!.toLowerCase();
          if (choice === "y") return finish({ kind: "yes" });
          if (choice === "a" && request.always) return finish({ kind: "always" });
          if (choice === "s" && request.save) return finish({ kind: "save" });
          if (choice === "n") {
            // The reason's row takes the place of the question's rows.
            const up = questionHeight - 1;
            if (up > 0) out.write(eraseRows(up));
            above -= up;
            // What is on screen now, for the next erase (output written above, a resize): the question's rows are one row.
            drawnWidths = drawnWidths.slice(0, drawnWidths.length - up);
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
    o.showAbove?.(writeAbove);
    size.on?.("resize", onResize);
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
  out.write(`${[...describeCall(request, c, width, o.cwd, MAX_DIFF_ROWS, o.env), ...questionRows(request, c, width)].join("\n")}\n`);
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
    if (choice === "s" && request.save) return { kind: "save" };
    if (choice === "n") {
      out.write(`${c.yellow(REASON_PROMPT.trimEnd())}\n`);
      const reason = (await line())?.trim();
      return { kind: "no", ...(reason ? { reason } : {}) };
    }
    out.write(`${c.dim(`  Answer y${request.always ? ", a" : ""}${request.save ? ", s" : ""} or n.`)}\n`);
  }
}
