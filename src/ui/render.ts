// Shows a turn as it happens, in the terminal: text streamed, thinking dimmed,
// one line per tool call with a short dimmed preview of its result, errors in
// red, a small usage line at the end. Everything a model, a tool or an API
// sent is shown through safeText (./safe-text.ts) before it is styled, so none
// of it can drive the terminal.

import type { AgentEvent, TurnResult } from "../agent/events";
import type { ContentBlock } from "../conversation";
import type { Colors } from "./colors";
import { compactedLine, meterText, oneLine, preview, usageText } from "./format";
import { safeText, SafeTextStream } from "./safe-text";
import { Spinner } from "./spinner";

type Out = { write(s: string): unknown; isTTY?: boolean; columns?: number };

export class TurnRenderer {
  readonly #spinner: Spinner;
  #blocks: ContentBlock["type"][] = [];
  /** The streamed text and thinking blocks, made safe delta by delta. */
  #streams = new Map<number, SafeTextStream>();
  #atLineStart = true;

  constructor(
    private readonly out: Out,
    private readonly c: Colors,
  ) {
    this.#spinner = new Spinner(out, c.dim);
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

  handle(event: AgentEvent): void {
    if (event.type !== "requestStart" && event.type !== "retry") this.#spinner.stop();
    switch (event.type) {
      case "requestStart":
        this.#spinner.start(`waiting for ${safeText(event.model)}…`);
        return;
      case "blockStart":
        this.#blocks[event.index] = event.block.type;
        this.#streams.set(event.index, new SafeTextStream());
        if (event.block.type === "thinking" && event.block.redacted) this.#line(this.c.dim("(redacted thinking)"));
        else if (event.block.type === "thinking" || event.block.type === "text") {
          if (!this.#atLineStart) this.#write("\n");
        }
        return;
      case "delta": {
        const kind = this.#blocks[event.index];
        if (kind !== "text" && kind !== "thinking") return;
        this.#writeText(kind, this.#stream(event.index).push(event.text));
        return;
      }
      case "blockStop": {
        const kind = this.#blocks[event.index];
        if (kind !== "text" && kind !== "thinking") return;
        this.#writeText(kind, this.#stream(event.index).end());
        this.#streams.delete(event.index);
        if (!this.#atLineStart) this.#write("\n");
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
      case "toolEnd": {
        const { lines, more } = preview(event.output.content, 3);
        const style = event.output.isError ? this.c.red : this.c.dim;
        for (const [i, line] of lines.entries()) this.#line(style(`${i === 0 ? "  ⎿ " : "    "}${oneLine(line, this.#width)}`));
        if (more > 0) this.#line(this.c.dim(`    … ${more} more line${more === 1 ? "" : "s"}`));
        return;
      }
      case "end":
        for (const [index, stream] of this.#streams) this.#writeText(this.#blocks[index], stream.end()); // cut off mid-block
        this.#streams.clear();
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

  #stream(index: number): SafeTextStream {
    let stream = this.#streams.get(index);
    if (!stream) this.#streams.set(index, (stream = new SafeTextStream()));
    return stream;
  }

  /** Safe streamed text: as it is for an answer, dimmed for thinking. */
  #writeText(kind: ContentBlock["type"] | undefined, safe: string): void {
    if (!safe) return;
    this.#write(kind === "thinking" ? this.c.dim(this.c.italic(safe)) : safe);
    this.#atLineStart = safe.endsWith("\n"); // styled, it ends in the style's closing code
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
