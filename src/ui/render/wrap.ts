// Greedy word wrapping by display width (Bun.stringWidth: CJK and emoji take two
// columns), for text that arrives in pieces. It writes nothing it may have to
// take back: a word is placed once it is complete (whitespace or a newline
// follows it) or once it can no longer fit, so the rows it writes are final and
// the same whichever way the text was cut into pieces. That is what lets a
// stream be printed with no escape sequence at all (colour off, a pipe) and
// still be wrapped, and lets the live answer count the rows it has to erase.
//
// Rules: a newline ends the row; a word that does not fit in what is left of
// the row starts the next one (the spaces before it are dropped); a word wider
// than a whole row is cut between graphemes. Spaces and tabs at the start of a
// line (indentation) are kept, as are spaces before a newline when they fit.
// Tabs are written as tabs and counted to the next multiple of 8, as a
// terminal moves the cursor.

const TAB = 8;
const NL = 10;
const SPACE = 32;
const TAB_CODE = 9;
const WHITESPACE = /[ \t\n]/;
const ASCII_TEXT = /^[\x20-\x7e\t\n]*$/;
const LINE_OR_TAB = /[\t\n]/;
const isBreak = (c: number) => c === NL || c === SPACE || c === TAB_CODE;
const graphemes = new Intl.Segmenter();

export class WrapStream {
  readonly width: number;
  /** Rows ended so far (newlines written). */
  rows = 0;
  /** The width each ended row was written at (what a terminal that reflows on a resize splits). */
  readonly rowWidths: number[] = [];
  /** The row the last character that is not a space was written on (-1: none yet). */
  textRow = -1;
  #col = 0;
  /** Whitespace after the last placed word, not written yet. */
  #space = "";
  /** The word being received, not written yet. */
  #word = "";
  /** #word is printable ASCII, one column a character: its width is its length, no call needed. */
  #ascii = true;

  constructor(width: number) {
    this.width = Math.max(1, Math.floor(width));
  }

  /** The column the next character would be written at. */
  get column(): number {
    return this.#col;
  }

