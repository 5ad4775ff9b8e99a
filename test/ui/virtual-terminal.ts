// A terminal small enough to check the live answer against: it keeps every
// row ever written (scrollback and screen), follows the few controls the live
// view uses (newline, CR, cursor up and down, erase down; SGR and OSC 8 are kept as
// text) and those the rows under the output use (save and restore the cursor,
// index down and up, erase a row or its end, autowrap off and on) and the input box uses
// (cursor forward, the cursor hidden and shown), and records what a real terminal could not
// do as awl meant it:
//   - a cursor up past the screen's top row: the rows above are in the
//     scrollback, which no erase reaches, so what they hold would stay twice;
//   - text written over text already on the row (a CR not followed by an erase);
//   - a row wider than the terminal (the terminal would wrap it, and the rows
//     the live view counts would be wrong);
//   - any other control.
// A resize reflows the rows as tmux does: a row wider than the new width is
// split into several, the cursor following its character; rows never join.
// Made with `{ bottomAnchored: true }`, it also keeps the screen where tmux
// does: its bottom row stays its bottom row (blank rows under the cursor
// included), so the rows a narrowing adds push the top ones into the
// scrollback. The input box's tests (test/ui/input) use that; the others keep
// the screen's top row in place.

const STYLE = /^(?:\x1b\[[0-9;:]*m|\x1b\]8;[^\x07\x1b]*(?:\x1b\\|\x07))/;

export class VirtualTerminal {
  /** Every row, scrollback first. */
  readonly rows: string[] = [""];
  readonly problems: string[] = [];
  #row = 0;
  #col = 0;
  /** The first row on the screen: rows above it have scrolled into the scrollback. */
  #top = 0;
  #saved: { row: number; col: number } | undefined;

  readonly #bottomAnchored: boolean;

  constructor(
    public width: number,
    readonly height: number,
    options: { bottomAnchored?: boolean } = {},
  ) {
    this.#bottomAnchored = options.bottomAnchored ?? false;
  }

