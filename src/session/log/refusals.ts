// What the session writer says when it refuses: a file of a newer format, or
// an entry too large to save. Kept apart from the writer (manager.ts), which
// only decides when to say it.
import { fstatSync } from "node:fs";
import { parseLine } from "./codec";
import { MAX_LINE_BYTES, readLineAt } from "./lines";
import type { WrittenEntry } from "./schema";

export const FORMAT_VERSION = 1;

export function newerFormat(path: string, version: number): string {
  return `${path} was written in session format version ${version}, newer than this awl understands (${FORMAT_VERSION})`;
}

/** The version the first line states, if it is a header. */
export function headerVersion(fd: number): number | undefined {
  try {
    const parsed = parseLine(readLineAt(fd, 0, Math.min(fstatSync(fd).size, 1 << 20)) ?? "");
    return parsed?.kind === "header" ? parsed.header.version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why an entry over the line limit was refused, true to what already
 * happened: a model's answer arrived before it could be saved (the session
 * goes on without it: the next prompt follows the one before it); a prompt,
 * tool results or a compaction are saved before the request they belong to,
 * so that request was never sent.
 */
export function tooLarge(entry: WrittenEntry): string {
  const limit = `over ${MAX_LINE_BYTES >> 20} MB`;
  if (entry.type === "message" && entry.message.role === "assistant") {
    return `the model's answer was received but is too large to save (${limit}): it was not saved, and the session goes on without it`;
  }
  return `this ${entry.type} is too large to save (${limit}); nothing was sent`;
}
