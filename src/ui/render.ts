// Shows a turn as it happens, in the terminal: the answer rendered as markdown
// as it streams (./markdown-stream.ts), thinking dimmed, one line per tool call
// with a short dimmed preview of its result (a diff for write and edit), errors
// in red, a small usage line at the end. Everything a model, a tool or an API
// sent is shown through safeText (./safe-text.ts) before it is rendered or
// styled, so none of it can drive the terminal.
//
// With colour off (NO_COLOR, TERM=dumb, not a terminal) the answer is its
// markdown source, wrapped by display width, with no escape sequence in it.

import type { AgentEvent, TurnResult } from "../agent/events";
import type { ContentBlock } from "../conversation";
import type { ToolOutput } from "../tools/tool";
import type { Colors } from "./colors";
import { renderChange } from "./diff-view";
import { compactedLine, meterText, oneLine, previewLines, usageText } from "./format";
import { MarkdownStream, type Screen } from "./markdown-stream";
import { safeText, SafeTextStream } from "./safe-text";
import { Spinner } from "./spinner";
import { WrapStream } from "./wrap";

type Out = { write(s: string): unknown; isTTY?: boolean; columns?: number; rows?: number };

/** Where answers wrap when the output is not a terminal (it has no width). */
const DEFAULT_COLUMNS = 80;
const PREVIEW_LINES = 3;

/** A streamed text block's view: markdown for an answer (with colour), wrapped source otherwise. */
interface TextView {
  push(safe: string): string;
  end(): string;
}

export class TurnRenderer {
  readonly #spinner: Spinner;
  #blocks: ContentBlock["type"][] = [];
  /** The streamed text and thinking blocks, made safe delta by delta. */
  #streams = new Map<number, SafeTextStream>();
  /** How each of them is shown. */
  #views = new Map<number, TextView>();
  #atLineStart = true;
  /** The terminal's size as the answer's view reads it: live, so a resize during a stream shows. */
  readonly #screen: Screen;

