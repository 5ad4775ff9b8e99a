// Shows a turn as it happens, in the terminal: the answer rendered as markdown
// as it streams (./markdown-stream.ts), thinking folded into one line (`∴
// Thought for 4s`; while it streams, a row under the output says for how long
// so far, and the status line says Thinking), one line per tool call
// with a short dimmed preview of its result (a diff for write and edit), errors
// in red, a small usage line at the end (those lines are ./turn-lines.ts,
// which the resume transcript shares). Everything a model, a tool or an API
// sent is shown through safeText (./safe-text.ts) before it is rendered or
// styled, so none of it can drive the terminal.
//
// Given the REPL's LiveArea, it also keeps the rows under the output up to
// date (./status-line.ts): the status line, the calls the model is still
// writing, a running command's latest output. Those rows are never part of the
// output; the answer's growing block is kept short enough to stay on the
// screen above them. A call is announced in the output when it runs; one the
// turn ended before it ran is shown as not run.
//
// With colour off (NO_COLOR, TERM=dumb, not a terminal) the answer is its
// markdown source, wrapped by display width, with no escape sequence in it.

import type { AgentEvent, TurnResult } from "../../agent/events";
import type { ContentBlock } from "../../conversation";
import { summaryField, toolSummary } from "../../tools";
import type { Colors } from "../render/colors";
import { oneLine, retryText, wrapLines } from "../render/format";
import type { LiveArea } from "./live-area";
import { MarkdownStream, type Screen } from "../render/markdown-stream";
import { safeText, SafeTextStream } from "../render/safe-text";
import { StreamingCall, TurnStatus } from "./status-line";
import { SubagentRows } from "./subagent-rows";
import { writtenRows, type RenderEntry } from "../session/extension-rows";
import { compactedRow, subagentLine, errorRow, cutOffOutput, interruptedRow, lengthRow, notRunRow, thoughtRow, toolLine, toolResultRows, toolWidth, unansweredRow, usageRow } from "./turn-lines";
import { WrapStream } from "../render/wrap";

type Out = { write(s: string): unknown; isTTY?: boolean; columns?: number; rows?: number };

/** Where answers wrap when the output is not a terminal (it has no width). */
const DEFAULT_COLUMNS = 80;

/** A streamed text block's view: markdown for an answer (with colour), wrapped source otherwise. */
interface TextView {
  push(safe: string): string;
  end(): string;
}

export class TurnRenderer {
  readonly #out: Out;
  readonly #status: TurnStatus | undefined;
  readonly #now: () => number;
  #blocks: ContentBlock["type"][] = [];
  /** The streamed text blocks, made safe delta by delta. */
  #streams = new Map<number, SafeTextStream>();
  /** How each of them is shown. */
  #views = new Map<number, TextView>();
  /** Tool calls of the current response, by block index, as they stream in. */
  #streaming = new Map<number, StreamingCall>();
  /** Calls streamed in and not run yet, in order. */
  #waiting: StreamingCall[] = [];
  #atLineStart = true;
  /** Characters of text and thinking the current response has streamed (what an interrupted one's output is estimated from). */
  #responseCharacters = 0;
  /** The last response, when it was cut off (interrupted or failed) after something streamed: the output the API had reported for it, and what had streamed. */
  #cut: { reported: number; characters: number } | undefined;
  /** The current response has streamed text or a complete call: something of it is kept. */
  #kept = false;
  /** The turn's last response failed or was cut off with nothing of it kept (see unansweredRow). */
  #unanswered = false;
  /** The thinking blocks streaming now, by block index: when each started. */
  #thinking = new Map<number, number>();
  /** The calls announced, by id (a subagent's row names its call's task; a result that comes after another call's line repeats its call's). */
  readonly #announced = new Map<string, { name: string; summary: string }>();
  /** The call whose line (or result) was written last. */
  #lastCall: string | undefined;
  /** The subagents at work, one row each under the output. */
  readonly #subagents: SubagentRows;
  /** The terminal's size as the answer's view reads it: live, so a resize during a stream shows. */
  readonly #screen: Screen;
  /** While a question about a call is up: what the output goes through instead (it writes above the question). */
  #above: ((text: string) => void) | undefined;

