// The answer, rendered as markdown while it streams. BlockSplitter
// (./markdown-blocks.ts) says when a piece of it (a paragraph, a list item, a
// heading, a table; a fenced block's top, its lines, its bottom) is complete;
// that piece is rendered with Bun.markdown.ansi (./markdown.ts) and written
// once, for good. On a terminal,
// the source still growing is shown plainly below what is rendered, wrapped by
// WrapStream (./wrap.ts) so that the rows it takes are known; when the piece
// completes, those rows are erased (cursor up, erase down) and the rendering
// takes their place. Nothing of it is left in the scrollback twice.
//
// That only works while the rows to erase are still on the screen: a cursor
// cannot go up into the scrollback. So a block that grows taller than the
// screen (a huge table, a paragraph of 50 rows) is left as it was shown:
// plain, printed row by row as it grew, and never rendered. A fenced code
// block never gets there: when its lines fill the screen they are rendered,
// and the next ones start a new screenful. After a resize the growing block
// is erased and shown again at the new width: the terminal has reflowed its
// rows (tmux and most terminals split a row wider than the screen, and never
// join rows ended by a newline), so the rows it takes now are known from the
// widths they were written at; if they no longer fit on the screen, the block
// is left as shown instead.
//
// Without the live view (output that is not a terminal) only the complete
// pieces are written; the result is the same bytes as rendering the whole
// answer at once, which is what `renderAnswer` does (the resume transcript
// uses it). All input is text safeText already made inert.

import { eraseRows } from "./erase-rows";
import { BlockSplitter, type Piece, separator } from "./markdown-blocks";
import { fenceBody, fenceBottom, fenceTop, renderMarkdown } from "./markdown";
import { safeText } from "./safe-text";
import { wrapText, WrapStream } from "./wrap";

/** The terminal's size, read as the answer grows (an object with getters, so a resize shows). */
export interface Screen {
  /** Where to wrap. */
  readonly columns: number;
  /** The screen's height; undefined when unknown. */
  readonly rows?: number;
}

