// Where the prompt and buffer go on screen (./input-redraw.ts writes the bytes).
// The editor wraps rows itself instead of relying on the terminal's auto-wrap,
// so it always knows which row and column the cursor is on, wide characters
// and a cursor sitting just past a full row included. It wraps between words:
// a word that does not fit in what is left of a row starts the next one, and
// only a word longer than a whole row is cut. A space where a row ends is that
// row's break, drawn as nothing.
//
// It scales with the screen, not the buffer. An input taller than the screen
// is shown through a window of rows that follows the cursor: a block taller
// than the screen would push its first rows into the scrollback, out of reach
// of the next redraw, and every keystroke would leave another copy there.
// Only the rows in that window are laid out: rows are found from the nearest
// point wrapping is known to restart at (a line's start, or, in a line longer
// than CHUNK code units, every CHUNK code units of it, where a row always
// breaks), so a keystroke in a 10 MB buffer lays out a few thousand characters
// at most. And a redraw rewrites only the rows that changed.

import { displayWidth, lineEnd, lineStart, segment, TAB_WIDTH } from "./editor-text";
import { safeText } from "../render/safe-text";

// The bytes that draw a layout live in ./input-redraw.ts; the input reads them from here.
export { CLEAR_SCREEN, leave, redraw } from "./input-redraw";

export interface InputView {
  /** Drawn before the first line (may hold colour codes). */
  prompt: string;
  /** Drawn before each later line. */
  continuation: string;
  text: string;
  /** UTF-16 offset into text. */
  cursor: number;
  /** Characters drawn as a label instead (a paste's marker as `[pasted 3,000 lines]`). */
  labels?: ReadonlyMap<string, { label: string }>;
}

export interface Layout {
  /** Screen rows, prompt or continuation prefix included, each at most `columns` cells; rows below the input last. */
  rows: string[];
  /** Each row's width in cells. */
  widths: number[];
  cursorRow: number;
  cursorCol: number;
  /** Offset of the first input row shown: the next layout keeps it while the cursor stays in view. */
  top: number;
  columns: number;
}

export interface LayoutOptions {
  columns: number;
  /** At most this many rows of input; a taller input is shown scrolled to the cursor. */
  maxRows?: number;
  /** The previous layout's `top`: kept while the cursor stays in view, so the view does not jump. */
  top?: number;
  /** Rows drawn under the input (a hint, completions), each already cut to the width (see fit). */
  below?: readonly string[];
}

/** In a line longer than this, a row also breaks every CHUNK code units from its start. */
export const CHUNK = 4096;

/** Graphemes laid out so far: tests read it to check a keystroke's layout work is bounded. */
export const laidOut = { graphemes: 0 };

interface Row {
  start: number;
  /** Where its text ends (exclusive). */
  end: number;
  /** It ends its line (a newline or the end of the text follows). */
  lineEnd: boolean;
  text: string;
  width: number;
  /** Set on the row holding the cursor. */
  cursorCol?: number;
}

/** What continues the grapheme before it, so a row never starts there: a low surrogate, marks, joiners, selectors, skin tones, tags. */
const CONTINUES = /^(?:[\udc00-\udfff]|[\p{M}\u200c\u200d\ufe00-\ufe0f\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}])/u;
const ASCII_ONLY = /^[\x20-\x7e]*$/;

class RowMaker {
  readonly #text: string;
  readonly #cursor: number;
  readonly #columns: number;
  readonly #labels: ReadonlyMap<string, { label: string }> | undefined;
  readonly #prompt: string;
  readonly #continuation: string;
  readonly #promptWidth: number;
  readonly #continuationWidth: number;

  constructor(view: InputView, columns: number) {
    this.#text = view.text;
    this.#cursor = view.cursor;
    this.#columns = Math.max(1, columns);
    this.#labels = view.labels;
    // A prefix as wide as the screen (a long search, a tiny window) is cut, so no row ever wraps by itself.
    this.#prompt = displayWidth(view.prompt) < this.#columns ? view.prompt : fit(view.prompt, this.#columns - 1);
    this.#continuation = displayWidth(view.continuation) < this.#columns ? view.continuation : fit(view.continuation, this.#columns - 1);
    this.#promptWidth = displayWidth(this.#prompt);
    this.#continuationWidth = displayWidth(this.#continuation);
  }