  push(text: string): string {
    // Most deltas are printable ASCII: known once for the delta, not per word.
    const ascii = ASCII_TEXT.test(text);
    // The common delta, part of a word: held, unless it can no longer fit.
    if (!WHITESPACE.test(text)) {
      this.#word += text;
      this.#ascii &&= ascii;
      return this.#overflow();
    }
    // Words and spaces that all fit on this row, however they are cut: all is
    // written up to the last run of spaces, which is held with the word after
    // it. The same as the loop below, in a few operations.
    if (ascii && this.#ascii && !LINE_OR_TAB.test(text) && !this.#space.includes("\t") && this.#col + this.#space.length + this.#word.length + text.length <= this.width) {
      let end = text.length;
      while (text.charCodeAt(end - 1) !== SPACE) end--; // after the last space (there is one)
      let start = end - 1;
      while (start > 0 && text.charCodeAt(start - 1) === SPACE) start--;
      let out = "";
      if (start > 0 || this.#word) {
        out = this.#space + this.#word + text.slice(0, start);
        this.#col += out.length;
        this.textRow = this.rows;
        this.#space = text.slice(start, end);
      } else this.#space += text.slice(0, end); // spaces after spaces: still no word to write
      this.#word = text.slice(end);
      return out;
    }
    let out = "";
    const n = text.length;
    for (let i = 0; i < n; ) {
      const c = text.charCodeAt(i);
      if (c === NL) {
        out += this.#placeWord();
        if (this.#space && this.#col + spaceWidth(this.#space, this.#col) <= this.width) out += this.#space; // trailing spaces that fit: the source as it is
        this.#space = "";
        out += this.#newline();
        i++;
      } else if (c === SPACE || c === TAB_CODE) {
        let j = i + 1;
        while (j < n && (text.charCodeAt(j) === SPACE || text.charCodeAt(j) === TAB_CODE)) j++;
        out += this.#placeWord();
        this.#space += text.slice(i, j);
        i = j;
      } else {
        let j = i + 1;
        while (j < n && !isBreak(text.charCodeAt(j))) j++;
        this.#word += text.slice(i, j);
        this.#ascii &&= ascii;
        out += this.#overflow();
        i = j;
      }
    }
    return out;
  }

  /** The end of the text: the word held back is written. Leaves the cursor where the text ended. */
  end(): string {
    const out = this.#placeWord();
    this.#space = "";
    return out;
  }

  #newline(): string {
    this.rowWidths.push(this.#col);
    this.rows++;
    this.#col = 0;
    return "\n";
  }

  /** A complete word: on this row after its spaces if it fits, else on the next (cut if wider than a row). */
  #placeWord(): string {
    if (!this.#word) return "";
    const word = this.#word;
    const space = this.#space;
    const ascii = this.#ascii;
    const w = ascii ? word.length : Bun.stringWidth(word);
    this.#word = "";
    this.#space = "";
    this.#ascii = true;
    const gap = space ? spaceWidth(space, this.#col) : 0;
    if (this.#col + gap + w <= this.width) {
      this.#col += gap + w;
      this.textRow = this.rows;
      return space + word;
    }
    let out = "";
    if (this.#col > 0) out += this.#newline();
    else if (space && gap < this.width) {
      out += space; // indentation at the start of a line stays
      this.#col = gap;
    }
    if (this.#col + w <= this.width) {
      this.#col += w;
      this.textRow = this.rows;
      return out + word;
    }
    return out + this.#hardPlace(word, true, ascii);
  }

  /**
   * A word still arriving that already cannot fit: move it to a new row now,
   * and write the rows it fills whole, so a word with no spaces (a hash, a
   * URL, a minified line) is never held back whole.
   */
  #overflow(): string {
    // Cheap bound first (it runs for every delta): no character is wider than 2 columns, no tab than 8.
    if (this.#col + this.#space.length * TAB + this.#word.length * 2 <= this.width) return "";
    const gap = this.#space ? spaceWidth(this.#space, this.#col) : 0;
    const room = this.width - this.#col - gap;
    const w = this.#ascii ? this.#word.length : Bun.stringWidth(this.#word);
    if (w <= room) return "";
    let out = "";
    if (this.#col > 0) {
      out += this.#newline();
    } else if (this.#space && gap < this.width) {
      out += this.#space;
      this.#col += gap;
    }
    this.#space = "";
    if (this.#col + w <= this.width) return out; // fits the fresh row; still held until it ends
    out += this.#hardPlace(this.#word, false, this.#ascii);
    return out;
  }

  /**
   * Writes `word` from the cursor, cut between graphemes at the row's end.
   * When `whole` is false the word is still arriving: only rows it fills
   * completely are written (the next grapheme is known not to fit), the rest
   * stays held in #word. One pass over the word, so a word of a megabyte (a
   * hash, base64, minified code) costs what its length does.
   */
  #hardPlace(word: string, whole: boolean, ascii: boolean): string {
    let out = "";
    let rest: string;
    if (ascii) {
      // One column a character: rows are slices.
      let i = 0;
      while (word.length - i > this.width - this.#col) {
        const room = this.width - this.#col;
        if (room > 0) this.textRow = this.rows;
        out += word.slice(i, i + room) + this.#newline();
        i += room;
      }
      rest = word.slice(i);
    } else {
      let pieceWidth = 0;
      let from = 0; // where the row being filled starts in `word`
      for (const { segment, index } of graphemes.segment(word)) {
        const w = Bun.stringWidth(segment);
        if (this.#col + pieceWidth + w > this.width && (pieceWidth > 0 || this.#col > 0)) {
          if (pieceWidth > 0) this.textRow = this.rows;
          out += word.slice(from, index) + this.#newline();
          from = index;
          pieceWidth = 0;
        }
        pieceWidth += w;
      }
      rest = word.slice(from);
    }
    if (!whole) {
      this.#word = rest;
      return out;
    }
    this.#col += ascii ? rest.length : Bun.stringWidth(rest);
    if (rest) this.textRow = this.rows;
    return out + rest;
  }
}

/** How many columns whitespace takes from column `col`. */
function spaceWidth(space: string, col: number): number {
  if (space.length === 1 ? space !== "\t" : !space.includes("\t")) return space.length;
  let c = col;
  for (const ch of space) c = ch === "\t" ? (Math.floor(c / TAB) + 1) * TAB : c + 1;
  return c - col;
}

/** Whole text wrapped as WrapStream would stream it. */
export function wrapText(text: string, width: number): string {
  const stream = new WrapStream(width);
  return stream.push(text) + stream.end();
}
