// The last few things said in a session, for the picker's preview: read from
// the end of the file, line by line backwards, so a preview costs what the
// last turns weigh, not what the session does. It shows the latest lines
// written (on a session with branches, the branch worked on last), prompts
// and answers only: tool calls, results and bookkeeping are passed over.
import { closeSync, fstatSync, openSync } from "node:fs";
import { messageText } from "../../conversation";
import { LineError, parseLine, isPrompt, lastIndexBefore, readLineAt } from "../log";

export interface Said {
  role: "user" | "assistant";
  text: string;
}

const NEWLINE = Buffer.from("\n");
/** Past this many lines from the end (a long run of tool calls), the preview shows what it found. */
const MAX_LINES = 200;

/** Up to `count` prompts and answers, oldest first; [] when the file cannot be read. */
export function lastSaid(path: string, count: number): Said[] {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    const block = Buffer.allocUnsafe(1 << 16);
    const said: Said[] = [];
    // `end` is where the line being looked for ends (its newline, or the end of a torn last line).
    for (let end = size, n = 0; end > 0 && said.length < count && n < MAX_LINES; n++) {
      const newline = lastIndexBefore(fd, NEWLINE, end - 1, block);
      const start = newline === undefined ? 0 : newline + 1;
      if (start === 0) break; // the header
      const found = spoken(readLineAt(fd, start, end));
      if (found) said.push(found);
      end = start - 1;
    }
    return said.reverse();
  } catch {
    return []; // unreadable: the list says what is wrong with it
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function spoken(line: Buffer | undefined): Said | undefined {
  if (!line?.length) return undefined;
  try {
    const parsed = parseLine(line);
    if (parsed?.kind !== "entry" || parsed.entry.type !== "message") return undefined;
    const entry = parsed.entry;
    const text = messageText(entry.message).trim();
    if (entry.message.role === "assistant") return text ? { role: "assistant", text } : undefined;
    return isPrompt(entry) ? { role: "user", text } : undefined;
  } catch (error) {
    if (error instanceof LineError) return undefined; // a torn or damaged line: the one before it
    throw error;
  }
}