  constructor(
    private readonly out: Out,
    private readonly c: Colors,
  ) {
    this.#spinner = new Spinner(out, c.dim);
    this.#screen = {
      get columns() {
        return out.columns || DEFAULT_COLUMNS;
      },
      get rows() {
        return out.rows;
      },
    };
  }

  #write(text: string): void {
    if (!text) return;
    this.out.write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  #line(text: string): void {
    if (!this.#atLineStart) this.#write("\n");
    this.#write(`${text}\n`);
  }

  get #width(): number {
    return Math.max(40, (this.out.columns ?? 100) - 6);
  }

  /** Rendered markdown for an answer when colour is on; on a terminal, also its growing block, replaced in place. */
  #view(kind: ContentBlock["type"]): TextView {
    if (kind === "text" && this.c.isColorSupported) {
      return new MarkdownStream(this.#screen, Boolean(this.out.isTTY));
    }
    const wrap = new WrapStream(this.#screen.columns);
    return { push: (safe) => wrap.push(safe), end: () => wrap.end() + (wrap.column > 0 ? "\n" : "") };
  }

  handle(event: AgentEvent): void {
    if (event.type !== "requestStart" && event.type !== "retry") this.#spinner.stop();
    switch (event.type) {
      case "requestStart":
        this.#spinner.start(`waiting for ${safeText(event.model)}…`);
        return;
      case "blockStart":
        this.#blocks[event.index] = event.block.type;
        this.#streams.set(event.index, new SafeTextStream());
        this.#views.set(event.index, this.#view(event.block.type));
        if (event.block.type === "thinking" && event.block.redacted) this.#line(this.c.dim("(redacted thinking)"));
        else if (event.block.type === "thinking" || event.block.type === "text") {
          if (!this.#atLineStart) this.#write("\n");
        }
        return;
      case "delta": {
        const kind = this.#blocks[event.index];
        if (kind !== "text" && kind !== "thinking") return;
        this.#writeText(event.index, kind, this.#stream(event.index).push(event.text));
        return;
      }
      case "blockStop": {
        const kind = this.#blocks[event.index];
        if (kind !== "text" && kind !== "thinking") return;
        this.#endText(event.index, kind);
        return;
      }
      case "signature":
        return;
      case "retry":
        this.#spinner.stop();
        this.#line(this.c.yellow(`${safeText(event.reason)}; retrying in ${(event.delayMs / 1000).toFixed(1)} s (attempt ${event.attempt + 1})`));
        this.#spinner.start("waiting…");
        return;
      case "toolStart": {
        const name = oneLine(event.name, 60); // a model may name a tool that does not exist, with any bytes
        this.#line(`${this.c.cyan("●")} ${this.c.bold(name)} ${oneLine(event.summary, this.#width - name.length)}`);
        this.#spinner.start(`running ${name}…`);
        return;
      }
      case "toolEnd":
        this.#toolResult(event.output);
        return;
      case "end":
        for (const index of [...this.#streams.keys()]) this.#endText(index, this.#blocks[index]); // cut off mid-block
        if (event.stopReason === "error" && event.errorMessage && !event.aborted) this.#line(this.c.red(safeText(event.errorMessage)));
        if (event.stopReason === "length") this.#line(this.c.yellow("(the response hit the output token limit)"));
        return;
      case "compacting":
        this.#spinner.start(event.reason === "overflow" ? "the conversation is too long for the model; compacting…" : "compacting the conversation…");
        return;
      case "compacted":
        this.#line(this.c.dim(compactedLine(event)));
        return;
      case "compactSkipped":
        this.#line(this.c.dim(`nothing to compact: ${safeText(event.reason)}`));
        return;
    }
  }

  /**
   * A tool's result: its first lines as they would look in a terminal
   * (indentation and columns kept, cut by display width), and for write and
   * edit the diff of what they changed.
   */
  #toolResult(output: ToolOutput): void {
    const diff = output.change && !output.isError ? renderChange(output.change, this.c, this.#width) : undefined;
    const { lines, more } = previewLines(output.content, diff ? 1 : PREVIEW_LINES, this.#width);
    const style = output.isError ? this.c.red : this.c.dim;
    for (const [i, line] of lines.entries()) this.#line(style(`${i === 0 ? "  ⎿ " : "    "}${line}`));
    if (diff) for (const row of diff) this.#line(`    ${row}`);
    else if (more > 0) this.#line(this.c.dim(`    … ${more} more line${more === 1 ? "" : "s"}`));
  }

  #stream(index: number): SafeTextStream {
    let stream = this.#streams.get(index);
    if (!stream) this.#streams.set(index, (stream = new SafeTextStream()));
    return stream;
  }

  #viewOf(index: number, kind: ContentBlock["type"] | undefined): TextView {
    let view = this.#views.get(index);
    if (!view) this.#views.set(index, (view = this.#view(kind ?? "text")));
    return view;
  }

  /** Safe streamed text, through its view: rendered for an answer, dimmed for thinking. */
  #writeText(index: number, kind: ContentBlock["type"] | undefined, safe: string): void {
    const shown = this.#viewOf(index, kind).push(safe);
    if (!shown) return;
    this.out.write(kind === "thinking" ? this.c.dim(this.c.italic(shown)) : shown);
    this.#atLineStart = false; // a text view always ends its block at the start of a row (#endText)
  }

  /** The block is complete (or cut off): the rest of it, ending at the start of a row. */
  #endText(index: number, kind: ContentBlock["type"] | undefined): void {
    const view = this.#viewOf(index, kind);
    const rest = view.push(this.#stream(index).end()) + view.end();
    if (rest) this.out.write(kind === "thinking" ? this.c.dim(this.c.italic(rest)) : rest);
    this.#streams.delete(index);
    this.#views.delete(index);
    this.#atLineStart = true;
  }

  /** After the turn: interruption notice, and the usage line with how full the context is. */
  finish(result: TurnResult): void {
    this.#spinner.stop();
    if (result.aborted) this.#line(this.c.yellow("Interrupted."));
    const { input, output } = result.usage;
    if (input || output) this.#line(this.c.dim(`${usageText(result.usage)} · ${meterText(result.context)}`));
  }

  /** Stops the spinner when the turn throws (e.g. the disk filled up). */
  abandon(): void {
    this.#spinner.stop();
    if (!this.#atLineStart) this.#write("\n");
  }
}
