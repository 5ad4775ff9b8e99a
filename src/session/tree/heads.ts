// What the tree needs of a message line, read from its head without parsing
// the whole line: a 100 MB session is 24,000 lines of mostly tool output, and
// parsing all of it costs more than a second, while its tree needs only each
// entry's place, role and first line of text. awl writes every message in one
// key order (docs/session-format.md, "Key order"), so the head is read field
// by field from its bytes, in that order; a line in any other order, a field
// with an escape or a non-ASCII byte, and every other kind (small and rare),
// is parsed whole by the codec. Only the tree, forks and targets read lines
// this way; open judges every line it reads in full.
import { startsWith } from "../log";
import type { SessionEntry } from "../log";

/** How much of an entry's first line the tree keeps: more than a row shows, and little enough that 24,000 of them stay small. */
export const FIRST_LINE_CHARS = 160;

/** How much of a text its first line is taken from: FIRST_LINE_CHARS characters of most text (fewer where characters take 3 or 4 bytes). */
const LINE_BYTES = 2 * FIRST_LINE_CHARS;

/** What a kept message's content is reduced to, shared by all (never changed): a prompt's one text, or nothing. */
const PROMPT = [{ type: "text" as const, text: "." }];
const NONE: [] = [];
const key = (text: string) => Buffer.from(text);
const MESSAGE = key(`{"type":"message","id":"`);
const PARENT = key(`,"parentId":`);
const NULL = key("null");
const TIMESTAMP = key(`,"timestamp":"`);
const PROVIDER = key(`,"provider":"`);
const MODEL = key(`,"model":"`);
const EFFORT = key(`,"effort":"`);
const PREFIX_HASH = key(`,"prefixHash":"`);
const ROLE = key(`,"message":{"role":"`);
const ROLES = (["system", "user", "assistant"] as const).map((role) => ({ role, bytes: key(`${role}","content":[`) }));
const TEXT_BLOCK = Buffer.from(`{"type":"text","text":"`);
const TOOL_USE = Buffer.from(`{"type":"toolUse"`);
const TOOL_RESULT = Buffer.from(`{"type":"toolResult","toolUseId":`);

export interface Head {
  /** The entry as the tree keeps it: a message's content is reduced to whether it is a prompt; its effort and prefix hash are left out. */
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
  if (!startsWith(bytes, MESSAGE)) return undefined;
  const idEnd = plainString(bytes, MESSAGE.length);
  if (idEnd === -1 || !startsWith(bytes, PARENT, idEnd + 1)) return undefined;
  let at = idEnd + 1 + PARENT.length;
  let parentId: string | null = null;
  if (startsWith(bytes, NULL, at)) at += NULL.length;
  else {
    const parentEnd = bytes[at] === QUOTE ? plainString(bytes, at + 1) : -1;
    if (parentEnd === -1) return undefined;
    parentId = bytes.toString("latin1", at + 1, parentEnd);
    at = parentEnd + 1;
  }
  const timestamp = optional(bytes, at, TIMESTAMP);
  if (!timestamp) return undefined;
  at = timestamp.end + 1;
  const provider = optional(bytes, at, PROVIDER);
  if (provider) at = provider.end + 1;
  const model = provider && optional(bytes, at, MODEL);
  if (provider && !model) return undefined;
  if (model) at = model.end + 1;
  // The effort and the prefix hash are stepped over: the tree has no use for them.
  at = skipped(bytes, at, EFFORT);
  at = skipped(bytes, at, PREFIX_HASH);
  if (!startsWith(bytes, ROLE, at)) return undefined;
  const role = ROLES.find((r) => startsWith(bytes, r.bytes, at + ROLE.length));
  if (!role) return undefined;
  const open = at + ROLE.length + role.bytes.length;
  const textAt = role.role === "user" || withText ? bytes.indexOf(TEXT_BLOCK, open) : -1;
  const text = textAt === -1 ? undefined : stringStart(bytes, textAt + TEXT_BLOCK.length);
  const use = role.role === "assistant" ? bytes.indexOf(TOOL_USE, open) : -1;
  const toolCalls = use !== -1;
  const prompt = role.role === "user" && text !== undefined && text.trim() !== "";
  const entry: SessionEntry = {
    type: "message",
    id: bytes.toString("latin1", MESSAGE.length, idEnd),
    parentId,
    timestamp: timestamp.value,
    provider: provider?.value,
    model: model?.value,
    message: { role: role.role, content: prompt ? PROMPT : NONE },
  };
  return { entry, text: withText ? firstLine(text ?? otherText(bytes, role.role, use)) : prompt ? firstLine(text!) : "", prompt, toolCalls };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Where the JSON string whose content starts at `from` ends (its closing quote), or -1 when it holds an escape or a byte past ASCII (parse the line whole). */
function plainString(bytes: Buffer, from: number): number {
  for (let i = from; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) return i;
    if (b === BACKSLASH || b > 0x7f) return -1;
  }
  return -1;
}

/** Where what follows a `,"key":"value"` field at `at` starts, or `at` when it is not there or not plain (then what follows does not fit, and the line is parsed whole). */
function skipped(bytes: Buffer, at: number, field: Buffer): number {
  if (!startsWith(bytes, field, at)) return at;
  const end = plainString(bytes, at + field.length);
  return end === -1 ? at : end + 1;
}

/** A `,"key":"value"` field at `at`, if it is there and plain, and where its closing quote is. */
function optional(bytes: Buffer, at: number, field: Buffer): { value: string; end: number } | undefined {
  if (!startsWith(bytes, field, at)) return undefined;
  const end = plainString(bytes, at + field.length);
  return end === -1 ? undefined : { value: bytes.toString("latin1", at + field.length, end), end };
}

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

/** The first line with anything on it, cut to FIRST_LINE_CHARS. */
export function firstLine(text: string): string {
  return text.trimStart().split("\n", 1)[0]!.slice(0, FIRST_LINE_CHARS);
}
