// Shows a file to the model with line numbers, a window at a time. The file is
// streamed: a huge log costs reading time, never memory beyond the window, and
// Ctrl+C stops it between two chunks. Only regular files are read (see
// regular-file.ts): a FIFO or /dev/tty would wait forever.

import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type } from "../ark";
import { toolInput } from "./input";
import { HeadBuffer, MAX_BYTES, MAX_LINES } from "./output-cap";
import { chunks, openRegular, specialKind } from "./regular-file";
import { failure, interrupted, type Tool, type ToolOutput } from "./tool";

const BINARY_SNIFF_BYTES = 8192;
const NEWLINE = 0x0a;
const decoder = new TextDecoder();

const Input = type({ "+": "reject", path: "string > 0", "offset?": "number.integer >= 1", "limit?": "number.integer >= 1" });
type ReadInput = typeof Input.infer;

const input = toolInput("read", Input, {
  path: "File to read, relative to the working directory or absolute.",
  offset: "First line to show, 1-based (default 1).",
  limit: `How many lines to show (default and maximum ${MAX_LINES}).`,
});

export const read: Tool<ReadInput> = {
  name: "read",
  description: [
    "Read a text file; lines are numbered like cat -n (number, tab, line).",
    `Shows at most ${MAX_LINES} lines or ${MAX_BYTES / 1024} KB from offset; a note at the end says how to read further with offset.`,
    "Paths are relative to the working directory. For directories use bash ls.",
  ].join("\n"),
  ...input,
  summary: (i) => i.path,
  summaryField: "path",
  effect: () => ({ kind: "read" }),
  shown: (i) => ({ summary: i.path, body: "", language: "" }),
  execute: (i, context) =>
    readFile(i.path, resolve(context.cwd, i.path), i.offset ?? 1, Math.min(i.limit ?? MAX_LINES, MAX_LINES), context.signal),
};

async function readFile(shown: string, path: string, offset: number, limit: number, signal: AbortSignal): Promise<ToolOutput> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return failure(`${shown}: no such file`);
  if (info.isDirectory()) return failure(`${shown} is a directory; use bash ls to list it`);
  const kind = specialKind(info);
  if (kind) return failure(`${shown} is ${kind}, not a regular file; read does not open it (it could wait forever for input)`);

  const window = new HeadBuffer(limit);
  let total: number;
  const handle = await openRegular(path);
  try {
    const head = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, BINARY_SNIFF_BYTES, 0);
    if (head.subarray(0, bytesRead).includes(0)) {
      return failure(`${shown} looks like a binary file (NUL bytes in its first 8 KB); not shown`);
    }
    total = await scan(chunks(handle, signal), offset, window);
  } catch (error) {
    if (signal.aborted) return interrupted(`interrupted while reading ${shown} (read changes nothing)`);
    throw error;
  } finally {
    await handle.close();
  }
  if (total === 0) return { content: "(empty file)", isError: false };
  if (offset > total) return failure(`offset ${offset} is beyond the end of ${shown} (${total} lines)`);

  const last = offset + window.lines.length - 1;
  const cut = window.cut ? `\n[line ${offset} is longer than ${MAX_BYTES / 1024} KB and was cut; use bash (e.g. cut -c) to see the rest]` : "";
  const more = last < total ? `\n[showing lines ${offset}-${last} of ${total}; use offset=${last + 1} to read more]` : "";
  return { content: window.lines.join("\n") + cut + more, isError: false };
}

/**
 * Feeds the numbered lines from `offset` into `window` until it is full and
 * returns how many lines the file has. Works on bytes so that lines outside
 * the window are only counted, and a huge line is held only up to the cap.
 * A trailing newline does not start another line (as `wc -l` and editors see it).
 */
async function scan(stream: AsyncIterable<Uint8Array>, offset: number, window: HeadBuffer): Promise<number> {
  let lineNumber = 1;
  let line: Uint8Array[] = [];
  let lineBytes = 0;
  let endsWithNewline = true;
  const take = () => {
    window.push(`${String(lineNumber).padStart(6)}\t${decoder.decode(Buffer.concat(line))}`);
    line = [];
    lineBytes = 0;
  };
  for await (const chunk of stream) {
    if (chunk.length === 0) continue;
    endsWithNewline = chunk[chunk.length - 1] === NEWLINE;
    for (let start = 0; start < chunk.length; ) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      const wanted = lineNumber >= offset && !window.full;
      if (wanted && lineBytes <= MAX_BYTES) {
        line.push(chunk.subarray(start, end));
        lineBytes += end - start;
      }
      if (newline === -1) break;
      if (wanted) take();
      lineNumber++;
      start = newline + 1;
    }
  }
  if (endsWithNewline) return lineNumber - 1;
  if (lineNumber >= offset && !window.full) take();
  return lineNumber;
}