  /**
   * `live`: the rows under the output (the REPL's); everything is then
   * written through it, and it shows the status line. Without it nothing but
   * the output is drawn.
   */
  constructor(
    out: Out,
    private readonly c: Colors,
    live?: LiveArea,
    now: () => number = Date.now,
    /** The loaded extensions' renderers of their entries: an entry one renders is shown as it is written. */
    private readonly renderEntry?: RenderEntry,
  ) {
    this.#out = live ? live.stream : out;
    this.#now = now;
    this.#status = live ? new TurnStatus(live, c, now) : undefined;
    this.#subagents = new SubagentRows(now);
    this.#status?.showSubagents(this.#subagents);
    const size = this.#out;
    this.#screen = {
      get columns() {
        return size.columns || DEFAULT_COLUMNS;
      },
      // The growing block stays on the screen above the rows under it (its own margin holds the typed-ahead row).
      get rows() {
        return size.rows && live ? Math.max(4, size.rows - live.height + 1) : size.rows;
      },
    };
  }

  /** Every byte of the output goes out here. */
  #send(text: string): void {
    if (this.#above) this.#above(text);
    else this.#out.write(text);
  }

  #write(text: string): void {
    if (!text) return;
    this.#send(text);
    this.#atLineStart = text.endsWith("\n");
  }

  #line(text: string): void {
    this.#lines([text]);
  }

  /** Rows written at once (the rows under the output are drawn again once, not after each). */
  #lines(rows: readonly string[]): void {
    if (!rows.length) return;
    // A row wider than the terminal (an error's words, a notice) is wrapped between words rather than cut by the terminal mid-word.
    this.#write(`${this.#atLineStart ? "" : "\n"}${wrapLines(rows.join("\n"), this.#out.columns)}\n`);
  }

  get #width(): number {
    return toolWidth(this.#out.columns ?? 100);
  }

  /** Rendered markdown for an answer when colour is on; on a terminal, also its growing block, replaced in place. */
  #view(): TextView {
    if (this.c.isColorSupported) {
      return new MarkdownStream(this.#screen, Boolean(this.#out.isTTY));
    }
    const wrap = new WrapStream(this.#screen.columns);
    return { push: (safe) => wrap.push(safe), end: () => wrap.end() + (wrap.column > 0 ? "\n" : "") };
  }

  handle(event: AgentEvent): void {
    const status = this.#status;
    switch (event.type) {
      case "requestStart":
        this.#streaming.clear();
        this.#responseCharacters = 0;
        this.#cut = undefined;
        this.#kept = false;
        status?.request(safeText(event.model));
        return;
      case "blockStart":
        this.#blocks[event.index] = event.block.type;
        if (event.block.type === "toolUse") {
          const call = new StreamingCall(event.block.id, event.block.name, summaryField(event.block.name));
          this.#streaming.set(event.index, call);
          this.#waiting.push(call);
          status?.calls(this.#waiting);
          status?.phase(`Writing the ${oneLine(event.block.name, 40)} call…`);
          return;
        }
        if (event.block.type === "thinking") {
          status?.phase("Thinking…");
          if (event.block.redacted) this.#line(this.c.dim("(redacted thinking)"));
          else {
            this.#thinking.set(event.index, this.#now());
            status?.thinking(this.#now());
          }
          return;
        }
        this.#streams.set(event.index, new SafeTextStream());
        this.#views.set(event.index, this.#view());
        status?.phase("Answering…");
        if (!this.#atLineStart) this.#write("\n");
        return;
      case "delta": {
        status?.streamed(event.text.length);
        const kind = this.#blocks[event.index];
        if (kind === "text" || kind === "thinking") this.#responseCharacters += event.text.length;
        if (kind === "text" && event.text.trim()) this.#kept = true;
        const call = kind === "toolUse" ? this.#streaming.get(event.index) : undefined;
        if (call) {
          const argument = call.peek.value;
          call.push(event.text);
          if (call.peek.value !== argument) status?.update(); // the call's main argument, as soon as it arrives; its size at the next tick
        }
        if (kind !== "text") return; // thinking is folded: Ctrl+O shows it
        this.#writeText(event.index, this.#stream(event.index).push(event.text));
        return;
      }
      case "blockStop": {
        const kind = this.#blocks[event.index];
        const call = this.#streaming.get(event.index);
        if (call) {
          call.complete = true;
          this.#kept = true;
          status?.update(); // its whole size
        }
        if (kind === "thinking") this.#endThinking(event.index);
        if (kind !== "text") return;
        this.#endText(event.index);
        return;
      }
      case "signature":
        return;
      case "notice":
        this.#line(this.c.dim(safeText(event.text)));
        return;
      case "retry": {
        if (event.restart) return this.#restart(event);
        // One line that changes with each try: the status line when there is one, and the final failure is the error row.
        const text = retryText(event, safeText(event.reason));
        if (status) status.phase(text);
        else this.#line(this.c.yellow(text));
        return;
      }
      case "toolStart": {
        this.#waiting = this.#waiting.filter((call) => call.id !== event.id);
        status?.calls(this.#waiting);
        this.#line(toolLine(event.name, event.summary, this.c, this.#width));
        this.#announced.set(event.id, { name: event.name, summary: event.summary });
        this.#lastCall = event.id;
        status?.running(safeText(event.name));
        return;
      }
      case "subagent":
        if (this.#subagents.event(event.id, this.#announced.get(event.id)?.summary || event.name, event.event)) status?.update();
        return;
      case "toolOutput":
        status?.output(event.tail);
        return;
      case "toolEnd": {
        // Calls that ran at once (subagents) end in any order: a result under another call's line says again whose it is.
        const call = this.#announced.get(event.id);
        if (call && this.#lastCall !== event.id) this.#line(toolLine(call.name, call.summary, this.c, this.#width));
        this.#lastCall = event.id;
        const calls = this.#subagents.end(event.id);
        const state = event.output.interrupted ? "interrupted" : event.output.isError ? "stopped" : "done";
        if (calls !== undefined) this.#line(subagentLine(state, calls, this.c, this.#width));
        this.#lines(toolResultRows(event.output, this.c, this.#width, event.effect));
        status?.phase("Working…");
        return;
      }
      case "end":
        for (const index of [...this.#thinking.keys()]) this.#endThinking(index); // cut off mid-block
        for (const index of [...this.#streams.keys()]) this.#endText(index);
        status?.responded(event.usage);
        if (event.stopReason === "error" && this.#responseCharacters > 0) this.#cut = { reported: event.usage?.output ?? 0, characters: this.#responseCharacters };
        this.#unanswered = event.stopReason === "error" && !this.#kept;
        this.#endCalls(event.stopReason !== "toolUse" || event.aborted === true);
        if (event.stopReason === "error" && event.errorMessage && !event.aborted) this.#line(errorRow(event.errorMessage, this.c));
        if (event.stopReason === "length") this.#line(lengthRow(this.c));
        return;
      case "compacting":
        status?.phase(event.reason === "overflow" ? "The conversation is too long for the model; compacting…" : "Compacting the conversation…");
        return;
      case "compacted":
        this.#line(compactedRow(event, this.c));
        status?.phase("Working…");
        return;
      case "compactSkipped":
        this.#line(this.c.dim(`not compacted: ${safeText(event.reason)}`));
        return;
      case "extensionEntries":
        // Only what an extension renders is shown live (a resumed transcript shows the rest as dim lines): its bookkeeping stays quiet.
        for (const entry of event.entries) this.#lines(writtenRows(entry, this.c, this.#out.columns ?? 100, this.renderEntry));
        return;
    }
  }

  /**
   * The API failed the answer part-way and it is asked again: what was shown
   * of it stays in the scrollback, ended where it stopped, with a line that
   * says it starts again; its calls were never going to run, and are dropped.
   */
  #restart(event: Extract<AgentEvent, { type: "retry" }>): void {
    for (const index of [...this.#thinking.keys()]) this.#endThinking(index);
    for (const index of [...this.#streams.keys()]) this.#endText(index);
    const dropped = new Set(this.#streaming.values());
    this.#streaming.clear();
    this.#waiting = this.#waiting.filter((call) => !dropped.has(call));
    this.#status?.calls(this.#waiting);
    this.#blocks = [];
    this.#responseCharacters = 0;
    this.#kept = false;
    this.#line(this.c.yellow(`${retryText(event, safeText(event.reason))} · the answer starts again`));
  }

  /**
   * The response is over. A call cut off mid-input is dropped (it is never
   * run, nor kept); when the turn will not run the complete ones either
   * (`final`), each is shown now, as not run.
   */
  #endCalls(final: boolean): void {
    const cut = new Set([...this.#streaming.values()].filter((call) => !call.complete));
    this.#streaming.clear();
    this.#waiting = this.#waiting.filter((call) => !cut.has(call));
    if (final) this.#notRun();
    this.#status?.calls(this.#waiting);
  }

  /** The calls left waiting, shown as they would have been announced, each as not run. */
  #notRun(): void {
    this.#lines(this.#waiting.flatMap((call) => [toolLine(call.name, toolSummary(call.name, call.input), this.c, this.#width), notRunRow(this.c)]));
    this.#waiting = [];
  }

  #stream(index: number): SafeTextStream {
    let stream = this.#streams.get(index);
    if (!stream) this.#streams.set(index, (stream = new SafeTextStream()));
    return stream;
  }

  #viewOf(index: number): TextView {
    let view = this.#views.get(index);
    if (!view) this.#views.set(index, (view = this.#view()));
    return view;
  }

  /** Safe streamed text, through its view. */
  #writeText(index: number, safe: string): void {
    const shown = this.#viewOf(index).push(safe);
    if (!shown) return;
    this.#send(shown);
    this.#atLineStart = false; // a text view always ends its block at the start of a row (#endText)
  }

  /** A thinking block is over (or cut off): one line for it, with how long it took. */
  #endThinking(index: number): void {
    const since = this.#thinking.get(index);
    if (since === undefined) return;
    this.#thinking.delete(index);
    this.#status?.thinking(undefined);
    this.#line(thoughtRow(this.c, this.#now() - since));
  }

  /** The block is complete (or cut off): the rest of it, ending at the start of a row. */
  #endText(index: number): void {
    const view = this.#viewOf(index);
    const rest = view.push(this.#stream(index).end()) + view.end();
    if (rest) this.#send(rest);
    this.#streams.delete(index);
    this.#views.delete(index);
    this.#atLineStart = true;
  }

  /** After the turn: calls it never ran, the interruption notice, and the usage line with how full the context is (and `cost`, the session's so far). */
  finish(result: TurnResult, cost?: string): void {
    this.#status?.stop();
    this.#notRun();
    const cut = result.stopReason === "error" ? this.#cut : undefined;
    const counted = cut ? { ...result.usage, output: result.usage.output - cut.reported + cutOffOutput(cut.reported, cut.characters) } : result.usage;
    const usage = usageRow(counted, result.context, this.c, this.#out.columns ?? 100, { effort: result.effort, estimated: cut !== undefined, ...(cost ? { cost } : {}) });
    const unanswered = result.stopReason === "error" && this.#unanswered && !result.promptBlocked ? [unansweredRow(this.c, this.#out.columns ?? 100)] : [];
    this.#lines([...(result.aborted ? [interruptedRow(this.c)] : []), ...unanswered, ...(usage ? [usage] : [])]);
  }

  /** Takes the status rows away when the turn throws (e.g. the disk filled up), or when a compaction is done. */
  abandon(): void {
    this.#status?.stop();
    if (!this.#atLineStart) this.#write("\n");
  }

  /** While a question about a call is up (it shows the call itself): the status rows step aside. Returns the function that brings them back. */
  hideStatus(): () => void {
    return this.#status?.hide() ?? (() => {});
  }

  /**
   * While a question about a call is up, the output goes through `write`
   * (the question's: above it, the question drawn again under it), since
   * other calls (subagents) go on meanwhile; undefined: straight out again.
   */
  writeAbove(write: ((text: string) => void) | undefined): void {
    this.#above = write;
  }
}