  /** The terminal made `columns` wide: rows wider than that are split (reflowed), none is joined. */
  resize(columns: number): void {
    const rows: string[] = [];
    let top = 0;
    let row = 0;
    let col = this.#col;
    const bottom = this.#top + this.height - 1;
    let newBottom = -1;
    for (const [i, text] of this.rows.entries()) {
      if (i === this.#top) top = rows.length;
      const pieces = Bun.stringWidth(text) > columns ? Bun.wrapAnsi(text, columns, { hard: true, trim: false, wordWrap: false }).split("\n") : [text];
      if (i === this.#row) {
        const k = Math.min(pieces.length - 1, Math.max(0, Math.ceil(this.#col / columns) - 1));
        row = rows.length + k;
        col = this.#col - k * columns;
      }
      rows.push(...pieces);
      if (i === bottom) newBottom = rows.length - 1;
    }
    // A bottom row never written is a blank one: it moves down by every row the splits added.
    if (newBottom < 0) newBottom = bottom + rows.length - this.rows.length;
    this.rows.splice(0, this.rows.length, ...rows);
    this.width = columns;
    this.#row = row;
    this.#col = col;
    this.#top = this.#bottomAnchored ? Math.max(0, newBottom - this.height + 1) : Math.max(top, row - this.height + 1);
    // tmux then puts the cursor at the screen's top-left corner: nothing drawn relative to it lands where it was meant to.
    if (row < this.#top) this.problems.push(`the cursor's row pushed into the scrollback by the reflow (row ${row}, screen top ${this.#top})`);
  }

  write(bytes: string): void {
    let i = 0;
    while (i < bytes.length) {
      const rest = bytes.slice(i);
      const style = STYLE.exec(rest);
      if (style) {
        this.rows[this.#row] += style[0];
        i += style[0].length;
        continue;
      }
      const up = /^\x1b\[(\d*)A/.exec(rest);
      if (up) {
        this.#row -= Number(up[1] || 1);
        if (this.#row < this.#top) this.problems.push(`cursor up into the scrollback (row ${this.#row}, screen top ${this.#top})`);
        this.#row = Math.max(this.#row, this.#top);
        i += up[0].length;
        continue;
      }
      const down = /^\x1b\[(\d*)B/.exec(rest); // cursor down: stops at the screen's last row, never scrolls
      if (down) {
        this.#row = Math.min(this.#row + Number(down[1] || 1), this.#top + this.height - 1);
        while (this.#row >= this.rows.length) this.rows.push("");
        i += down[0].length;
        continue;
      }
      const esc = /^\x1b([78DM])/.exec(rest);
      if (esc) {
        i += 2;
        if (esc[1] === "7") this.#saved = { row: this.#row, col: this.#col };
        else if (esc[1] === "8") {
          if (!this.#saved) this.problems.push("restore without a save");
          else [this.#row, this.#col] = [this.#saved.row, this.#saved.col];
        } else if (esc[1] === "D") this.#down();
        else {
          this.#row--;
          if (this.#row < this.#top) this.problems.push(`reverse index above the screen's top (row ${this.#row}, screen top ${this.#top})`);
          this.#row = Math.max(this.#row, this.#top);
        }
        continue;
      }
      const mode = /^\x1b\[\?(?:7|25)[hl]/.exec(rest); // autowrap on and off (rows here are never wider than the terminal anyway), the cursor hidden and shown
      if (mode) {
        i += mode[0].length;
        continue;
      }
      const forward = /^\x1b\[(\d*)C/.exec(rest); // cursor forward: where the input's cursor is shown; text written after it would be an overwrite
      if (forward) {
        this.#col = Math.min(this.#col + Number(forward[1] || 1), this.width - 1);
        i += forward[0].length;
        continue;
      }
      if (rest.startsWith("\x1b[2K")) {
        this.rows[this.#row] = (this.rows[this.#row]!.match(/\x1b\[[0-9;:]*m/g) ?? []).join("");
        i += 4;
        continue;
      }
      if (rest.startsWith("\x1b[K")) {
        // Erase to the row's end: what is left of the cursor stays, with every style written on the row.
        const row = this.rows[this.#row]!;
        this.rows[this.#row] = Bun.sliceAnsi(row, 0, this.#col) + (Bun.sliceAnsi(row, this.#col).match(/\x1b\[[0-9;:]*m/g) ?? []).join("");
        i += 3;
        continue;
      }
      if (rest.startsWith("\x1b[J")) {
        if (this.#col !== 0) this.problems.push("erase down from the middle of a row");
        // An SGR written there took effect even though its row is erased: it is kept, where the cursor is.
        const styles = this.rows.slice(this.#row).join("").match(/\x1b\[[0-9;:]*m/g) ?? [];
        this.rows.length = this.#row + 1;
        this.rows[this.#row] = styles.join("");
        i += 3;
        continue;
      }
      const ch = String.fromCodePoint(rest.codePointAt(0)!);
      i += ch.length;
      if (ch === "\n") {
        this.#down();
        this.#col = 0;
      } else if (ch === "\r") {
        this.#col = 0;
      } else if (/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(ch)) {
        this.problems.push(`control ${JSON.stringify(ch)}`);
      } else {
        if (this.#col < Bun.stringWidth(this.rows[this.#row]!)) this.problems.push(`overwrite on row ${this.#row}`);
        this.rows[this.#row] += ch;
        this.#col = Bun.stringWidth(this.rows[this.#row]!);
        if (this.#col > this.width) this.problems.push(`row ${this.#row} wider than ${this.width}: ${JSON.stringify(Bun.stripANSI(this.rows[this.#row]!))}`);
      }
    }
  }

  /** Down a row, the column kept; at the screen's bottom the top row scrolls into the scrollback. */
  #down(): void {
    this.#row++;
    while (this.#row >= this.rows.length) this.rows.push("");
    this.#top = Math.max(this.#top, this.#row - this.height + 1);
  }

  /** The rows on the screen now, top to bottom (the scrollback is above them). */
  screen(): string[] {
    return this.rows.slice(this.#top, this.#top + this.height);
  }

  /** The cursor's row (counted from the first row ever written) and column. */
  get cursor(): { row: number; col: number } {
    return { row: this.#row, col: this.#col };
  }

  /** All rows, as the bytes that would have produced them without any erasing. */
  text(): string {
    return this.rows.join("\n");
  }
}
