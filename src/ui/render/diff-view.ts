// What write or edit did to a file, as a coloured unified diff for the
// terminal: a few lines of context around each change, `@@` headers with line
// numbers, long diffs cut with a count of what is left out, a new file as its
// first lines added. A line wider than the screen is wrapped between words
// (its later rows hang under its text, in its colour), never cut. It is computed from the bytes the tool read and wrote
// (ToolOutput.change), so it shows what happened, not what the model asked for.
//
// Both files are first cut down to the lines that differ, plus context, by
// comparing bytes (a one-line edit in a 100 MB file diffs a dozen lines); only
// those are decoded. Bytes that are not UTF-8 show as U+FFFD, every control as
// safeText shows it; a file whose lines all end in CRLF (before and after) is
// shown without the CRs, any other CR as ␍.

import type { FileChange } from "../../tools/tool";
import type { Colors } from "./colors";
import { diffLines, hunks, type DiffLine, type SideLines } from "./diff";
import { compactNumber, expandTabs, wrapLine } from "./format";
import { safeText } from "./safe-text";

export const CONTEXT_LINES = 3;
/** Rows of diff shown under the tool line before the rest is counted. */
export const DIFF_ROWS = 20;

const LF = 0x0a;
const CHUNK = 64 * 1024;
const decoder = new TextDecoder("utf-8"); // not fatal: a byte that is not UTF-8 becomes U+FFFD

/**
 * The diff as rows to print (not indented), at most `maxRows` plus one saying
 * how much is left out.
 */
export function renderChange(change: FileChange, c: Colors, width: number, maxRows = DIFF_ROWS): string[] {
  const textWidth = Math.max(10, width - 1);
  /** A diff line's rows: its mark, then its text wrapped; later rows hang under the text. */
  const lineRows = (line: DiffLine) => {
    const style = line.kind === "+" ? c.green : line.kind === "-" ? c.red : c.dim;
    const text = expandTabs(safeText(line.text));
    const indent = /^ */.exec(text)![0];
    const hang = indent.length <= textWidth / 2 ? indent : "";
    return wrapLine(text, textWidth, hang).map((row, i) => style(`${i === 0 ? line.kind : " "}${row}`));
  };

  if (change.created || !change.before) {
    if (isBinary(change.after)) return [c.dim(`binary file, ${bytes(change.after.length)}`)];
    const side = sideLines(decoder.decode(change.after), true, false);
    const rows: string[] = [];
    if (!change.created) rows.push(c.dim("(the previous content was too large to compare)"));
    let shown = 0;
    for (const text of side.lines) {
      const more = lineRows({ kind: "+", text });
      if (rows.length + more.length > maxRows && shown > 0) break;
      rows.push(...more);
      shown++;
    }
    const more = side.lines.length - shown;
    if (more > 0) rows.push(c.dim(`… ${more.toLocaleString("en-US")} more line${more === 1 ? "" : "s"}`));
    return rows;
  }

  const excerpt = changedRegion(change.before, change.after);
  if (!excerpt) return [c.dim("(no changes)")];
  if (isBinary(excerpt.before) || isBinary(excerpt.after)) return [c.dim(`binary file changed: ${bytes(change.before.length)} -> ${bytes(change.after.length)}`)];
  const oldText = decoder.decode(excerpt.before);
  const newText = decoder.decode(excerpt.after);
  const crlf = allCrlf(oldText) && allCrlf(newText);
  const lines = diffLines(sideLines(oldText, excerpt.atEnd, crlf), sideLines(newText, excerpt.atEnd, crlf));

  const rows: string[] = [];
  let hidden = 0;
  let added = 0;
  let removed = 0;
  let full = false; // a line did not fit: every later one is counted instead
  for (const hunk of hunks(lines, CONTEXT_LINES, excerpt.firstLine)) {
    const header = c.cyan(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    if (!full && rows.length < maxRows) rows.push(header);
    else full = true;
    for (const line of hunk.lines) {
      const more = full ? [] : lineRows(line);
      if (!full && rows.length + more.length <= maxRows) {
        rows.push(...more);
        if (line.noNewline && rows.length < maxRows) rows.push(c.dim("\\ No newline at end of file"));
        continue;
      }
      full = true;
      hidden++;
      if (line.kind === "+") added++;
      if (line.kind === "-") removed++;
    }
  }
  if (hidden) {
    const counts = [added && `+${added}`, removed && `-${removed}`].filter(Boolean).join(" ");
    rows.push(c.dim(`… ${hidden.toLocaleString("en-US")} more line${hidden === 1 ? "" : "s"}${counts ? ` (${counts})` : ""}`));
  }
  return rows;
}

function bytes(n: number): string {
  return n < 1000 ? `${n} byte${n === 1 ? "" : "s"}` : `${compactNumber(n)}B`;
}

/** NUL in the first 8 KB, as read decides. */
function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

function allCrlf(text: string): boolean {
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) if (text[i - 1] !== "\r") return false;
  return text.includes("\n");
}

