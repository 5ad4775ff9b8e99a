// Replaces one exact piece of a file. Exactness is the point: the model must
// quote text that occurs once, so it cannot change a place it did not mean.

import { readFile, stat, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type } from "../ark";
import { toolInput } from "./input";
import type { Tool, ToolOutput } from "./tool";

const Input = type({ "+": "reject", path: "string > 0", oldText: "string > 0", newText: "string" });
type EditInput = typeof Input.infer;

// Enough line numbers to find the matches, not a wall of them.
const LISTED_MATCHES = 10;

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
  execute: (i, context) => editFile(i.path, resolve(context.cwd, i.path), i.oldText, i.newText),
};

async function editFile(shown: string, path: string, oldText: string, newText: string): Promise<ToolOutput> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return failure(`${shown}: no such file`);
  if (info.isDirectory()) return failure(`${shown} is a directory`);
  const text = await readFile(path, "utf8");

  const found = occurrences(text, oldText);
  const [at] = found;
  if (at === undefined) {
    return failure(`oldText was not found in ${shown}; it must match exactly, including whitespace and indentation (read the file and copy the text)`);
  }
  if (found.length > 1) {
    const lines = linesAt(text, found.slice(0, LISTED_MATCHES)).join(", ");
    const more = found.length > LISTED_MATCHES ? ` and ${found.length - LISTED_MATCHES} more` : "";
    return failure(`oldText occurs ${found.length} times in ${shown} (at lines ${lines}${more}); include more surrounding text so that it occurs once`);
  }

  // Slicing, not String#replace, whose `$&`-style patterns would mangle newText.
  await writeFile(path, text.slice(0, at) + newText + text.slice(at + oldText.length));
  const [first = 1] = linesAt(text, [at]);
  return { content: `edited ${shown}: ${span(first, oldText)} replaced, now ${span(first, newText)}`, isError: false };
}

/** Where each occurrence starts, overlapping ones included: "aa" occurs twice in "aaa". */
function occurrences(text: string, search: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(search); i !== -1; i = text.indexOf(search, i + 1)) found.push(i);
  return found;
}

/** The 1-based line of each index, in one pass; `indices` must be ascending. */
function linesAt(text: string, indices: number[]): number[] {
  let line = 1;
  let newline = text.indexOf("\n");
  return indices.map((index) => {
    for (; newline !== -1 && newline < index; newline = text.indexOf("\n", newline + 1)) line++;
    return line;
  });
}

/** "line 12" or "lines 12-14" for text starting at line `first`. */
function span(first: number, text: string): string {
  const last = first + (text.match(/\n/g)?.length ?? 0);
  return last === first ? `line ${first}` : `lines ${first}-${last}`;
}

function failure(content: string): ToolOutput {
  return { content, isError: true };
}
