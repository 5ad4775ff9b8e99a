// The rows under the output while a turn runs: the status line, a running
// tool's latest output, the tool calls still streaming in, and what the person
// types meanwhile (the keys go to the next prompt: see watchInterrupt). They
// are never part of the output: nothing of them reaches the scrollback.
//
// The rows live just below the output and move with it: every write to the
// terminal that could reach them goes through `stream`, which erases them,
// writes, and draws them again under wherever the cursor ended up. They are
// drawn without knowing the cursor's column: index down as many rows as they
// take and back up (ESC D scrolls at the bottom of the screen, ESC M comes
// back: the rows then exist), save the cursor (ESC 7), draw each row on a row
// of its own, restore (ESC 8); and erased the same way: save, erase to the end
// of the screen from their first row, restore. When the output ends a line
// (the cursor at the start of an empty row) they start on the cursor's row;
// otherwise (an answer's row still growing) on the row below it. A write that
// stays on the cursor's row while they are below it (text without a newline
// or a cursor move: most of a streamed answer's deltas) cannot reach them, and
// passes straight through (unless the terminal was made narrower meanwhile:
// then the terminal may wrap what was written for its old width onto them);
// so does every write while no row is up, so the renderer's bytes are
// untouched then.
//
// Each row is cut to one column less than the terminal's width, and drawn
// with autowrap off, so the terminal never wraps one (not even one drawn just
// after a resize awl has not heard of yet). The rows take at most the screen's height less a
// few, the top ones going first. When the output is not a terminal nothing is
// drawn at all.

import { drawnUnderCursor, terminalIsThere } from "../input/input-modes";
import { fitWidth } from "../render/format";

type Out = NodeJS.WriteStream;

const SAVE = "\x1b7";
const RESTORE = "\x1b8";
const INDEX = "\x1bD";
const REVERSE_INDEX = "\x1bM";
const ERASE_DOWN = "\r\x1b[J";
const RESET = "\x1b[0m";
/** Autowrap off while the rows are drawn: a row drawn at a width the terminal has just left (a resize not yet seen) is cut by the terminal instead of wrapping, so it never scrolls the screen under the saved cursor. */
const NO_WRAP = "\x1b[?7l";
const WRAP = "\x1b[?7h";

/** Where the rows start: on the cursor's row (at the start of an empty row), or on the row below it. */
type Place = "here" | "below";

/** Erases the rows, the cursor staying put. */
const erase = (place: Place) => `${SAVE}${place === "below" ? INDEX : ""}${ERASE_DOWN}${RESTORE}`;

/** Makes sure the rows fit below the cursor (scrolling if needed), then draws them there, the cursor staying put. */
function draw(rows: readonly string[], place: Place): string {
  if (!rows.length) return "";
  const down = place === "below" ? rows.length : rows.length - 1;
  let out = INDEX.repeat(down) + REVERSE_INDEX.repeat(down) + SAVE + NO_WRAP;
  // Every row there is blank (the rows were just erased, the output ends above them): no row needs erasing.
  for (const [i, row] of rows.entries()) out += `${i > 0 || place === "below" ? INDEX : ""}\r${RESET}${row}${RESET}`;
  return out + WRAP + RESTORE;
}

