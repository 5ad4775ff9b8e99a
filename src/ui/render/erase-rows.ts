// Erasing rows awl drew, counted up from the cursor's row, one by one rather
// than with "erase below": tmux takes an erase below from the screen's
// top-left corner for clearing the screen and copies the whole screen into
// its history. The first row is there whenever a resize pushed the rows above
// it into the scrollback (tmux keeps the cursor's row where it was and moves
// the rows a narrower screen adds above it into the history).

/** Erases the cursor's row and the `up` rows above it; the cursor is left at the start of the first. */
export function eraseRows(up: number): string {
  const move = up > 0 ? `\x1b[${up}A` : "";
  return `\r${move}\x1b[2K${"\x1b[1B\x1b[2K".repeat(up)}${move}`;
}
