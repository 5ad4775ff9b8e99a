// What the clean-up commands show of a session without reading it whole: its
// first prompt (a few lines from the top) and when it was last active (its
// last line). A 100 MB session costs a few reads.
import { closeSync, fstatSync, openSync } from "node:fs";
import { parseLine } from "./codec";
import { isPrompt } from "./context";
import { readLineAt } from "./lines";
import { lastTimestamp } from "./recent";

/** The system message and a few tool results may precede the first prompt; past these many lines it is not looked for. */
const HEAD_LINES = 16;

export interface Glance {
  firstPrompt?: string;
  /** The last entry's timestamp; null when there is none yet; undefined when it cannot be read. */
  lastEntry: string | null | undefined;
}

export function glance(path: string): Glance {
  return { firstPrompt: firstPrompt(path), lastEntry: lastTimestamp(path) };
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
        return parsed.entry.message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
      }
    }
    return undefined;
  } catch {
    return undefined; // damaged or unreadable: listing says what is wrong with it
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