  /** A forced break at about `at` moved forward onto a grapheme boundary. */
  #boundaryFrom(at: number): number {
    const text = this.#text;
    let i = at;
    while (i < text.length && i < at + 64) {
      const prev = text.charCodeAt(i - 1);
      if (prev === 0x200d || CONTINUES.test(text.slice(i, i + 2))) i++;
      else break;
    }
    return i;
  }

  /** The first forced break after `pos` in the line [ls, le), or le. */
  #nextBreak(pos: number, ls: number, le: number): number {
    if (le - ls <= CHUNK) return le;
    for (let k = Math.floor((pos - ls) / CHUNK) + 1; ; k++) {
      if (ls + k * CHUNK >= le) return le;
      const at = this.#boundaryFrom(ls + k * CHUNK);
      if (at >= le) return le;
      if (at > pos) return at;
    }
  }

  /** Where wrapping is known to restart at or before p: its line's start or the forced break before it. */
  #anchor(p: number): number {
    const text = this.#text;
    const ls = lineStart(text, p);
    if (p - ls <= CHUNK) return ls;
    const le = lineEnd(text, p);
    for (let k = Math.floor((p - ls) / CHUNK); k > 0; k--) {
      const at = this.#boundaryFrom(ls + k * CHUNK);
      if (at <= p && at < le) return at;
    }
    return ls;
  }

  /** The rows from `start` (a row's start) to the end of the text, made as they are asked for. */
  *from(start: number): Generator<Row> {
    const text = this.#text;
    let s = start;
    for (;;) {
      const ls = lineStart(text, s);
      const le = lineEnd(text, s);
      for (let pos = s; ; ) {
        const brk = this.#nextBreak(pos, ls, le);
        yield* this.#piece(pos, brk, pos === ls ? (ls === 0 ? 0 : 1) : -1, brk === le);
        if (brk >= le) break;
        pos = brk;
      }
      if (le >= text.length) return;
      s = le + 1;
    }
  }

  /** The rows of [a, b), within one line: `prefix` 0 for the prompt, 1 for the continuation, -1 for none (a later row of the line). */
  *#piece(a: number, b: number, prefix: number, endsLine: boolean): Generator<Row> {
    const columns = this.#columns;
    const cursor = this.#cursor;
    let text = prefix === 0 ? this.#prompt : prefix === 1 ? this.#continuation : "";
    let col = prefix === 0 ? this.#promptWidth : prefix === 1 ? this.#continuationWidth : 0;
    let start = a;
    let cursorCol: number | undefined;
    let offset = a;
    const chunk = this.#text.slice(a, b);
    const rows: Row[] = [];
    /** Just after the row's last space: where the word being written would move from, to the next row. */
    let wordStart: { offset: number; textLength: number; col: number } | undefined;
    const breakRow = () => {
      rows.push({ start, end: offset, lineEnd: false, text, width: col, cursorCol });
      text = "";
      col = 0;
      start = offset;
      cursorCol = undefined;
      wordStart = undefined;
    };
    /** The word being written goes on to a new row, whole. */
    const moveWord = (at: { offset: number; textLength: number; col: number }) => {
      const cursorMoves = cursorCol !== undefined && cursor >= at.offset;
      rows.push({ start, end: at.offset, lineEnd: false, text: text.slice(0, at.textLength), width: at.col, cursorCol: cursorMoves ? undefined : cursorCol });
      text = text.slice(at.textLength);
      col -= at.col;
      start = at.offset;
      cursorCol = cursorMoves ? cursorCol! - at.col : undefined;
      wordStart = undefined;
    };
    const markCursor = () => {
      // A cursor right after a full row is shown at the start of the next one.
      if (col >= columns) breakRow();
      cursorCol = col;
    };
    const add = (g: string, shown: string, width: number) => {
      const space = g === " " || g === "\t";
      if (space && col + width > columns && col > 0 && offset !== cursor) {
        // The row ends here: the space is its break, and takes no column.
        offset += g.length;
        wordStart = { offset, textLength: text.length, col };
        return;
      }
      if (col + width > columns && col > 0) {
        if (!space && wordStart && wordStart.offset > start && wordStart.offset < offset && col - wordStart.col + width <= columns) moveWord(wordStart);
        else breakRow();
      }
      if (offset === cursor) markCursor();
      text += shown;
      col += width;
      offset += g.length;
      if (space) wordStart = { offset, textLength: text.length, col };
    };
    if (ASCII_ONLY.test(chunk)) {
      // Printable ASCII: one cell per character, nothing to segment. A word's
      // first character decides where it goes; the rest of it is taken a run
      // at a time, as far as the row's end or the cursor.
      let space = -1; // the next space at or after i
      for (let i = 0; i < chunk.length; ) {
        const ch = chunk[i]!;
        add(ch, ch, 1);
        i++;
        laidOut.graphemes++;
        if (ch !== " ") {
          if (space < i) space = chunk.indexOf(" ", i) === -1 ? chunk.length : chunk.indexOf(" ", i);
          let n = Math.min(columns - col, space - i);
          if (cursor >= offset && cursor < offset + n) n = cursor - offset;
          if (n > 0) {
            text += chunk.slice(i, i + n);
            col += n;
            offset += n;
            i += n;
            laidOut.graphemes += n;
          }
        }
        while (rows.length) yield rows.shift()!;
      }
    } else {
      for (const { segment: g } of segment(chunk)) {
        laidOut.graphemes++;
        const { shown, width } = this.#shown(g);
        add(g, shown, width);
        while (rows.length) yield rows.shift()!;
      }
    }
    // A cursor after a full last row sits alone on an empty row, which then ends the line.
    if (offset === cursor && endsLine) markCursor();
    rows.push({ start, end: b, lineEnd: endsLine, text, width: col, cursorCol });
    yield* rows;
  }

  #shown(g: string): { shown: string; width: number } {
    if (g === "\t") return { shown: " ".repeat(TAB_WIDTH), width: TAB_WIDTH };
    const code = g.codePointAt(0)!;
    const label = code >= 0x100000 ? this.#labels?.get(String.fromCodePoint(code))?.label : undefined;
    if (label !== undefined) {
      const cut = fit(label, this.#columns);
      const rest = safeText(g.slice(code > 0xffff ? 2 : 1));
      return { shown: cut + rest, width: displayWidth(cut) + displayWidth(rest) };
    }
    // Typed keys hold no control characters, but a prompt recalled from a session file may: drawn made safe.
    const shown = safeText(g);
    return { shown, width: displayWidth(shown) };
  }

  /** The rows from p's anchor to the row holding p (the cursor's own row when p is the cursor), in order. */
  rowsTo(p: number, isCursor: boolean): Row[] {
    const rows: Row[] = [];
    for (const row of this.from(this.#anchor(p))) {
      rows.push(row);
      if (isCursor ? row.cursorCol !== undefined : (row.start <= p && p < row.end) || (p === row.end && row.lineEnd)) return rows;
    }
    return rows; // not reached: the last row ends the text
  }

  /** Up to n rows just above the row starting at `start`, in order. */
  above(start: number, n: number): Row[] {
    let result: Row[] = [];
    for (let first = start; result.length < n && first > 0; ) {
      const rows = this.rowsTo(first - 1, false);
      // Rows made while passing the cursor may include its lone row; above `start` it cannot be.
      result = rows.filter((r) => r.start < first).concat(result);
      first = rows[0]!.start;
    }
    return result.slice(Math.max(0, result.length - n));
  }

  /** The start of the row after `row`, or undefined after the last one. */
  nextStart(row: Row): number | undefined {
    if (!row.lineEnd) return row.end;
    return row.end < this.#text.length ? row.end + 1 : undefined;
  }

  isRowStart(offset: number): boolean {
    if (offset === 0) return true;
    if (offset > this.#text.length) return false;
    return this.rowsTo(offset, false).at(-1)!.start === offset;
  }

  take(start: number | undefined, n: number): Row[] {
    const rows: Row[] = [];
    if (start === undefined || n <= 0) return rows;
    for (const row of this.from(start)) {
      rows.push(row);
      if (rows.length >= n) break;
    }
    return rows;
  }
}

/** The rows of the input shown on a screen `columns` wide, at most maxRows of them, the cursor among them. */
export function layoutInput(view: InputView, options: LayoutOptions): Layout {
  const columns = Math.max(1, options.columns);
  const maxRows = Math.max(1, options.maxRows ?? Number.POSITIVE_INFINITY);
  const maker = new RowMaker(view, columns);
  const toCursor = maker.rowsTo(view.cursor, true);
  const cursorRow = toCursor.at(-1)!;
  let shown: Row[] | undefined;
  const top = options.top;

  if (top !== undefined && top <= cursorRow.start && maker.isRowStart(top)) {
    // The view stays put while the cursor is in it.
    const rows = maker.take(top, maxRows);
    if (rows.some((r) => r.cursorCol !== undefined)) shown = rows;
  } else if (top !== undefined && top > cursorRow.start) {
    // The cursor went above the view: its row becomes the first.
    shown = [cursorRow, ...maker.take(maker.nextStart(cursorRow), maxRows - 1)];
  }
  if (!shown) {
    // The cursor as low as the view allows: as much as fits above it, then what fits below.
    const before = toCursor.slice(0, -1);
    const above = before.length >= maxRows - 1 ? before.slice(before.length - (maxRows - 1)) : [...maker.above(toCursor[0]!.start, maxRows - 1 - before.length), ...before];
    shown = [...(maxRows > 1 ? above : []), cursorRow];
    shown.push(...maker.take(maker.nextStart(cursorRow), maxRows - shown.length));
  }
  if (shown.length < maxRows && shown[0]!.start > 0) shown = [...maker.above(shown[0]!.start, maxRows - shown.length), ...shown];

  const index = shown.findIndex((r) => r.cursorCol !== undefined);
  const below = options.below ?? [];
  return {
    rows: [...shown.map((r) => r.text), ...below],
    widths: [...shown.map((r) => r.width), ...below.map((row) => displayWidth(row))],
    cursorRow: index,
    cursorCol: shown[index]!.cursorCol!,
    top: shown[0]!.start,
    columns,
  };
}

/** The whole input laid out (no window): for small buffers and tests. */
export function layout(prompt: string, continuation: string, text: string, cursor: number, columns: number): Layout {
  return layoutInput({ prompt, continuation, text, cursor }, { columns });
}

/** Text cut to `columns` cells, an ellipsis marking the cut (made safe, and on one row: a newline is shown as a space). */
export function fit(text: string, columns: number): string {
  const safe = safeText(text.replace(/\n/g, " ").replace(/\t/g, " "));
  if (displayWidth(safe) <= columns) return safe;
  let out = "";
  let width = 0;
  for (const { segment: g } of segment(safe)) {
    const w = displayWidth(g);
    if (width + w > columns - 1) break;
    out += g;
    width += w;
  }
  return `${out}…`;
}
