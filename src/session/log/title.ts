// A session's title (docs/session-format.md, "Titles"): a `session_info` line.
// Readers that do not replay the whole file find the latest one by searching
// the file backwards for the line head awl writes, so a title survives any
// amount of later writing at the cost of one backward scan at worst.
import { LineError, parseLine } from "./codec";
import { lastIndexBefore, readLineAt } from "./lines";
import type { SessionInfoEntry } from "./schema";

/** The widest a title is written, in terminal columns. */
export const TITLE_COLUMNS = 80;
const HEAD = Buffer.from('\n{"type":"session_info"');

export type Title = Pick<SessionInfoEntry, "title" | "source">;

/** The first line of the prompt that has words, its spaces collapsed, cut to TITLE_COLUMNS with an ellipsis. */
export function titleFromPrompt(prompt: string): string {
  const line = prompt.split("\n").find((l) => l.trim()) ?? "";
  return cutToColumns(line.replace(/\s+/g, " ").trim(), TITLE_COLUMNS);
}

/** `text` in at most `columns` terminal columns (wide characters count two), never half a character. */
export function cutToColumns(text: string, columns: number): string {
  if (Bun.stringWidth(text) <= columns) return text;
  let out = "";
  for (const char of text) {
    if (Bun.stringWidth(`${out}${char}…`) > columns) break;
    out += char;
  }
  return `${out}…`;
}

/** The latest readable session_info in the file (the header is line 1, so every entry line follows a newline). */
export function readTitle(fd: number, size: number): Title | undefined {
  for (let before = size; before > 0; ) {
    const at = lastIndexBefore(fd, HEAD, before);
    if (at === undefined) return undefined;
    try {
      const parsed = parseLine(readLineAt(fd, at + 1, size) ?? "");
      if (parsed?.kind === "entry" && parsed.entry.type === "session_info") return { title: parsed.entry.title, source: parsed.entry.source };
    } catch (error) {
      if (!(error instanceof LineError)) throw error; // a torn or damaged one: the one before it
    }
    before = at;
  }
  return undefined;
}
