// The last few things said in a session, for the picker's preview: read from
// the end of the file, line by line backwards, so a preview costs what the
// last turns weigh, not what the session does. It shows the latest lines
// written (on a session with branches, the branch worked on last), prompts
// and answers only: tool calls, results and bookkeeping are passed over, but
// for the partials of an answer a kill cut off, which stand for that answer.
import { closeSync, fstatSync, openSync } from "node:fs";
import { messageText } from "../../conversation";
import { answerFromPartials, LineError, parseLine, isPrompt, lastIndexBefore, readLineAt, type PartialEntry, type SessionEntry } from "../log";

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
    /** The partials after the last message, newest first: a killed answer's, when they hang off that message. */
    const partials: PartialEntry[] = [];
    let lastMessage = true;
    // `end` is where the line being looked for ends (its newline, or the end of a torn last line).
    for (let end = size, n = 0; end > 0 && said.length < count && n < MAX_LINES; n++) {
      const newline = lastIndexBefore(fd, NEWLINE, end - 1, block);
      const start = newline === undefined ? 0 : newline + 1;
      if (start === 0) break; // the header
      const entry = entryOf(readLineAt(fd, start, end));
      if (entry?.type === "partial" && lastMessage) partials.push(entry);
      if (entry?.type === "message" && lastMessage) {
        lastMessage = false;
        const killed = answerFromPartials(partials.reverse().filter((p) => p.parentId === entry.id));
        if (killed) said.push({ role: "assistant", text: messageText(killed).trim() });
      }
      const found = entry && spoken(entry);
      if (found) said.push(found);
      end = start - 1;
    }
    return said.slice(0, count).reverse();
  } catch {
    return []; // unreadable: the list says what is wrong with it
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function entryOf(line: Buffer | undefined): SessionEntry | undefined {
  if (!line?.length) return undefined;
  try {
    const parsed = parseLine(line);
    return parsed?.kind === "entry" ? parsed.entry : undefined;
  } catch (error) {
    if (error instanceof LineError) return undefined; // a torn or damaged line: the one before it
    throw error;
  }
}

function spoken(entry: SessionEntry): Said | undefined {
  if (entry.type !== "message") return undefined;
  const text = messageText(entry.message).trim();
  if (entry.message.role === "assistant") return text ? { role: "assistant", text } : undefined;
  return isPrompt(entry) ? { role: "user", text } : undefined;
}
