// A session file's lines as the tests read them. `partial` lines (the answer
// in flight, docs/session-format.md) are written when an answer streams on for
// more than a second after its first text, and a loaded machine can make any
// answer do so: a test that lists, counts or indexes a log's lines reads them
// without partials, unless partials are what it tests.
import { readFileSync } from "node:fs";

/** The entries that are not partials, in order. */
export function withoutPartials<T extends { type?: unknown }>(entries: T[]): T[] {
  return entries.filter((e) => e.type !== "partial");
}

/** A session file's lines, parsed (the header first); partials only when asked for. */
export function readLog(file: string, o: { partials?: boolean } = {}): any[] {
  const entries = readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
  return o.partials ? entries : withoutPartials(entries);
}
