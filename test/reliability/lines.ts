// Line-level checks the reliability tests share.
import { expect } from "bun:test";
import { decisionsOf } from "../../src/session";

/** The newline-terminated lines of `bytes`; with `rest`, also what follows the last newline ("" when the file ends with one). */
export function splitLines(bytes: Buffer, rest = false): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, nl));
    start = nl + 1;
  }
  if (rest) lines.push(bytes.subarray(start));
  return lines;
}

/**
 * A whole session file: it ends with a newline, every line is one JSON object
 * (nothing interleaved or fused), the header comes first, and each entry's
 * parent is the conversation entry before it (titles are passed over). Returns the entry count.
 */
export function checkChain(content: Buffer, file: string): number {
  expect(content.at(-1)).toBe(0x0a);
  const entries = splitLines(content).map((line, i) => {
    try {
      return JSON.parse(line.toString("utf8"));
    } catch {
      throw new Error(`${file}:${i + 1}: not one JSON object (interleaved or fused?): ${line.toString("utf8", 0, 120)}`);
    }
  });
  expect(entries[0].type).toBe("session");
  let parent: string | null = null;
  for (const entry of entries.slice(1)) {
    expect(entry.parentId).toBe(parent);
    // Bookkeeping (a title, a partial) hangs off the entry before it and never becomes the one the next entry follows.
    if (decisionsOf(entry.type).role !== "bookkeeping") parent = entry.id;
  }
  return entries.length - 1;
}
