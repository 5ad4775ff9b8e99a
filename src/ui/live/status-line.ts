// What a turn is doing right now, under its output on a terminal (drawn by
// ./live-area.ts, so it is never part of the output): the tool calls the model
// is still writing, each on the line that will announce it (`● write src/a.ts`,
// from the moment its name and main argument arrive, with the input's size as
// it grows), the last lines a running bash command printed, replaced in place,
// while the model thinks one row saying for how long (`∴ Thinking… 4s`: the
// thought itself stays folded), and one status line for the whole turn:
//
//   ⠙ Running bash (12s · ↓ 1.2k tokens · esc to interrupt)
//
// A spinner, what is going on, the turn's elapsed time (the only time on the
// line: a tool's own would read as the same figure twice), its tokens so far
// (output counted as it streams, at 4 characters a token, until the API says
// how many it was; input once the first response has said), and how to
// interrupt. On a narrow terminal the less useful parts go first. It is
// redrawn every TICK_MS, and whenever what it shows changes shape (a new
// phase, a new call); a growing size or output waits for the next tick.
//
// Everything from a model or a tool is made safe (./safe-text.ts) here, before
// it is styled. When the output is not a terminal, nothing of this is drawn.

import type { Usage } from "../../providers/provider";
import type { Colors } from "../render/colors";
import { compactNumber, expandTabs, fitWidth, oneLine } from "../render/format";
import type { LiveArea } from "./live-area";
import { safeText } from "../render/safe-text";
import { InputPeek } from "./tool-input-peek";
import type { SubagentRows } from "./subagent-rows";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
export const TICK_MS = 100;
/** Lines of a running command's output shown under its line. */
export const TAIL_LINES = 4;

/** A tool call as the model writes it: shown under the output until it runs. */
export class StreamingCall {
  readonly peek: InputPeek;
  /** The input's JSON text so far (the call's line, if it is never run, is shown from it like any other). */
  input = "";
  /** Its block has ended: the call is complete (one cut off mid-input is dropped, never run). */
  complete = false;

  constructor(
    readonly id: string,
    readonly name: string,
    field: string | undefined,
  ) {
    this.peek = new InputPeek(field);
  }

  push(text: string): void {
    this.input += text;
    this.peek.push(text);
  }
}

export class TurnStatus {
  readonly #live: LiveArea;
  readonly #c: Colors;
  readonly #now: () => number;
  readonly #started: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #frame = 0;
  #label = "Working…";
  /** The running tool: its name and the end of what it has printed. */
  #tool: { label: string; tail: string } | undefined;
  /** A thinking block is streaming, since then: one row says so, and for how long. */
  #thinkingSince: number | undefined;
  /** Calls streamed in and not run yet, in order. */
  #calls: readonly StreamingCall[] = [];
  /** Tokens the API reported for the turn's finished responses. */
  #input = 0;
  #output = 0;
  /** Characters streamed in the current response, until it reports its usage. */
  #streamed = 0;
  #hidden = false;
  #stopped = false;
  /** The subagents at work: a row each (the renderer keeps them). */
  #subagents: SubagentRows | undefined;

  constructor(live: LiveArea, c: Colors, now: () => number = Date.now) {
    this.#live = live;
    this.#c = c;
    this.#now = now;
    this.#started = now();
  }

  /** The subagents whose rows are drawn above the status line. */
  showSubagents(subagents: SubagentRows): void {
    this.#subagents = subagents;
  }

  /** What is going on: "Thinking…", "Waiting for <model>…" (safe text). Shown at once. */
  phase(label: string): void {
    this.#label = label;
    this.#tool = undefined;
    this.update();
  }

  /** A request goes out: its output is counted anew. */
  request(model: string): void {
    this.#streamed = 0;
    this.phase(`Waiting for ${oneLine(model, 60)}…`);
  }

  /** Characters of the response as they stream (text, thinking, a call's input). */
  streamed(characters: number): void {
    this.#streamed += characters;
  }

  /** The response ended, with what the API counted. */
  responded(usage: Usage | undefined): void {
    this.#streamed = 0;
    if (!usage) return;
    this.#input += usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
    this.#output += usage.output;
  }

  /** The calls streamed in and not run yet (the list is read at each draw). */
  calls(calls: readonly StreamingCall[]): void {
    this.#calls = calls;
    this.update();
  }

  /** A tool starts running. */
  running(name: string): void {
    this.#tool = { label: `Running ${oneLine(name, 40)}`, tail: "" };
    this.update();
  }

  /** A thinking block started streaming (`since`), or ended (undefined): its text stays folded. */
  thinking(since: number | undefined): void {
    this.#thinkingSince = since;
    this.update();
  }

