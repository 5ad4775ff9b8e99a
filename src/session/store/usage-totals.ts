// Every usage a session log records, added up per model: answers (on the
// assistant message), compaction summaries and model-written titles (on their
// entries), each under the model that did the work. A fork's header names the
// entry it was copied up to (`forkedFrom`); the lines before and including
// that entry are its parent's, counted there, so they are skipped in the fork.
// Files are read in bounded blocks: memory holds the totals, not the logs.
import { closeSync, fstatSync, openSync } from "node:fs";
import { decisionsOf, isPrompt, readLineAt, readLog, wrappedEntry } from "../log";
import type { SessionEntry, SessionHeader, Usage } from "../log";

export interface ModelTotals {
  provider: string;
  model: string;
  requests: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export interface UsageTotals {
  /** Sessions with at least one entry in the period. */
  sessions: number;
  /** The person's prompts. */
  turns: number;
  models: ModelTotals[];
  /** Files that could not be read at all. */
  unreadable: string[];
}

/** Adds up the usage of entries stamped at or after `since` (ms; 0 for all) in these session files. */
export function usageTotals(paths: readonly string[], since: number): UsageTotals {
  const totals: UsageTotals = { sessions: 0, turns: 0, models: [], unreadable: [] };
  const counter = new UsageCounter();
  const block = Buffer.allocUnsafe(1 << 20);
  for (const path of paths) {
    let fd: number | undefined;
    try {
      fd = openSync(path, "r");
      const size = fstatSync(fd).size;
      let copiedUpTo = forkPoint(readLineAt(fd, 0, Math.min(size, 1 << 20)));
      let active = false;
      const visit = (entry: SessionEntry) => {
        if (copiedUpTo !== undefined) {
          if (entry.id === copiedUpTo) copiedUpTo = undefined;
          return;
        }
        const when = Date.parse(entry.timestamp);
        if (since > 0 && !(when >= since)) return;
        active = true;
        if (isPrompt(entry)) totals.turns++;
        counter.count(entry);
      };
      // A damaged line holds no usage that can be trusted: skipped, as listing reports it.
      readLog(fd, path, size, { entry: visit, damage: () => {} }, undefined, block);
      if (active) totals.sessions++;
    } catch {
      totals.unreadable.push(path);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  totals.models = counter.models();
  return totals;
}

/**
 * One session's totals as its file grows, for the cost shown after every
 * turn and checked before every request: the file is read whole once, then
 * only the lines appended since (a session of 50 MB is not read again per
 * turn). A file that shrank, or ends in a line not yet whole, is read whole
 * again the next time, as usageTotals reads it.
 */
export class SessionUsage {
  #counter = new UsageCounter();
  /** Where the next read starts: after the last whole line counted (0: from the top, header first). */
  #read = 0;
  #header: SessionHeader | undefined;
  #copiedUpTo: string | undefined;

  constructor(readonly file: string) {}

  models(): ModelTotals[] {
    let fd: number | undefined;
    try {
      fd = openSync(this.file, "r");
      const size = fstatSync(fd).size;
      if (size < this.#read) this.#restart();
      if (size === this.#read) return this.#counter.models();
      if (this.#read === 0) this.#copiedUpTo = forkPoint(readLineAt(fd, 0, Math.min(size, 1 << 20)));
      const visit = (entry: SessionEntry) => {
        if (this.#copiedUpTo !== undefined) {
          if (entry.id === this.#copiedUpTo) this.#copiedUpTo = undefined;
          return;
        }
        this.#counter.count(entry);
      };
      const end = readLog(fd, this.file, size, { entry: visit, damage: () => {} }, this.#read && this.#header ? { offset: this.#read, header: this.#header } : undefined);
      const models = this.#counter.models();
      if (end.torn || end.missingNewline) this.#restart();
      else {
        this.#read = size;
        this.#header = end.header;
      }
      return models;
    } catch {
      this.#restart();
      return []; // no file yet: nothing spent
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  #restart(): void {
    this.#counter = new UsageCounter();
    this.#read = 0;
    this.#header = undefined;
  }
}

/** Usage added up by the model that did the work, by the kind table's `stats` column. */
class UsageCounter {
  readonly #byModel = new Map<string, ModelTotals>();

  count(entry: SessionEntry): void {
    const counted = decisionsOf(entry.type).stats; // the kind table's `stats`
    if (counted === "answer" && entry.type === "message" && entry.message.role === "assistant" && entry.message.usage) this.#add(entry.message.provider, entry.message.model, entry.message.usage);
    else if (counted === "request" && "usage" in entry && entry.usage) this.#add(entry.provider, entry.model, entry.usage);
    // A subagent's requests are the session's, by the model each went to.
    else if (counted === "the child's entry" && entry.type === "child") {
      const wrapped = wrappedEntry(entry);
      if (wrapped) this.count(wrapped);
    }
  }

  models(): ModelTotals[] {
    return [...this.#byModel.values()].map((t) => ({ ...t })).sort((a, b) => (a.provider + a.model < b.provider + b.model ? -1 : 1));
  }

  #add(provider: string | undefined, model: string | undefined, u: Usage): void {
    const key = `${provider ?? "unknown"}/${model ?? "unknown"}`;
    let t = this.#byModel.get(key);
    if (!t) this.#byModel.set(key, (t = { provider: provider ?? "unknown", model: model ?? "unknown", requests: 0, input: 0, cacheRead: 0, cacheWrite: 0, output: 0 }));
    t.requests++;
    t.input += u.input;
    t.cacheRead += u.cacheRead ?? 0;
    t.cacheWrite += u.cacheWrite ?? 0;
    t.output += u.output;
  }
}

/** The entry a fork was copied up to, from its header line's `forkedFrom` (a field older readers ignore). */
function forkPoint(line: Buffer | undefined): string | undefined {
  try {
    const from = (JSON.parse(line?.toString("utf8") ?? "") as { forkedFrom?: { entry?: unknown } }).forkedFrom;
    return typeof from?.entry === "string" ? from.entry : undefined;
  } catch {
    return undefined; // no readable header: readLog says so
  }
}
