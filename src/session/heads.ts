// What the tree needs of a message line, read from its head without parsing
// the whole line: a 100 MB session is 24,000 lines of mostly tool output, and
// parsing all of it costs more than a second, while its tree needs only each
// entry's place, role and first line of text. awl writes every message in one
// key order (docs/session-format.md, "Key order"), so the head is found by one
// anchored pattern; a line in any other order, and every other kind (small and
// rare), is parsed whole by the codec. Only the tree, forks and targets read
// lines this way; open judges every line it reads in full.
import type { SessionEntry } from "./schema";

/** A JSON string, its content captured (still escaped). */
const STRING = String.raw`"((?:[^"\\]|\\.)*)"`;
const HEAD = new RegExp(
  String.raw`^\{"type":"message","id":${STRING},"parentId":(?:null|${STRING}),"timestamp":${STRING}(?:,"provider":${STRING},"model":${STRING})?(?:,"effort":${STRING})?(?:,"prefixHash":${STRING})?,"message":\{"role":"(system|user|assistant)","content":\[`,
);
/** How much of a line the head is looked for in: ids, times and model names are short (a longer head is parsed whole). */
const HEAD_BYTES = 512;
/** How much of an entry's first line the tree keeps: more than a row shows, and little enough that 24,000 of them stay small. */
export const FIRST_LINE_CHARS = 160;

/** How much of a text its first line is taken from: FIRST_LINE_CHARS characters of most text (fewer where characters take 3 or 4 bytes). */
const LINE_BYTES = 2 * FIRST_LINE_CHARS;

/** What a kept message's content is reduced to, shared by all (never changed): a prompt's one text, or nothing. */
const PROMPT = [{ type: "text" as const, text: "." }];
const NONE: [] = [];
/** Where the head ends: the first `"content":[` of a message line is its own (a quote inside a string is escaped). */
const CONTENT = Buffer.from(`"content":[`);
const TEXT_BLOCK = Buffer.from(`{"type":"text","text":"`);
const TOOL_USE = Buffer.from(`{"type":"toolUse"`);
const TOOL_RESULT = Buffer.from(`{"type":"toolResult","toolUseId":`);

export interface Head {
  /** The entry as the tree keeps it: a message's content is reduced to whether it is a prompt. */
  entry: SessionEntry;
  /** The first line of its first text (or what stands for it); empty when the reader asked for no text. */
  text: string;
  /** A user message with the person's words. */
  prompt: boolean;
  toolCalls: boolean;
}

/**
 * The head of a message line in awl's own key order, or undefined (parse it
 * whole). A quote inside a JSON string is always escaped, so the block
 * markers searched for cannot occur inside a text: what is found is structure.
 * Without `withText` only a user message's text is looked at (whether it is a
 * prompt): a fork or a target needs places, not words.
 */
export function messageHead(line: Uint8Array, withText = true): Head | undefined {
  const bytes = line instanceof Buffer ? line : Buffer.from(line.buffer, line.byteOffset, line.byteLength);
  const open = bytes.indexOf(CONTENT);
  if (open === -1 || open > HEAD_BYTES) return undefined;
  // Latin-1 decodes ASCII exactly and costs less than UTF-8; a head with anything else (a model name, say) is parsed whole.
  const head = bytes.toString("latin1", 0, open + CONTENT.length);
  const m = HEAD.exec(head);
  if (!m || NON_ASCII.test(head)) return undefined;
  const role = m[8] as "system" | "user" | "assistant";
  const textAt = role === "user" || withText ? bytes.indexOf(TEXT_BLOCK, open) : -1;
  const text = textAt === -1 ? undefined : stringStart(bytes, textAt + TEXT_BLOCK.length);
  const use = role === "assistant" ? bytes.indexOf(TOOL_USE, open) : -1;
  const toolCalls = use !== -1;
  const prompt = role === "user" && text !== undefined && text.trim() !== "";
  const escaped = head.includes("\\");
  const value = (inner: string) => (escaped ? unescape(inner) : inner);
  const entry: SessionEntry = {
    type: "message",
    id: value(m[1]!),
    parentId: m[2] === undefined ? null : value(m[2]),
    timestamp: value(m[3]!),
    provider: m[4] === undefined ? undefined : value(m[4]),
    model: m[5] === undefined ? undefined : value(m[5]),
    effort: m[6] === undefined ? undefined : value(m[6]),
    prefixHash: m[7] === undefined ? undefined : value(m[7]),
    message: { role, content: prompt ? PROMPT : NONE },
  };
  return { entry, text: withText ? firstLine(text ?? otherText(bytes, role, use)) : prompt ? firstLine(text!) : "", prompt, toolCalls };
}