  /** The latest output of the running tool (scrubbed by runCall; made safe here). Shown at the next tick. */
  output(tail: string): void {
    if (this.#tool) this.#tool.tail = tail;
  }

  /** While the person answers a question about a call (which shows the call): only the typed-ahead row stays. */
  hide(): () => void {
    this.#hidden = true;
    this.update();
    return () => {
      this.#hidden = false;
      this.update();
    };
  }

  /** Draws the rows now, and keeps them ticking. */
  update(): void {
    if (this.#stopped || !this.#live.drawing) return;
    this.#timer ??= setInterval(() => {
      this.#frame++;
      this.update();
    }, TICK_MS);
    this.#timer.unref?.();
    this.#live.setRows(this.#hidden ? [] : this.rows());
  }

  /** The turn is over: the rows go (the typed-ahead row stays, until the REPL takes it). */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#live.setRows([]);
  }

  /** The rows as they are now, top to bottom: the running tool's output, the calls streaming in, the status line. */
  rows(columns = this.#columns()): string[] {
    const c = this.#c;
    const width = Math.max(10, columns - 1);
    const rows: string[] = [];
    if (this.#tool) rows.push(...tailRows(this.#tool.tail, width).map((row) => c.dim(row)));
    for (const call of this.#calls) rows.push(callRow(call, c, width));
    rows.push(...(this.#subagents?.rows(c, width) ?? []));
    if (this.#thinkingSince !== undefined) rows.push(c.dim(fitWidth(`∴ Thinking… ${seconds(this.#now() - this.#thinkingSince)}`, width)));
    rows.push(this.#statusRow(width));
    return rows;
  }

  #columns(): number {
    return this.#live.stream.columns || 80;
  }

  #statusRow(width: number): string {
    const c = this.#c;
    const now = this.#now();
    const frame = FRAMES[this.#frame % FRAMES.length]!;
    const elapsed = seconds(now - this.#started);
    // One time on the line, the turn's: a tool's own would say nearly the same thing twice.
    const label = this.#tool ? this.#tool.label : this.#label;
    const output = this.#output + Math.ceil(this.#streamed / 4);
    const tokens = output || this.#input ? `${this.#input ? `↑ ${compactNumber(this.#input)} ` : ""}↓ ${compactNumber(output)}` : "";
    const fits = (text: string) => Bun.stringWidth(text) <= width;
    const inside = (...parts: string[]) => parts.filter(Boolean).join(" · ");
    const candidates = [
      `${frame} ${label} (${inside(elapsed, tokens && `${tokens} tokens`, "esc to interrupt")})`,
      `${frame} ${label} (${inside(elapsed, tokens, "esc to interrupt")})`,
      `${frame} ${label} (${inside(elapsed, "esc to interrupt")})`,
      `${frame} ${label} (${elapsed} · esc)`,
      `${frame} ${label} (${elapsed})`,
    ];
    const row = candidates.find(fits) ?? fitWidth(candidates.at(-1)!, width);
    return `${c.cyan(row.slice(0, frame.length))}${c.dim(row.slice(frame.length))}`;
  }
}

/** "12s", "2m 05s". */
export function seconds(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
}

/** "312 bytes", "1.2kB", "45MB". */
export function size(bytes: number): string {
  return bytes < 1000 ? `${bytes} byte${bytes === 1 ? "" : "s"}` : `${compactNumber(bytes)}B`;
}

/** `● write src/a.ts 12kB`: the line that will announce the call, while its input streams. */
function callRow(call: StreamingCall, c: Colors, width: number): string {
  const name = oneLine(call.name, 40);
  const sized = size(call.peek.bytes);
  const room = width - Bun.stringWidth(name) - Bun.stringWidth(sized) - 4;
  const argument = call.peek.value === undefined || room < 4 ? "" : `${oneLine(call.peek.value, room)} `;
  return `${c.cyan("●")} ${c.bold(name)} ${argument}${c.dim(sized)}`;
}

/**
 * The last TAIL_LINES lines of a running command's output as a terminal would
 * show them: a line a CR went back over shows what was written last (a
 * progress bar), colours are dropped, the rest made safe; indented under the
 * command's line and cut to `width`.
 */
export function tailRows(tail: string, width: number): string[] {
  const lines = tail.replace(/\r?\n$/, "").split("\n").slice(-TAIL_LINES);
  if (lines.length === 1 && lines[0] === "") return [];
  return lines.map((line) => {
    const shown = line.replace(/\r$/, "");
    const last = shown.slice(shown.lastIndexOf("\r") + 1);
    return fitWidth(`    ${expandTabs(safeText(Bun.stripANSI(last)))}`, width);
  });
}