/** What a write can do to rows below the cursor: a newline moves onto them, a cursor move or an erase may reach them. */
const REACHES_BELOW = /\n|\x1b\[[0-9;]*[ABEFHJfST]|\x1b[DEM78c]/;
/** A write that leaves the cursor at the start of an empty row: it ends a line, or erases from a row's start (styles may follow). */
const ENDS_ROW = /(?:\n|\r(?:\x1b\[\d*A)?\x1b\[J)(?:\x1b\[[0-9;]*m)*$/;
const ONLY_STYLES = /^(?:\x1b\[[0-9;]*m)*$/;

/** The screen rows left for the output, at least, whatever the rows below want. */
const OUTPUT_ROWS = 3;

export class LiveArea {
  readonly #out: Out;
  /** The status rows, top to bottom: everything but the typed-ahead row. */
  #rows: string[] = [];
  #typeAhead = "";
  /** The rows as last drawn (cut to the width), none when none are up; and where. */
  #drawn: string[] = [];
  #drawnAt: Place = "below";
  /** The cursor is at the start of an empty row: the area is made as a line has been entered. */
  #rowStart = true;
  /** The widest the terminal has been while the area was up. */
  #widest = 0;
  /** The rows laid out, and their bytes drawn in each place, for the terminal's size then (most writes draw the same rows again). */
  #cache: { size: string; rows: string[]; here?: string; below?: string } | undefined;
  /** Takes this area off the list of rows a stop erases (input-modes.ts); set while rows are up. */
  #offStopList: (() => void) | undefined;
  /** The terminal, for everything written while the rows may be up. */
  readonly stream: Out;

  constructor(out: Out) {
    this.#out = out;
    // Looked up at each write: a stop signal replaces the stream's write (cli/stop.ts), and then nothing is drawn.
    const send = (chunk: unknown, ...rest: unknown[]) => (this.#out.write as (...args: unknown[]) => boolean)(chunk, ...rest);
    const through = (chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === "string" ? chunk : undefined;
      // (Most writes are a few characters of text: no control at all.)
      const plain = text !== undefined && !text.includes("\n") && !text.includes("\x1b");
      if (plain) this.#rowStart &&= text === "";
      else if (text === undefined || !ONLY_STYLES.test(text)) this.#rowStart = text !== undefined && ENDS_ROW.test(text);
      // Once the terminal has been made narrower, output written for the width it had (an answer's block kept as
      // shown) wraps on the terminal: text alone may then reach the rows below.
      const columns = this.#out.columns || 80;
      this.#widest = Math.max(this.#widest, columns);
      const staysOnRow = text !== undefined && this.#drawnAt === "below" && columns >= this.#widest && (plain || !REACHES_BELOW.test(text));
      if (!this.#drawn.length || staysOnRow) return send(chunk, ...rest);
      const before = erase(this.#drawnAt);
      const place = this.#place();
      const after = this.#bytes(place);
      this.#setDrawn(this.#layout(), place);
      if (text !== undefined) return send(before + text + after, ...rest);
      send(before);
      const done = send(chunk, ...rest);
      send(after);
      return done;
    };
    this.stream = new Proxy(out, {
      get(target, property) {
        if (property === "write") return through;
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  /** Rows the area may take below the cursor: its status rows and the typed-ahead row (counted even while nothing is typed). */
  get height(): number {
    return this.#rows.length + 1;
  }

  /** Whether anything is drawn at all (a terminal). */
  get drawing(): boolean {
    return Boolean(this.#out.isTTY);
  }

  /** Shows these status rows (already styled, made safe; cut to the width here), replacing those shown. */
  setRows(rows: readonly string[]): void {
    if (rows.length !== this.#rows.length || rows.some((row, i) => row !== this.#rows[i])) {
      this.#rows = [...rows];
      this.#cache = undefined;
    }
    this.#redraw(); // (also when the terminal was resized: the rows are cut to its width again)
  }

  /** Shows what was typed ahead (one screen row at most, already cut to the width) under the status rows, or removes it with "". */
  typeAhead(row: string): void {
    if (row === this.#typeAhead) return;
    this.#typeAhead = row;
    this.#cache = undefined;
    this.#redraw();
  }

  /** Draws the rows again as they are (the width may have changed). */
  refresh(): void {
    this.#redraw(true);
  }

  /** Takes every row away; the area can be used again. */
  close(): void {
    this.#rows = [];
    this.#typeAhead = "";
    this.#cache = undefined;
    this.#redraw();
  }

  /** The rows to draw now: cut to the width, as many as the screen leaves room for. */
  #layout(): string[] {
    const columns = this.#out.columns || 80;
    const screenRows = this.#out.rows || 24;
    const size = `${columns}x${screenRows}`;
    if (this.#cache?.size === size) return this.#cache.rows;
    const width = Math.max(1, columns - 1);
    const rows = [...this.#rows, ...(this.#typeAhead ? [this.#typeAhead] : [])];
    const room = Math.max(1, screenRows - OUTPUT_ROWS);
    this.#cache = { size, rows: rows.slice(Math.max(0, rows.length - room)).map((row) => fitWidth(row, width)) };
    return this.#cache.rows;
  }

  /** The bytes that draw the rows in `place`. */
  #bytes(place: Place): string {
    const rows = this.#layout();
    const cache = this.#cache!;
    return (cache[place] ??= draw(rows, place));
  }

  #place(): Place {
    return this.#rowStart ? "here" : "below";
  }

  #redraw(always = false): void {
    if (!this.#out.isTTY) return;
    const rows = this.#layout();
    const place = this.#place();
    if (!always && place === this.#drawnAt && rows.length === this.#drawn.length && rows.every((row, i) => row === this.#drawn[i])) return;
    // (Erased first even when none were up: whatever was left below the cursor goes, and the rows are drawn on blank ones.)
    const bytes = rows.length || this.#drawn.length ? erase(this.#drawn.length ? this.#drawnAt : place) + this.#bytes(place) : "";
    this.#setDrawn(rows, place);
    if (bytes) this.#out.write(bytes);
  }

  /** Records what is drawn, and keeps a stop able to erase it: a stop mutes the terminal and exits, and a status line left up would sit under the shell's next prompt. */
  #setDrawn(rows: string[], place: Place): void {
    this.#drawn = rows;
    this.#drawnAt = place;
    if (rows.length && !this.#offStopList) this.#offStopList = drawnUnderCursor(() => this.#eraseForStop());
    if (!rows.length && this.#offStopList) {
      this.#offStopList();
      this.#offStopList = undefined;
    }
  }

  #eraseForStop(): void {
    this.#offStopList = undefined;
    if (this.#drawn.length && terminalIsThere(this.#out)) this.#out.write(erase(this.#drawnAt));
    this.#drawn = [];
  }
}

