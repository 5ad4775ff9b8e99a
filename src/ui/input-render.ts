// Where the prompt and buffer go on screen, and the bytes that put them there.
// The editor wraps rows itself instead of relying on the terminal's auto-wrap,
// so it always knows which row and column the cursor is on, wide characters
// and a cursor sitting just past a full row included.

import { displayWidth, graphemes, TAB_WIDTH } from "./editor-text";
import { safeText } from "./safe-text";

export interface Layout {
  /** Screen rows, prompt or continuation prefix included, each at most `columns` cells. */
  rows: string[];
  cursorRow: number;
  cursorCol: number;
}

const CSI = "\x1b[";
const HIDE_CURSOR = `${CSI}?25l`;
const SHOW_CURSOR = `${CSI}?25h`;

export function layout(prompt: string, continuation: string, text: string, cursor: number, columns: number): Layout {
  const rows: string[] = [];
  let row = "";
  let col = 0;
  let cursorRow = 0;
  let cursorCol = 0;
  const newRow = () => {
    rows.push(row);
    row = "";
    col = 0;
  };
  const markCursor = () => {
    // A cursor right after a full row is shown at the start of the next one.
    if (col >= columns) newRow();
    cursorRow = rows.length;
    cursorCol = col;
  };

  let offset = 0;
  text.split("\n").forEach((line, index) => {
    if (index > 0) newRow();
    const prefix = index === 0 ? prompt : continuation;
    row = prefix;
    col = displayWidth(prefix);
    for (const g of graphemes(line)) {
      // Typed keys hold no control characters, but a prompt recalled from a session file may: drawn made safe.
      const shown = g === "\t" ? " ".repeat(TAB_WIDTH) : safeText(g);
      const width = g === "\t" ? TAB_WIDTH : displayWidth(shown);
      if (col + width > columns && col > 0) newRow();
      if (offset === cursor) markCursor();
      row += shown;
      col += width;
      offset += g.length;
    }
    if (offset === cursor) markCursor();
    offset += 1; // the "\n"
  });
  rows.push(row);
  return { rows, cursorRow, cursorCol };
}

/**
 * Replaces what was drawn before (`previous`, whose cursor row tells how far up
 * the first row is) with `next`, leaving the cursor where `next` says.
 */
export function redraw(previous: Layout | undefined, next: Layout): string {
  let out = HIDE_CURSOR;
  if (previous && previous.cursorRow > 0) out += `${CSI}${previous.cursorRow}A`;
  // Rows are erased one by one rather than with "erase below": from the top-left
  // corner that counts as clearing the screen, which tmux copies into its history.
  out += `\r${next.rows.map((row) => `${CSI}2K${row}`).join("\r\n")}`;
  const extra = (previous?.rows.length ?? 0) - next.rows.length;
  if (extra > 0) out += `\r\n${CSI}2K`.repeat(extra) + `${CSI}${extra}A`;
  const up = next.rows.length - 1 - next.cursorRow;
  if (up > 0) out += `${CSI}${up}A`;
  out += "\r";
  if (next.cursorCol > 0) out += `${CSI}${next.cursorCol}C`;
  return out + SHOW_CURSOR;
}

/** Moves below the last row drawn, so whatever is printed next starts on a fresh line. */
export function leave(drawn: Layout | undefined): string {
  if (!drawn) return "\r\n";
  const down = drawn.rows.length - 1 - drawn.cursorRow;
  return `${down > 0 ? `${CSI}${down}B` : ""}\r\n`;
}

/** Ctrl+L: clear the screen and home the cursor; the prompt is then redrawn at the top. */
export const CLEAR_SCREEN = `${CSI}2J${CSI}H`;