/** Lines of an excerpt; its last line has no newline only when the excerpt is the file's end and the file ends without one. */
function sideLines(text: string, atEnd: boolean, crlf: boolean): SideLines {
  const lines = text.split(crlf ? "\r\n" : "\n");
  const endsWithNewline = lines.at(-1) === "";
  if (endsWithNewline) lines.pop();
  return { lines, noNewline: atEnd && !endsWithNewline && lines.length > 0 };
}

interface Region {
  before: Uint8Array;
  after: Uint8Array;
  /** The line number (1-based) the excerpts start at. */
  firstLine: number;
  /** The excerpts run to the end of the files. */
  atEnd: boolean;
}

/**
 * The lines that differ, with room for context, cut from both files at the
 * same line boundaries; undefined when the files are the same.
 */
export function changedRegion(before: Uint8Array, after: Uint8Array): Region | undefined {
  const a = Buffer.from(before.buffer, before.byteOffset, before.byteLength);
  const b = Buffer.from(after.buffer, after.byteOffset, after.byteLength);
  const head = commonPrefix(a, b);
  if (head === a.length && head === b.length) return undefined;
  const tail = commonSuffix(a, b, head);
  // Back to the start of the first changed line, then CONTEXT_LINES lines more.
  // (lastIndexOf counts a negative offset from the end, hence the guards.)
  let start = head > 0 ? a.lastIndexOf(LF, head - 1) + 1 : 0;
  for (let n = 0; n < CONTEXT_LINES && start > 0; n++) start = start >= 2 ? a.lastIndexOf(LF, start - 2) + 1 : 0;
  // On to the end of the last changed line, then CONTEXT_LINES more (the tail is the same bytes in both).
  let extra = 0;
  for (let n = 0; n <= CONTEXT_LINES && extra < tail; n++) {
    const nl = a.indexOf(LF, a.length - tail + extra);
    extra = nl === -1 ? tail : nl + 1 - (a.length - tail);
  }
  const atEnd = extra >= tail;
  return {
    before: a.subarray(start, a.length - tail + extra),
    after: b.subarray(start, b.length - tail + extra),
    firstLine: countLines(a, start) + 1,
    atEnd,
  };
}

/** How many bytes both start with; compared a chunk at a time (a native compare), then a byte at a time. */
function commonPrefix(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i + CHUNK <= n && a.compare(b, i, i + CHUNK, i, i + CHUNK) === 0) i += CHUNK;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** How many bytes both end with, not reaching into the first `head` bytes of either. */
function commonSuffix(a: Buffer, b: Buffer, head: number): number {
  const n = Math.min(a.length, b.length) - head;
  let i = 0;
  while (i + CHUNK <= n && a.compare(b, b.length - i - CHUNK, b.length - i, a.length - i - CHUNK, a.length - i) === 0) i += CHUNK;
  while (i < n && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

function countLines(bytes: Buffer, end: number): number {
  let count = 0;
  for (let i = bytes.indexOf(LF); i !== -1 && i < end; i = bytes.indexOf(LF, i + 1)) count++;
  return count;
}
