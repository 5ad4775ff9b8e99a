// Cuts streamed markdown into the pieces that can be rendered on their own as
// soon as they are complete: a paragraph, a heading, a list item, a table, a
// quote; a fenced code block's top as soon as it opens. A cut is made only where
// rendering the pieces apart gives what rendering the whole gives (Bun's
// renderer puts one blank row between blocks, none before a list or an HTML
// block: see `separator`), so the streamed answer ends up as the whole answer
// rendered at once. test/ui/render/markdown-stream.test.ts checks both against
// Bun.markdown.ansi of the whole text.
//
// Where it cuts (the text seen so far always decides; nothing is taken back):
//   - before a line that starts at column 0 after a blank line (an indented one
//     continues the block: a list item's next paragraph, indented code);
//   - before an ATX heading or a fence at column 0, and after the heading;
//   - before each new item of a list (`- `, `* `, `+ `, `1. `, `1) `) at column 0;
//   - in a fence at column 0: after the opening line, and at the closing line
//     (its code lines, all at once; or a batch whenever the live view asks,
//     see flushFence).
// Inside any other fence (indented, in a list item) or an HTML block nothing
// is cut. An ordered list's items cut apart keep the numbers Bun would give
// them whole (see #numbered). Reference links defined in a later block than
// their use are the known loss; a loose list's items lack the SGR reset Bun
// ends each with, which shows nowhere.

export type Piece =
  /** `ownLine`: completed by its own last line (a heading), not by what came after it. */
  | { kind: "block"; text: string; ownLine?: true }
  | { kind: "fenceTop"; opener: string }
  | { kind: "fenceLines"; opener: string; lines: string[] }
  | { kind: "fenceBottom"; opener: string; empty: boolean };

interface Fence {
  char: string;
  length: number;
  opener: string;
}

const FENCE = /^(`{3,}|~{3,})(.*)$/;
const HEADING = /^#{1,6}(?:[ \t]|$)/;
const BULLET = /^[-*+](?:[ \t]|$)/;
const ORDERED = /^(\d{1,9})[.)](?:[ \t]|$)/;
/** Could still become a fence, a heading or a list marker once more of the line arrives. */
const UNDECIDED = /^(?:`{1,2}|~{1,2}|#{1,6}|[-*+]|\d{1,9}[.)]?)$/;
/** The start of an HTML block (CommonMark's seven kinds): Bun puts no blank row before one. */
const HTML_BLOCK = [
  /^ {0,3}<(?:script|pre|style|textarea)(?:[\s>]|$)/i,
  /^ {0,3}<(?:!--|\?|![A-Za-z]|!\[CDATA\[)/,
  /^ {0,3}<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[\s>]|\/>|$)/i,
  /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)\s*$/,
];
/** What ends an HTML block of kinds 1 to 5 (any line holding it); kinds 6 and 7 end at a blank line. */
const HTML_END: [RegExp, RegExp][] = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];
const THEMATIC_BREAK = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;

/** What goes between two rendered pieces: a blank row, except before a list, an HTML block or more of a fence. */
export function separator(piece: Piece): string {
  if (piece.kind === "fenceLines" || piece.kind === "fenceBottom") return "";
  if (piece.kind === "fenceTop") return "\n";
  const first = piece.text.split("\n").find((line) => line.trim()) ?? "";
  return listMarker(first) || HTML_BLOCK.some((re) => re.test(first)) ? "" : "\n";
}

/** What most pushes return: shared, never changed. */
const NONE: Piece[] = [];

export class BlockSplitter {
  /** Lines of the block being received (outside a top-level fence). */
  #lines: string[] = [];
  #hasText = false;
  #afterBlank = false;
  /** The last line at column 0 started a list item (its marker), or lazily continues one. */
  #listMarker: string | undefined;
  /** The ordered list the block ends in, so far: its delimiter, first number, and items. */
  #ordered: { delim: string; start: number; items: number; fromFirstLine: boolean } | undefined;
  /**
   * The ordered list the last piece ended in. Bun numbers a list's items from
   * its first number on ("1. 1. 1." shows 1, 2, 3), so an item rendered apart
   * gets the number it would have had: see #numbered.
   */
  #carried: { delim: string; next: number } | undefined;
  /** Inside an HTML block: nothing cuts it until its end (a pattern, or a blank line: null). */
  #html: RegExp | null | undefined;
  /** A fence inside the block (indented): it is not cut. */
  #innerFence: Fence | undefined;
  /** A fence at column 0: its top is given out at once, its lines when it closes (or when flushFence asks). */
  #fence: Fence | undefined;
  #fenceLines: string[] = [];
  #fenceEmpty = true;
  /** The line being received. */
  #partial = "";
  /** Whether the cut before #partial has been decided already. */
  #decided = false;

