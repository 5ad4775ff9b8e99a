// The note awl puts before a prompt when the session's tools run in another
// directory than the one it started in (a moved checkout, `--resume ID` from
// elsewhere). The model is told; the person never typed it, so every reader
// of "what the person said" (Up history, transcript, export, search, titles,
// rewind and tree labels) asks isCwdNote and leaves it out. A prefix, not a
// field: the log's text blocks keep one shape, and a raw-JSON reader (search)
// recognises it as easily as a parsed one.

import type { SessionEntry } from "./schema";

const PREFIX = "[awl] The working directory is now ";

/**
 * The note's text: the directory tools now run in, then the one the session
 * started in. The second line names the directory again: "the directory
 * above" read to a model as the parent directory (it would `cd ..`).
 */
export const cwdNote = (cwd: string, started: string): string => `${PREFIX}${cwd}\n(the session started in ${started}; tools, paths and commands now run in ${cwd})`;

export const isCwdNote = (text: string): boolean => text.startsWith(PREFIX);

/** A text block the person wrote (or the model said): any text block but the note and a file an `@path` attached. */
export const isSaidText = (block: { type?: unknown; text?: unknown; attached?: unknown }): block is { type: "text"; text: string } =>
  block.type === "text" && typeof block.text === "string" && block.attached === undefined && !isCwdNote(block.text);

/** What the person said in a message: its text blocks but the note, a blank line between them. */
export const saidWords = (content: readonly { type?: unknown; text?: unknown }[]): string => content.flatMap((b) => (isSaidText(b) && b.text ? [b.text] : [])).join("\n\n");

/** The directory the model was last told of on this path: the latest note's, else the header's. */
export function toldDirectory(headerCwd: string, branch: readonly SessionEntry[]): string {
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i]!;
    if (entry.type !== "message" || entry.message.role !== "user") continue;
    for (const block of entry.message.content) {
      if (block.type === "text" && isCwdNote(block.text)) return block.text.slice(PREFIX.length, block.text.indexOf("\n"));
    }
  }
  return headerCwd;
}
