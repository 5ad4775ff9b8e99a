// What the log tells about the context at each of its entries, for whoever
// shows a session after the fact (the transcript a resumed session opens
// with). Each fact comes from the function the live session uses for it:
// which entries the context holds from buildSessionContext's range, how full
// it was from contextSize (what the REPL's meter reads), what requests cost
// from addUsage (what sums a live turn's). So what a resumed session shows and
// what was shown live agree by construction, not by two copies kept alike.
import { contextSize, type ContextSize, type ModelRef, type SessionContext } from "../log";
import type { CompactionEntry, MessageEntry, SessionEntry, Usage } from "../log";

/** An entry the context holds: a message, or a compaction in force then. */
export type HeldEntry = MessageEntry | CompactionEntry;

/**
 * The entries behind the context, oldest first: its messages from where it
 * begins (the compaction in force's first kept entry) without the system
 * prompt, and the compactions among them it did not pass over.
 */
export function heldEntries(branch: readonly SessionEntry[], context: Pick<SessionContext, "from" | "ignored">): HeldEntry[] {
  const ignored = new Set<SessionEntry>(context.ignored);
  return branch.slice(context.from).filter((e): e is HeldEntry => (e.type === "compaction" && !ignored.has(e)) || (e.type === "message" && e.message.role !== "system"));
}

export interface ContextThen {
  /** contextSize after the entry: tokens the API counted last (or the compaction's estimate), and the bytes added since. */
  size: ContextSize;
  /** The model that last answered or was asked, as far as the log says: the window is its. */
  model?: ModelRef;
  /** The compaction in force then: its window counts when it was made with that model. */
  compaction?: CompactionEntry;
}

/** How full the context was right after `held[at]`, counted as the live meter counted it then. */
export function contextAt(held: readonly HeldEntry[], at: number): ContextThen {
  let compaction: CompactionEntry | undefined;
  let model: ModelRef | undefined;
  for (let i = at; i >= 0 && (!compaction || !model); i--) {
    const entry = held[i]!;
    if (entry.type === "compaction") compaction ??= entry;
    else if (!model) {
      const { provider = entry.provider, model: id = entry.model } = entry.message;
      if (provider && id) model = { provider, model: id };
    }
  }
  return { size: contextSize(backFrom(held, at), compaction), model, compaction };
}

function* backFrom(held: readonly HeldEntry[], at: number): Generator<HeldEntry> {
  for (let i = at; i >= 0; i--) yield held[i]!;
}

/** What the requests behind `entries` cost, as the APIs reported them: each response's and each compaction's summary request's. */
export function usageOf(entries: Iterable<HeldEntry>): Usage {
  const sum: Usage = { input: 0, output: 0 };
  for (const entry of entries) addUsage(sum, entry.type === "compaction" ? entry.usage : entry.message.usage);
  return sum;
}

/** Adds `usage` into `sum`, cache figures included. */
export function addUsage(sum: Usage, usage: Usage | undefined): void {
  if (!usage) return;
  sum.input += usage.input;
  sum.output += usage.output;
  if (usage.cacheRead) sum.cacheRead = (sum.cacheRead ?? 0) + usage.cacheRead;
  if (usage.cacheWrite) sum.cacheWrite = (sum.cacheWrite ?? 0) + usage.cacheWrite;
  if (usage.reasoning) sum.reasoning = (sum.reasoning ?? 0) + usage.reasoning;
}
