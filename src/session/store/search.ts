// Full-text search over session files, streamed: each file is read in blocks
// of a few MB, and memory holds a block, its text and the longest line, never
// a file. Only what people wrote and read is searched: titles, labels, the
// person's prompts and the model's answers; not thinking, signatures, tool
// calls or their output, and not JSON escapes (a search for `n` does not match
// the `\n` of a newline). A block is searched as raw bytes first (JSON writes
// every character of such text as itself, but for `"`, `\` and control
// characters, which are searched for in their escaped form), case-insensitively
// for ASCII; only lines with a hit are parsed and their text checked.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { decisionsOf, MAX_LINE_BYTES, isSaidText } from "../log";

/** One block, reused from file to file: fresh memory per file costs its page faults again, and raises the peak. */
const BLOCK = 1 << 20;
/** Characters of context kept on each side of a match in the line shown. */
const AROUND = 40;

export interface SearchHit {
  /** The entry whose text matched (for a title: the session_info entry). */
  entry: string;
  /** The matching text, on one line, cut around the match. */
  line: string;
}

/**
 * A case-insensitive search for `text`: the function returned calls `hit` for
 * every matching entry of the file, in file order, and returns the bytes read.
 */
export function searcher(text: string): (path: string, hit: (h: SearchHit) => void) => number {
  const needle = text.toLowerCase();
  const raw = JSON.stringify(text).slice(1, -1); // as a JSON string holds it
  const pattern = new RegExp(escapeRegExp(Buffer.from(raw, "utf8").toString("latin1")), "gi");
  const block = { buffer: Buffer.allocUnsafe(BLOCK) };
  return (path, hit) => {
    const found: Found[] = [];
    const size = scanFile(path, pattern, block, (line) => checkLine(line, needle, (h) => found.push(h)));
    // A partial's words are found as its answer's until that answer's message is (a message that holds them hangs off the same entry).
    const answered = new Set(found.filter((f) => f.kind === "message").map((f) => f.parentId));
    for (const { kind, parentId, ...h } of found) if (kind !== "partial" || !answered.has(parentId)) hit(h);
    return size;
  };
}

/** A hit with what tells a partial's from its message's. */
type Found = SearchHit & { kind: string; parentId: unknown };

function scanFile(path: string, pattern: RegExp, block: { buffer: Buffer }, candidate: (line: Buffer) => void): number {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    let buffer = block.buffer;
    let carried = 0; // bytes of an unfinished line at the start of the buffer
    for (let position = 0; position < size || carried > 0; ) {
      if (carried === buffer.length) {
        if (buffer.length >= MAX_LINE_BYTES) return position; // a line no reader takes: nothing more to search here
        buffer = block.buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]); // a long line: kept for the next files too
      }
      const read = position < size ? readSync(fd, buffer, carried, Math.min(buffer.length - carried, size - position), position) : 0;
      position += read;
      const filled = carried + read;
      const atEnd = position >= size;
      const end = atEnd ? filled : buffer.lastIndexOf(0x0a, filled - 1) + 1;
      if (end > 0) searchBlock(buffer.subarray(0, end), pattern, candidate);
      buffer.copy(buffer, 0, end, filled);
      carried = filled - end;
      if (atEnd) break;
    }
    return size;
  } finally {
    closeSync(fd);
  }
}

/** Every line of `block` (whole lines) in which `pattern` occurs, each once. */
function searchBlock(block: Buffer, pattern: RegExp, candidate: (line: Buffer) => void): void {
  const text = block.toString("latin1");
  for (let from = 0; from < text.length; ) {
    pattern.lastIndex = from;
    const m = pattern.exec(text);
    if (!m) return;
    const at = m.index;
    const start = text.lastIndexOf("\n", at) + 1;
    const newline = text.indexOf("\n", at);
    const end = newline === -1 ? text.length : newline;
    candidate(block.subarray(start, end));
    from = end + 1;
  }
}

/** The line's searchable texts that hold the needle (prompt and answer text blocks, a title, a label). */
function checkLine(line: Buffer, needle: string, hit: (h: Found) => void): void {
  let value: Searched & { id?: unknown };
  try {
    value = JSON.parse(line.toString("utf8"));
  } catch {
    return; // damaged or torn: listing reports it
  }
  if (typeof value?.id !== "string" || typeof value.type !== "string") return;
  // A subagent's entry is found as the entry it wraps (its partials give way to its message), under the wrapper's id.
  const read = value.type === "child" && typeof value.entry === "object" && value.entry !== null ? (value.entry as Searched) : value;
  for (const text of searchedTexts(value)) {
    const at = text.toLowerCase().indexOf(needle);
    if (at === -1) continue;
    hit({ entry: value.id, line: around(text, at, needle.length), kind: String(read.type), parentId: read.parentId });
    return;
  }
}

type Searched = { type?: unknown; message?: { role?: unknown; content?: unknown }; entry?: unknown } & Record<string, unknown>;

/** The texts of a line that search reads (the kind table's `search`): a subagent's are those of the entry it wraps. */
function searchedTexts(value: Searched): string[] {
  if (typeof value?.type !== "string") return [];
  const searched = decisionsOf(value.type).search;
  if (typeof searched === "object") {
    const text = value[searched.field];
    return typeof text === "string" ? [text] : [];
  }
  if (searched === "the child's entry") return typeof value.entry === "object" && value.entry !== null && (value.entry as Searched).type !== "child" ? searchedTexts(value.entry as Searched) : [];
  if (searched !== "said text" || (value.message?.role !== "user" && value.message?.role !== "assistant") || !Array.isArray(value.message.content)) return [];
  return (value.message.content as { type?: unknown; text?: unknown }[]).filter((block) => block && isSaidText(block)).map((block) => block.text as string);
}

/** The match with up to AROUND characters on each side, on one line. */
function around(text: string, at: number, length: number): string {
  const start = Math.max(0, at - AROUND);
  const end = Math.min(text.length, at + length + AROUND);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`.replace(/\s+/g, " ");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
