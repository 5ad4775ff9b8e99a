// Replaces one exact piece of a file. Exactness is the point: the model must
// quote text that occurs once, so it cannot change a place it did not mean.
// The file is edited as bytes, never decoded and re-encoded: every byte outside
// the replaced range, valid UTF-8 or not, stays as it was.

import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type } from "../ark";
import { replaceFile } from "./atomic-write";
import { toolInput } from "./input";
import { reason } from "./os-error";
import { readRegular, specialKind } from "./regular-file";
import { failure, fileChange, interrupted, MAX_KEPT_BYTES, type ProposedChange, type Tool, type ToolContext, type ToolOutput } from "./tool";

const Input = type({ "+": "reject", path: "string > 0", oldText: "string > 0", newText: "string" });
type EditInput = typeof Input.infer;

// Enough line numbers to find the matches, not a wall of them.
const LISTED_MATCHES = 10;
const LF = 0x0a;
const CR = 0x0d;

const input = toolInput("edit", Input, {
  path: "File to edit, relative to the working directory or absolute.",
  oldText: "Text to replace; must occur exactly once in the file, whitespace and indentation included.",
  newText: "The text to put in its place.",
});

export const edit: Tool<EditInput> = {
  name: "edit",
  description: [
    "Replace one exact occurrence of oldText with newText in a file.",
    "oldText must match the file exactly (whitespace, indentation, line breaks) and occur exactly once: include enough surrounding lines to make it unique.",
    "Paths are relative to the working directory. Read the file first.",
  ].join("\n"),
  ...input,
  summary: (i) => i.path,
  summaryField: "path",
  effect: (i, cwd) => ({ kind: "write", path: resolve(cwd, i.path) }),
  // The text replaced and the text put there, as a diff.
  shown: (i) => ({ summary: i.path, body: [...i.oldText.split("\n").map((l) => `-${l}`), ...i.newText.split("\n").map((l) => `+${l}`)].join("\n"), language: "diff" }),
  propose: (i, cwd) => propose(resolve(cwd, i.path), i.oldText, i.newText),
  execute: (i, context) => editFile(i.path, resolve(context.cwd, i.path), i.oldText, i.newText, context),
};

async function editFile(shown: string, path: string, oldText: string, newText: string, context: ToolContext): Promise<ToolOutput> {
  const { signal } = context;
  const info = await stat(path).catch(() => undefined);
  if (!info) return failure(`${shown}: no such file`);
  if (info.isDirectory()) return failure(`${shown} is a directory`);
  const kind = specialKind(info);
  if (kind) return failure(`${shown} is ${kind}, not a regular file; edit changes regular files only`);
  let bytes: Buffer;
  try {
    bytes = await readRegular(path, signal);
  } catch (error) {
    if (signal.aborted) return interrupted(`interrupted while reading ${shown}; it is unchanged`);
    throw error;
  }

  // A file whose lines all end in CRLF keeps them: the model quotes and writes
  // lines with \n (read shows no \r), so both texts take the file's endings.
  const crlf = usesCrlf(bytes);
  const search = Buffer.from(crlf ? toCrlf(oldText) : oldText);
  const replacement = Buffer.from(crlf ? toCrlf(newText) : newText);
  const found = occurrences(bytes, search);
  const [at] = found;
  if (at === undefined) return failure(notFound(shown, oldText, bytes, crlf));
  if (found.length > 1) {
    const lines = linesAt(bytes, found.slice(0, LISTED_MATCHES)).join(", ");
    const more = found.length > LISTED_MATCHES ? ` and ${found.length - LISTED_MATCHES} more` : "";
    return failure(`oldText occurs ${found.length} times in ${shown} (at lines ${lines}${more}); include more surrounding text so that it occurs once`);
  }

  const updated = Buffer.concat([bytes.subarray(0, at), replacement, bytes.subarray(at + search.length)]);
  try {
    await context.beforeChange?.({ path, before: bytes, after: updated, mode: info.mode & 0o7777 });
    await replaceFile(path, updated, signal);
  } catch (error) {
    if (signal.aborted) return interrupted(`interrupted before the edit was saved; ${shown} is unchanged`);
    return failure(`could not save the edit to ${shown}: ${reason(error)}; it is unchanged`);
  }
  const [first = 1] = linesAt(bytes, [at]);
  const endings = crlf && /\n/.test(oldText + newText) ? " (the file's CRLF line endings kept)" : "";
  return {
    content: `edited ${shown}: ${span(first, oldText)} replaced, now ${span(first, newText)}${endings}`,
    isError: false,
    // The bytes as they were and as they are now: the diff shows what was written, endings and all.
    change: fileChange({ created: false, before: bytes, after: updated }, context.secrets),
  };
}

/** The file as the edit would leave it, from the file as it is now; the two texts alone when oldText is not found as given. */
async function propose(path: string, oldText: string, newText: string): Promise<ProposedChange | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (info && !info.isFile()) return undefined;
  const before = info && info.size <= MAX_KEPT_BYTES ? await readFile(path).catch(() => undefined) : undefined;
  const old = Buffer.from(oldText);
  const at = before ? before.indexOf(old) : -1;
  if (before && at !== -1) {
    return { change: { created: false, before, after: Buffer.concat([before.subarray(0, at), Buffer.from(newText), before.subarray(at + old.length)]) } };
  }
  return { change: { created: false, before: old, after: Buffer.from(newText) }, note: "the text to replace and its replacement; line numbers are the text's own" };
}

/** Why oldText was not found, with a hint where the bytes explain it. */
function notFound(shown: string, oldText: string, bytes: Buffer, crlf: boolean): string {
  const base = `oldText was not found in ${shown}`;
  if (!crlf && oldText.includes("\n") && bytes.includes("\r\n")) {
    return `${base}; the file mixes CRLF and LF line endings, so oldText must match them exactly (\\r\\n where a line ends in CRLF)`;
  }
  if (oldText.includes("\uFFFD")) {
    return `${base}; oldText contains U+FFFD, which read shows for bytes that are not UTF-8: quote only text around them`;
  }
  return `${base}; it must match exactly, including whitespace and indentation (read the file and copy the text)`;
}

/** True when the file has line endings and every one is CRLF. */
function usesCrlf(bytes: Buffer): boolean {
  let any = false;
  for (let i = bytes.indexOf(LF); i !== -1; i = bytes.indexOf(LF, i + 1)) {
    if (i === 0 || bytes[i - 1] !== CR) return false;
    any = true;
  }
  return any;
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

/** Where each occurrence starts, overlapping ones included: "aa" occurs twice in "aaa". */
function occurrences(bytes: Buffer, search: Buffer): number[] {
  const found: number[] = [];
  for (let i = bytes.indexOf(search); i !== -1; i = bytes.indexOf(search, i + 1)) found.push(i);
  return found;
}

/** The 1-based line of each byte offset, in one pass; `offsets` must be ascending. */
function linesAt(bytes: Buffer, offsets: number[]): number[] {
  let line = 1;
  let newline = bytes.indexOf(LF);
  return offsets.map((offset) => {
    for (; newline !== -1 && newline < offset; newline = bytes.indexOf(LF, newline + 1)) line++;
    return line;
  });
}

/** "line 12" or "lines 12-14" for text starting at line `first`. */
function span(first: number, text: string): string {
  const last = first + (text.match(/\n/g)?.length ?? 0);
  return last === first ? `line ${first}` : `lines ${first}-${last}`;
}
