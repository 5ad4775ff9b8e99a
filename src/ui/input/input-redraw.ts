// The bytes that put the input's layout (./input-render.ts) on screen: a
// redraw rewrites only the rows that changed and leaves the cursor where the
// layout says; after a resize the block drawn at the old width is erased as
// the terminal reflowed it.

import type { Layout } from "./input-render";

const CSI = "\x1b[";
const HIDE_CURSOR = `${CSI}?25l`;
const SHOW_CURSOR = `${CSI}?25h`;

/**
 * Replaces what was drawn before (`previous`, whose cursor row tells how far up
 * the first row is) with `next`, rewriting only the rows that changed, and
 * leaves the cursor where `next` says. Empty when nothing changed.
 */
export function redraw(previous: Layout | undefined, next: Layout): string {
  let out = "";
  let at = 0; // the row the cursor is on, counted from the block's first row
  const move = (to: number) => {
    if (to < at) out += `${CSI}${at - to}A`;
    else if (to > at) out += `${CSI}${to - at}B`;
    at = to;
  };
  if (previous && previous.columns !== next.columns) {
    out += clearReflowed(previous, next.columns);
    previous = undefined;
  }
  if (!previous) {
    // Rows are erased one by one rather than with "erase below": from the top-left
    // corner that counts as clearing the screen, which tmux copies into its history.
    out += `\r${next.rows.map((row) => `${CSI}2K${row}`).join("\r\n")}`;
    at = next.rows.length - 1;
  } else {
    at = previous.cursorRow;
    for (let i = 0; i < next.rows.length; i++) {
      if (i < previous.rows.length) {
        if (previous.rows[i] === next.rows[i]) continue;
        move(i);
        out += `\r${CSI}2K${next.rows[i]}`;
      } else {
        // A new row below: a line feed, which scrolls the screen when the block is at its bottom.
        move(i - 1);
        out += `\r\n${CSI}2K${next.rows[i]}`;
        at = i;
      }
    }
    for (let i = next.rows.length; i < previous.rows.length; i++) {
      move(i);
      out += `\r${CSI}2K`;
    }
    if (out === "" && previous.cursorRow === next.cursorRow && previous.cursorCol === next.cursorCol) return "";
  }
  move(next.cursorRow);
  out += "\r";
  if (next.cursorCol > 0) out += `${CSI}${next.cursorCol}C`;
  return HIDE_CURSOR + out + SHOW_CURSOR;
}

/**
 * After a resize, erases the block drawn at the old width and leaves the
 * cursor at its first row. The terminal has reflowed it (tmux and most
 * terminals do): a row wider than the screen now takes several.
 *
 * What this cannot reach: tmux keeps the screen's bottom row in place when it
 * narrows (blank rows under the cursor included), so the rows a split adds push
 * the screen's top rows into its scrollback. With the block in the screen's
 * first rows (after Ctrl+L, under the banner, or moved up by earlier resizes:
 * each narrowing grows it upward, each widening redraws it from its first row),
 * its first rows go there; the cursor stops at the screen's top row and they
 * stay in the scrollback, a copy of the input's start above it.
 */
function clearReflowed(previous: Layout, columns: number): string {
  const heights = previous.widths.map((w) => Math.max(1, Math.ceil(w / columns)));
  let above = Math.min(heights[previous.cursorRow]! - 1, Math.floor(previous.cursorCol / columns));
  for (let i = 0; i < previous.cursorRow; i++) above += heights[i]!;
  const total = heights.reduce((a, b) => a + b, 0);
  let out = above > 0 ? `${CSI}${above}A` : "";
  out += `\r${Array.from({ length: total }, () => `${CSI}2K`).join(`${CSI}1B`)}`;
  if (total > 1) out += `${CSI}${total - 1}A`;
  return out;
}

/** Moves below the last row drawn, so whatever is printed next starts on a fresh line. */
export function leave(drawn: Layout | undefined): string {
  if (!drawn) return "\r\n";
  const down = drawn.rows.length - 1 - drawn.cursorRow;
  return `${down > 0 ? `${CSI}${down}B` : ""}\r\n`;
}

/** Ctrl+L: clear the screen and home the cursor; the prompt is then redrawn at the top. */
export const CLEAR_SCREEN = `${CSI}2J${CSI}H`;
