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

/** The grapheme clusters of one line, so a cursor never lands inside an emoji or a combining sequence. */
export function graphemes(line: string): string[] {
  return Array.from(segmenter.segment(line), (s) => s.segment);
}

/** Start of the grapheme before i (a newline counts as one). */
export function prevBoundary(text: string, i: number): number {
  if (i === 0) return 0;
  const start = lineStart(text, i);
  if (start === i) return i - 1;
  return i - graphemes(text.slice(start, i)).at(-1)!.length;
}

/** End of the grapheme after i (a newline counts as one). */
export function nextBoundary(text: string, i: number): number {
  if (i >= text.length) return text.length;
  if (text[i] === "\n") return i + 1;
  const [first] = segmenter.segment(text.slice(i, lineEnd(text, i)));
  return i + first!.segment.length;
}

/** Cells a string occupies on screen. */
export function displayWidth(s: string): number {
  const parts = s.split("\t");
  return parts.reduce((sum, part) => sum + Bun.stringWidth(part), 0) + TAB_WIDTH * (parts.length - 1);
}

/** Offset in the line starting at `start` whose column is closest to `column` without passing it. */
export function offsetAtColumn(text: string, start: number, column: number): number {
  let offset = start;
  let width = 0;
  for (const g of graphemes(text.slice(start, lineEnd(text, start)))) {
    const w = displayWidth(g);
    if (width + w > column) break;
    width += w;
    offset += g.length;
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