  /** Pieces the text completes (often none: then always the same empty array). */
  push(text: string): Piece[] {
    let nl = text.indexOf("\n");
    if (nl === -1) {
      // Most deltas: more of the line. Only its first characters can decide a cut.
      this.#partial += text;
      if (this.#decided || !this.#partial) return NONE;
      const out: Piece[] = [];
      this.#decide(this.#partial, false, out);
      return out.length ? out : NONE;
    }
    const out: Piece[] = [];
    let from = 0;
    for (; nl !== -1; nl = text.indexOf("\n", from)) {
      this.#line(this.#partial + text.slice(from, nl), out);
      this.#partial = "";
      from = nl + 1;
    }
    this.#partial = text.slice(from);
    if (this.#partial && !this.#decided) this.#decide(this.#partial, false, out);
    return out.length ? out : NONE;
  }

  /** The end of the text: whatever is open is complete. */
  end(): Piece[] {
    const out: Piece[] = [];
    if (this.#partial) this.#line(this.#partial, out);
    this.#partial = "";
    this.#flushFence(out);
    if (this.#fence) {
      out.push({ kind: "fenceBottom", opener: this.#fence.opener, empty: this.#fenceEmpty });
      this.#fence = undefined;
    }
    this.#emitBlock(out);
    return out;
  }

  /** Inside a fence at column 0: what is pending is code lines. */
  inFence(): boolean {
    return this.#fence !== undefined;
  }

  /**
   * The complete code lines of the open fence, now rather than when it closes
   * (a fence taller than the screen is rendered a screenful at a time).
   */
  flushFence(): Piece[] {
    const out: Piece[] = [];
    this.#flushFence(out);
    return out;
  }

  /** Source not yet given out as a piece: what the live view shows plainly. */
  pending(): string {
    if (this.#fence) return this.#fenceLines.map((l) => `${l}\n`).join("") + this.#partial;
    return this.#lines.map((l) => `${l}\n`).join("") + this.#partial;
  }

  #line(line: string, out: Piece[]): void {
    if (!this.#decided) this.#decide(line, true, out);
    this.#decided = false;
    if (this.#fence) {
      if (closes(line, this.#fence)) {
        this.#flushFence(out);
        out.push({ kind: "fenceBottom", opener: this.#fence.opener, empty: this.#fenceEmpty });
        this.#fence = undefined;
        this.#reset();
      } else {
        this.#fenceLines.push(line);
        this.#fenceEmpty = false;
      }
      return;
    }
    if (this.#innerFence) {
      if (closes(line, this.#innerFence)) this.#innerFence = undefined;
      this.#lines.push(line);
      return;
    }
    if (this.#html !== undefined) {
      this.#lines.push(line);
      if (this.#html ? this.#html.test(line) : !line.trim()) {
        this.#html = undefined;
        if (!line.trim()) this.#afterBlank = true;
      }
      return;
    }
    const fence = opensFence(line);
    if (fence && !isIndented(line)) {
      this.#carried = undefined;
      this.#fence = fence;
      this.#fenceEmpty = true;
      out.push({ kind: "fenceTop", opener: fence.opener });
      return;
    }
    if (line[0] === "#" && HEADING.test(line)) {
      this.#lines.push(line);
      this.#hasText = true;
      this.#emitBlock(out);
      (out.at(-1) as Extract<Piece, { kind: "block" }>).ownLine = true;
      return;
    }
    if (fence) this.#innerFence = fence;
    const html = isIndented(line) ? undefined : htmlBlock(line, !this.#hasText || this.#afterBlank);
    if (html !== undefined) {
      this.#lines.push(line);
      this.#hasText = true;
      this.#afterBlank = false;
      this.#listMarker = undefined;
      this.#ordered = undefined;
      const [, end] = html;
      if (!end?.test(line.replace(/^ {0,3}<[^\s>]*/, ""))) this.#html = end;
      return;
    }
    this.#lines.push(line);
    const blank = !line.trim();
    if (blank) {
      this.#afterBlank = this.#hasText;
      return;
    }
    if (!isIndented(line)) {
      // A marker line starts an item when it opens the block, continues a list, or may interrupt a paragraph;
      // otherwise it is a lazy line of the paragraph (or of the item) before it, as any other line at column 0 is.
      const marker = listMarker(line);
      if (line[0] === ">" || ((line[0] === "*" || line[0] === "-" || line[0] === "_") && THEMATIC_BREAK.test(line))) {
        // A quote or a rule ends the list (it may interrupt a paragraph, lazy or not).
        this.#listMarker = undefined;
        this.#ordered = undefined;
      }
      if (marker && (!this.#hasText || startsListItem(line, marker, this.#listMarker))) {
        this.#listMarker = marker;
        if (marker !== "." && marker !== ")") this.#ordered = undefined;
        else if (this.#ordered?.delim === marker) this.#ordered.items++;
        else this.#ordered = { delim: marker, start: Number(ORDERED.exec(line)![1]), items: 1, fromFirstLine: !this.#hasText };
      }
    }
    this.#hasText = true;
    this.#afterBlank = false;
  }

  /**
   * Whether the block so far ends before `line` (complete or only begun):
   * emits it if so. Undecided (a line begun with "`", "#", "-", "1."...) waits
   * for more of the line.
   */
  #decide(line: string, complete: boolean, out: Piece[]): void {
    if (this.#fence || this.#innerFence || this.#html !== undefined || !this.#hasText || (complete && !line.trim())) {
      this.#decided = true;
      return;
    }
    if (isIndented(line)) {
      this.#decided = true;
      return;
    }
    if (this.#afterBlank) {
      this.#decided = true;
      this.#emitBlock(out);
      return;
    }
    if (HEADING.test(line)) {
      this.#decided = true;
      this.#emitBlock(out);
      return;
    }
    if (!complete && UNDECIDED.test(line)) return;
    if (!complete && /^(?:`{3}|~{3})/.test(line)) return; // a fence or a paragraph: the rest of the line tells
    this.#decided = true;
    const marker = listMarker(line);
    const startsItem = marker !== undefined && this.#listMarker !== undefined && startsListItem(line, marker, this.#listMarker);
    const fence = complete && opensFence(line);
    if (startsItem || fence) this.#emitBlock(out);
  }

  #emitBlock(out: Piece[]): void {
    if (this.#hasText) out.push({ kind: "block", text: this.#numbered(this.#lines.join("\n")) });
    this.#reset();
  }

  /** The block's text, its first item renumbered when it continues the ordered list the last piece ended in. */
  #numbered(text: string): string {
    const carried = this.#carried;
    const ordered = this.#ordered;
    this.#carried = undefined;
    const first = /^((?:[ \t]*\n)*)(\d{1,9})([.)])/.exec(text);
    if (first && carried && carried.delim === first[3]) {
      if (ordered?.fromFirstLine) ordered.start = carried.next;
      text = `${first[1]}${carried.next}${text.slice(first[0].length - 1)}`;
    }
    if (ordered) this.#carried = { delim: ordered.delim, next: ordered.start + ordered.items };
    return text;
  }

  #reset(): void {
    this.#lines = [];
    this.#hasText = false;
    this.#afterBlank = false;
    this.#listMarker = undefined;
    this.#ordered = undefined;
    this.#innerFence = undefined;
    this.#html = undefined;
  }

  #flushFence(out: Piece[]): void {
    if (!this.#fence || !this.#fenceLines.length) return;
    out.push({ kind: "fenceLines", opener: this.#fence.opener, lines: this.#fenceLines });
    this.#fenceLines = [];
  }
}

/**
 * The HTML block `line` starts, as [start, end]: end is the pattern that ends
 * it, or null for "a blank line". Kind 7 (any lone tag) may not interrupt a
 * paragraph, so it counts only at the start of a block.
 */
function htmlBlock(line: string, atStart: boolean): [RegExp, RegExp | null] | undefined {
  if (line.trimStart()[0] !== "<") return undefined;
  const kind = HTML_END.find(([start]) => start.test(line));
  if (kind) return kind;
  if (HTML_BLOCK[2]!.test(line)) return [HTML_BLOCK[2]!, null];
  if (atStart && HTML_BLOCK[3]!.test(line)) return [HTML_BLOCK[3]!, null];
  return undefined;
}

function isIndented(line: string): boolean {
  return line.startsWith(" ") || line.startsWith("\t");
}

function opensFence(line: string): Fence | undefined {
  const lead = line.trimStart()[0];
  if (lead !== "`" && lead !== "~") return undefined;
  const m = FENCE.exec(line.replace(/^[ \t]+/, ""));
  if (!m) return undefined;
  const [, run = "", info = ""] = m;
  if (run[0] === "`" && info.includes("`")) return undefined; // inline code, not a fence
  return { char: run[0]!, length: run.length, opener: line.trimStart().trimEnd() };
}

function closes(line: string, fence: Fence): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line.replace(/^[ \t]+/, (s) => (s.length <= 3 ? s : "    ")));
  return !!m && m[1]![0] === fence.char && m[1]!.length >= fence.length;
}

/** "-", "*", "+", "." or ")": the kind of list a line at column 0 would start an item of. */
function listMarker(line: string): string | undefined {
  const c = line[0];
  if (c === undefined || !"-*+0123456789".includes(c)) return undefined;
  if (THEMATIC_BREAK.test(line)) return undefined; // "* * *", "- - -": a rule, not an item
  if (BULLET.test(line)) return line[0];
  const m = ORDERED.exec(line);
  return m ? line[m[1]!.length] : undefined;
}

/**
 * After a line of a list item (`current` is its marker) any marker line starts
 * an item, of that list or a new one: the line does not continue the item's
 * paragraph, which is inside the item. After a paragraph (undefined), only a
 * marker that may interrupt it does.
 */
function startsListItem(line: string, marker: string, current: string | undefined): boolean {
  return current !== undefined || canInterrupt(line, marker);
}

/** A first item may interrupt a paragraph only when it is not empty, and an ordered one only when it starts at 1. */
function canInterrupt(line: string, marker: string): boolean {
  if (!line.slice(marker === "." || marker === ")" ? line.indexOf(marker) + 1 : 1).trim()) return false;
  if (marker === "." || marker === ")") return /^0*1[.)]/.test(line);
  return true;
}
