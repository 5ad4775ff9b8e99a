// Geometry of the editor's buffer: where graphemes, words and lines begin and
// end, and how wide text is on screen. Shared by the state machine (cursor moves)
// and the renderer (cursor placement) so both agree on every column.

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Tabs are drawn as this many spaces: a fixed width keeps the cursor maths simple. */
export const TAB_WIDTH = 4;

export function lineStart(text: string, i: number): number {
  return i === 0 ? 0 : text.lastIndexOf("\n", i - 1) + 1;
}

export function lineEnd(text: string, i: number): number {
  const end = text.indexOf("\n", i);
  return end === -1 ? text.length : end;
}

/**
 * How far the grapheme functions look around an offset. They never segment a
 * whole line: a 10 MB line would cost every key press tens of milliseconds.
 */
const WINDOW = 1024;

/** Characters (code units) handed to the grapheme segmenter so far: tests read it to check the work per key is bounded. */
export const segmented = { chars: 0 };

export function segment(text: string): Intl.Segments {
  segmented.chars += text.length;
  return segmenter.segment(text);
}

const isAsciiPrintable = (code: number) => code >= 0x20 && code < 0x7f;

/**
 * A grapheme boundary at or before `i` and no earlier than `floor`: between two
 * printable ASCII characters there always is one (no ASCII character extends,
 * joins or prepends). Where none is near, `i` itself (a cut inside a cluster
 * longer than the window, which no real text has).
 */
function safeStartBefore(text: string, i: number, floor: number): number {
  for (let j = i; j > floor && j > i - WINDOW; j--) {
    if (isAsciiPrintable(text.charCodeAt(j)) && isAsciiPrintable(text.charCodeAt(j - 1))) return j;
  }
  if (i - WINDOW <= floor) return floor;
  const low = text.charCodeAt(i);
  return low >= 0xdc00 && low <= 0xdfff ? i - 1 : i; // at least never inside a surrogate pair
}

/** Start of the grapheme before i (a newline counts as one). */
export function prevBoundary(text: string, i: number): number {
  if (i === 0) return 0;
  const start = lineStart(text, i);
  if (start === i) return i - 1;
  const from = safeStartBefore(text, Math.max(start, i - WINDOW), start);
  let last = "";
  for (const s of segment(text.slice(from, i))) last = s.segment;
  return i - last.length;
}

/** End of the grapheme after i (a newline counts as one). */
export function nextBoundary(text: string, i: number): number {
  if (i >= text.length) return text.length;
  if (text[i] === "\n") return i + 1;
  const [first] = segment(text.slice(i, Math.min(lineEnd(text, i), i + WINDOW)));
  return i + first!.segment.length;
}

/** Cells a string occupies on screen. */
export function displayWidth(s: string): number {
  const parts = s.split("\t");
  return parts.reduce((sum, part) => sum + Bun.stringWidth(part), 0) + TAB_WIDTH * (parts.length - 1);
}

/** Offset in the line starting at `start` whose column is closest to `column` without passing it. */
export function offsetAtColumn(text: string, start: number, column: number): number {
  const end = lineEnd(text, start);
  let offset = start;
  let width = 0;
  // A window at a time, so a long line costs what the column reaches, not its whole length.
  while (offset < end) {
    const from = offset;
    const to = Math.min(end, from + Math.max(WINDOW, column * 4));
    for (const s of segment(text.slice(from, to))) {
      // The window's last cluster may go on past it: read it again from its start.
      if (s.index > 0 && to < end && s.index + s.segment.length === to - from) break;
      const w = displayWidth(s.segment);
      if (width + w > column) return offset;
      width += w;
      offset += s.segment.length;
    }
  }
  return offset;
}

export type WordTest = (char: string) => boolean;

/** Emacs words (Alt+B/F/Backspace): letters, digits, combining marks, underscore. */
export const isWordChar: WordTest = (c) => /[\p{L}\p{N}\p{M}_]/u.test(c);
/** Shell words (Ctrl+W): anything but whitespace. */
export const isNonSpace: WordTest = (c) => /\S/u.test(c);

function charBefore(text: string, i: number): string {
  const low = text.charCodeAt(i - 1);
  return i >= 2 && low >= 0xdc00 && low <= 0xdfff ? text.slice(i - 2, i) : text.slice(i - 1, i);
}

function charAt(text: string, i: number): string {
  return String.fromCodePoint(text.codePointAt(i)!);
}

/** Start of the word before i: skip separators, then the word itself. */
export function wordStartBefore(text: string, i: number, isWord: WordTest): number {
  while (i > 0 && !isWord(charBefore(text, i))) i -= charBefore(text, i).length;
  while (i > 0 && isWord(charBefore(text, i))) i -= charBefore(text, i).length;
  return i;
}

/** End of the word after i: skip separators, then the word itself. */
export function wordEndAfter(text: string, i: number, isWord: WordTest): number {
  while (i < text.length && !isWord(charAt(text, i))) i += charAt(text, i).length;
  while (i < text.length && isWord(charAt(text, i))) i += charAt(text, i).length;
  return i;
}
