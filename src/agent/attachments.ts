// `@path` in a prompt (docs/session-format.md, "attached"): each one that names
// a readable text file within the read tool's limits goes with the prompt as
// the file's content, a text block marked `attached` with the path as typed;
// a folder goes as its listing. The blocks are in the prompt's entry, so a
// resumed session sends the same bytes even after the file changed. A path
// that cannot be attached (missing, binary, too large, unreadable) stays text
// in the prompt, and a notice says why. Only what stat calls a regular file or
// a folder is opened: a FIFO named in a prompt must not hang it.

import { readdir, stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { TextBlock } from "../conversation";
import { MAX_BYTES, MAX_LINES } from "../tools/output-cap";
import { readRegular, specialKind } from "../tools/regular-file";

/** Entries of a folder's listing at most. */
const MAX_LISTED = 500;

export interface Attachments {
  blocks: TextBlock[];
  /** One line per `@path` attached, or left as text and why. */
  notices: string[];
}

/**
 * A prompt that carries more than the person typed (what a pipe held before
 * it, a Markdown command's `!`cmd`` outputs in it): `text` is sent; only
 * `typed`'s `@path`s are attached. A `@path` in a commit message or a piped
 * log is text, never a request to send that file.
 */
export interface CarryingPrompt {
  text: string;
  typed: string;
}

/** The `@path`s a prompt attaches: all of `sent`'s; of one that carries more, its typed part's and any that an extension's change of it added. */
export function attachable(given: string | CarryingPrompt, sent: string): string[] {
  if (typeof given === "string") return mentions(sent);
  const carried = new Set(mentions(given.text));
  return [...new Set([...mentions(given.typed), ...mentions(sent).filter((path) => !carried.has(path))])];
}

/** The `@path` words of a prompt, in order, each once: `@` at the start of a word (or after a bracket), the path up to white space, without trailing punctuation. */
export function mentions(prompt: string): string[] {
  const found = [...prompt.matchAll(/(?:^|[\s([])@([^\s@]+)/g)].map((m) => m[1]!.replace(/[,;:!?)\]}'"]+$/, "").replace(/\.$/, ""));
  return [...new Set(found.filter(Boolean))];
}

/** Attaches each of `paths` (a prompt's mentions, as typed). */
export async function attach(paths: readonly string[], cwd: string, signal: AbortSignal = new AbortController().signal): Promise<Attachments> {
  const out: Attachments = { blocks: [], notices: [] };
  for (const path of paths) {
    const got = await attachOne(path, resolve(cwd, path), signal);
    if ("text" in got) {
      out.blocks.push({ type: "text", text: got.text, attached: path });
      out.notices.push(`attached @${path} (${got.what})`);
    } else out.notices.push(`@${path} is not attached: ${got.why}; it goes as text`);
  }
  return out;
}

async function attachOne(shown: string, path: string, signal: AbortSignal): Promise<{ text: string; what: string } | { why: string }> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return { why: "no such file or folder" };
  if (info.isDirectory()) return listing(shown, path);
  const kind = specialKind(info);
  if (kind) return { why: `it is ${kind}, not a regular file` };
  if (info.size > MAX_BYTES) return { why: `it is ${Math.ceil(info.size / 1024)} KB, more than the ${MAX_BYTES / 1024} KB the read tool shows at once (the model can read it in parts)` };
  let bytes: Buffer;
  try {
    bytes = await readRegular(path, signal);
  } catch (error) {
    return { why: `it could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
  if (bytes.includes(0)) return { why: "it looks like a binary file (NUL bytes)" };
  const text = bytes.toString("utf8");
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > MAX_LINES) return { why: `it has ${lines} lines, more than the ${MAX_LINES} the read tool shows at once (the model can read it in parts)` };
  return { text: `<attached path="${shown}">\n${text}${text.endsWith("\n") || text === "" ? "" : "\n"}</attached>`, what: `${lines} line${lines === 1 ? "" : "s"}` };
}

async function listing(shown: string, path: string): Promise<{ text: string; what: string } | { why: string }> {
  let names: string[];
  try {
    const entries = await readdir(path, { withFileTypes: true });
    names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
  } catch (error) {
    return { why: `its listing could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
  const more = names.length > MAX_LISTED ? `\n… ${names.length - MAX_LISTED} more` : "";
  const body = names.slice(0, MAX_LISTED).join("\n");
  return { text: `<attached path="${shown}" listing>\n${body}${body ? "\n" : ""}${more ? `${more.slice(1)}\n` : ""}</attached>`, what: `a folder of ${names.length} entr${names.length === 1 ? "y" : "ies"}` };
}