/** Cursor to the start of the row `up` rows above, and erase from there to the end of the screen. */
const eraseUp = (up: number) => `\r${up > 0 ? `\x1b[${up}A` : ""}\x1b[J`;

/** At least this many rows are left for what sits below the growing block (the cursor's row, a margin). */
const SCREEN_MARGIN = 2;
const DEFAULT_ROWS = 24;

export class MarkdownStream {
  readonly #splitter = new BlockSplitter();
  readonly #screen: Screen;
  readonly #live: boolean;
  /** A piece has been written: the next one is separated from it. */
  #started = false;
  /** The plain view of the source not rendered yet (live only). */
  #tail: WrapStream | undefined;
  /** The growing block outgrew the screen (or the screen changed): what is shown of it stays. */
  #kept: "block" | "fenceLine" | undefined;

  /**
   * `live`: show the growing block and replace it (a terminal). `screen` is
   * read as the answer grows, so a piece after a resize fits the new width.
   */
  constructor(screen: Screen, live: boolean) {
    this.#screen = screen;
    this.#live = live;
  }

  get #columns(): number {
    return Math.max(20, this.#screen.columns);
  }

  /** Safe text in; terminal bytes out. */
  push(safe: string): string {
    if (!this.#live) return this.#render(this.#splitter.push(safe));
    let out = this.#resized();
    // A line at a time: a piece that completes is then always the text before
    // this segment, or this segment's own line (see #complete).
    for (let from = 0; from < safe.length; ) {
      const nl = safe.indexOf("\n", from);
      const to = nl === -1 ? safe.length : nl + 1;
      const segment = safe.slice(from, to);
      from = to;
      const pieces = this.#splitter.push(segment);
      out += pieces.length ? this.#complete(pieces, segment) : this.#grow(segment);
    }
    return out;
  }

  /** The end of the answer: the rest is rendered. The output ends at the start of a row. */
  end(): string {
    let out = this.#resized();
    const pieces = this.#splitter.end();
    if (this.#live) out += this.#kept ? this.#unkeep(pieces, "", true) : this.#eraseTail();
    this.#tail = undefined;
    out += this.#render(pieces);
    return out;
  }

  #render(pieces: Piece[]): string {
    let out = "";
    for (const piece of pieces) {
      if (this.#started) out += separator(piece);
      this.#started = true;
      out += renderPiece(piece, this.#columns);
    }
    return out;
  }

  /** More of the growing source, shown plainly. */
  #grow(segment: string): string {
    if (!this.#tail) return this.#showTail(segment);
    let out = this.#tail.push(segment);
    if (this.#kept === "fenceLine" && segment.endsWith("\n")) out += this.#complete(this.#splitter.flushFence(), "");
    else if (!this.#kept && this.#tail.rows >= this.#maxTailRows()) out += this.#tooTall();
    return out;
  }

  /** Pieces are complete: the plain view of them goes (or stays, when kept), their rendering comes, and the new tail is shown. */
  #complete(pieces: Piece[], segment: string): string {
    let out = this.#kept ? this.#unkeep(pieces, segment, false) : this.#eraseTail();
    this.#tail = undefined;
    out += this.#render(pieces);
    return out + this.#showTail(this.#splitter.pending());
  }

  #showTail(pending: string): string {
    this.#tail = new WrapStream(this.#columns);
    if (!pending) return "";
    // Where the rendering will put a blank row, the plain view shows one too, so the text does not jump.
    const lead = this.#started && !this.#splitter.inFence() && separator({ kind: "block", text: pending }) ? "\n" : "";
    const out = this.#tail.push(lead + pending);
    return this.#tail.rows >= this.#maxTailRows() ? out + this.#tooTall() : out;
  }

  /**
   * The plain view is as tall as the screen allows. Code lines are rendered
   * now, a screenful at a time; any other block stays as it is shown, and
   * grows row by row.
   */
  #tooTall(): string {
    const lines = this.#splitter.inFence() ? this.#splitter.flushFence() : [];
    if (lines.length) return this.#complete(lines, "");
    this.#keepAsShown();
    return "";
  }

  /**
   * The screen's width changed under the growing block: it is shown again at
   * the new width, from the rows the terminal reflowed it into; or, when those
   * reach past the screen's top, left as shown.
   */
  #resized(): string {
    const tail = this.#tail;
    if (!this.#live || !tail || this.#kept || this.#columns === tail.width) return "";
    if (tail.rows === 0 && tail.column === 0) return this.#showTail(this.#splitter.pending()); // nothing shown yet
    const columns = Math.max(1, this.#screen.columns);
    const rows = (width: number) => Math.max(1, Math.ceil(width / columns));
    let above = tail.column > 0 ? rows(tail.column) - 1 : 0;
    for (const width of tail.rowWidths) above += rows(width);
    if (above >= this.#maxTailRows()) {
      this.#keepAsShown();
      return "";
    }
    return eraseRows(above) + this.#showTail(this.#splitter.pending());
  }

  /** What the plain view shows stays, never erased nor rendered. */
  #keepAsShown(): void {
    if (this.#splitter.inFence()) {
      this.#splitter.flushFence(); // complete code lines shown plainly: they stay so
      if (this.#splitter.pending()) this.#kept = "fenceLine"; // and so does the line still arriving, once complete
      else this.#tail = new WrapStream(this.#columns);
    } else if (this.#splitter.pending().trim()) this.#kept = "block";
    else this.#tail = new WrapStream(this.#columns); // blank rows only: nothing to keep track of
  }

  #eraseTail(): string {
    const tail = this.#tail;
    if (!tail || (tail.rows === 0 && tail.column === 0)) return "";
    return eraseUp(tail.rows);
  }

  #maxTailRows(): number {
    return Math.max(1, (this.#screen.rows ?? DEFAULT_ROWS) - SCREEN_MARGIN);
  }

  /**
   * The kept block (or code line) is complete: it stays as shown, so it is
   * taken out of `pieces`. Its last line is shown first if `segment` holds it;
   * blank rows shown after it go, as its separator is written anew.
   */
  #unkeep(pieces: Piece[], segment: string, atEnd: boolean): string {
    const tail = this.#tail!;
    let out = "";
    if (this.#kept === "fenceLine") {
      out += tail.push(segment) + tail.end();
      const [first] = pieces;
      if (first?.kind === "fenceLines") {
        first.lines.shift();
        if (!first.lines.length) pieces.shift();
      }
    } else {
      const [first] = pieces;
      if (first?.kind === "block" && first.ownLine) out += tail.push(segment); // a heading: its line ends in this segment
      if (atEnd || first?.kind === "block") out += tail.end();
      if (first?.kind === "block") pieces.shift();
    }
    if (tail.column > 0) out += "\n";
    else if (tail.textRow >= 0 && tail.rows - 1 > tail.textRow) out += eraseUp(tail.rows - 1 - tail.textRow);
    this.#kept = undefined;
    this.#started = true;
    return out;
  }
}

function renderPiece(piece: Piece, columns: number): string {
  switch (piece.kind) {
    case "block":
      return renderMarkdown(piece.text, columns);
    case "fenceTop":
      return fenceTop(piece.opener, columns);
    case "fenceLines":
      return fenceBody(piece.opener, piece.lines, columns);
    case "fenceBottom":
      return fenceBottom(piece.opener, piece.empty, columns);
  }
}

/** A whole answer rendered as markdown: the bytes the stream writes without its live view. */
export function renderAnswer(text: string, columns: number): string {
  const stream = new MarkdownStream({ columns }, false);
  return stream.push(safeText(text)) + stream.end();
}

/** A whole answer as it is shown: rendered with colour, else its markdown source wrapped, with no escape at all. */
export function showAnswer(text: string, columns: number, colour: boolean): string {
  if (colour) return renderAnswer(text, columns);
  const wrapped = wrapText(safeText(text), columns);
  return wrapped && !wrapped.endsWith("\n") ? `${wrapped}\n` : wrapped;
}
