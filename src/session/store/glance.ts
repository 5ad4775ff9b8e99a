// What the clean-up commands show of a session without reading it whole: its
// title (searched from the end), its first prompt (a few lines from the top)
// and when it was last active (its last line).
import { closeSync, fstatSync, openSync } from "node:fs";
import { parseLine, isPrompt, readLineAt, readTitle, titleFromPrompt, isSaidText, type Title } from "../log";
import { lastTimestamp } from "./recent";

/** The system message and a few tool results may precede the first prompt; past these many lines it is not looked for. */
const HEAD_LINES = 16;

export interface Glance {
  firstPrompt?: string;
  /** The latest session_info's title, else the first prompt's first line. */
  title?: string;
  /** The last entry's timestamp; null when there is none yet; undefined when it cannot be read. */
  lastEntry: string | null | undefined;
}

export function glance(path: string): Glance {
  const prompt = firstPrompt(path);
  return { firstPrompt: prompt, title: writtenTitle(path)?.title ?? promptTitle(prompt), lastEntry: lastTimestamp(path) };
}

/** The session's title: the latest session_info, found from the end of the file, else its first prompt's first line. */
export function titleOf(path: string): string | undefined {
  return sourcedTitleOf(path)?.title;
}

/** titleOf, with who wrote it (a first prompt's title is an auto one). */
export function sourcedTitleOf(path: string): Title | undefined {
  const written = writtenTitle(path);
  if (written) return written;
  const prompt = promptTitle(firstPrompt(path));
  return prompt === undefined ? undefined : { title: prompt, source: "auto" };
}

const promptTitle = (prompt: string | undefined) => (prompt === undefined ? undefined : titleFromPrompt(prompt));

function writtenTitle(path: string): Title | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    return readTitle(fd, fstatSync(fd).size);
  } catch {
    return undefined; // unreadable: listing says why
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function firstPrompt(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    for (let offset = 0, n = 0; offset < size && n < HEAD_LINES; n++) {
      const line = readLineAt(fd, offset, size);
      if (!line) return undefined;
      offset += line.length + 1;
      const parsed = parseLine(line);
      if (parsed?.kind === "entry" && isPrompt(parsed.entry)) {
        return parsed.entry.message.content.map((b) => (isSaidText(b) ? b.text : "")).join("");
      }
    }
    return undefined;
  } catch {
    return undefined; // damaged or unreadable: listing says what is wrong with it
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