const NON_ASCII = /[^\x00-\x7f]/;

/** A tool call's name and input, or a tool result's text, when there is no text block. */
function otherText(bytes: Buffer, role: string, use: number): string {
  // Calls are an assistant's, results a user's (the provider protocols have them so): one search of the line, not two.
  if (use !== -1) {
    const name = /^,"id":"(?:[^"\\]|\\.)*","name":("(?:[^"\\]|\\.)*"),"input":"/.exec(bytes.toString("utf8", use + TOOL_USE.length, use + TOOL_USE.length + 512));
    if (name) return `${JSON.parse(name[1]!)} ${stringStart(bytes, use + TOOL_USE.length + name[0].length)}`;
  }
  const result = role === "user" ? bytes.indexOf(TOOL_RESULT) : -1;
  if (result === -1) return "";
  const content = /^"(?:[^"\\]|\\.)*","content":"/.exec(bytes.toString("utf8", result + TOOL_RESULT.length, result + TOOL_RESULT.length + 512));
  return content ? stringStart(bytes, result + TOOL_RESULT.length + content[0].length) : "";
}

/**
 * The first line of the JSON string whose first character is at `from`,
 * decoded: after any leading blanks (trimStart's whitespace, escaped or not),
 * up to its closing quote or its first `\n` escape, from at most LINE_BYTES.
 * Only native string searches: a loop over the bytes costs more than the rest
 * of the tree together before the JIT has warmed up, which a single /tree is.
 */
function stringStart(bytes: Buffer, from: number): string {
  const slice = bytes.toString("utf8", from, Math.min(bytes.length, from + LINE_BYTES));
  const start = LEADING_BLANKS.exec(slice)![0].length;
  const raw = slice.slice(start, Math.min(unescaped(slice, '"', start), unescaped(slice, "\\n", start)));
  if (!raw.includes("\\")) return raw; // nothing escaped: the JSON is the text
  // A cut inside an escape (`\`, `\u00`) would not parse: drop the broken end.
  for (const cut of [raw, raw.replace(/\\(u[0-9a-fA-F]{0,3})?$/, "")]) {
    try {
      return JSON.parse(`"${cut}"`);
    } catch {
      // the next, shorter cut
    }
  }
  return "";
}

const LEADING_BLANKS = /^(?:\s|\\[ntr])*/;

/** Where `needle` first occurs in `text` from `from` on, not escaped (an even run of backslashes before it); else the end. */
function unescaped(text: string, needle: string, from: number): number {
  for (let at = text.indexOf(needle, from); at !== -1; at = text.indexOf(needle, at + 1)) {
    let backslashes = 0;
    while (at - backslashes - 1 >= from && text[at - backslashes - 1] === "\\") backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return text.length;
}

/** A captured string's value: most heads hold no escape, and their strings are what the pattern captured. */
function unescape(inner: string): string {
  return JSON.parse(`"${inner}"`);
}

/** The first line with anything on it, cut to FIRST_LINE_CHARS. */
export function firstLine(text: string): string {
  return text.trimStart().split("\n", 1)[0]!.slice(0, FIRST_LINE_CHARS);
}
