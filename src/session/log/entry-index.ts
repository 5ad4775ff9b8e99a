// The entry tree as the log builds it, and the one rule for where the
// conversation goes on (docs/session-format.md, "Branches"): bookkeeping
// entries hang off the leaf and never become it; a `leaf` entry moves it to
// its target; every other entry, kinds this version does not know included,
// continues the conversation and becomes the leaf. Opening a session, resume
// from the tail, listing, the tree and the context builder all read the leaf
// from this index, so they cannot disagree about it.
import { compactionInForce, isPrompt } from "./context";
import { decisionsOf, type EntryOf, type KindsWhere } from "./kinds";
import type { CompactionEntry, PartialEntry, SessionEntry } from "./schema";

/**
 * Entries that record something about the session rather than continue its
 * conversation: they hang off the leaf they were written at and never become
 * the leaf (their `role` in the kind table).
 */
export function isBookkeeping(entry: SessionEntry): entry is EntryOf<KindsWhere<"role", "bookkeeping">> {
  return decisionsOf(entry.type).role === "bookkeeping";
}

/**
 * Where the leaf is once `entry` is read: the entry itself (it continues the
 * conversation), unchanged (bookkeeping), or the target a `leaf` entry names.
 * The one rule every reader of a log follows.
 */
export function leafAfter(entry: SessionEntry): "entry" | "unchanged" | { target: string } {
  if (!isBookkeeping(entry)) return "entry";
  return entry.type === "leaf" ? { target: entry.targetId } : "unchanged";
}

/**
 * Whether a path reads through an entry of this kind to its parent: any
 * bookkeeping kind (its `role` in the kind table). awl never continues from
 * bookkeeping, so an entry whose parent is one was written by an older awl
 * that did not know the kind (a partial, a subagent's child entry) and took
 * it for the conversation; it continues from where that entry hangs.
 */
export function readsThrough(kind: string): boolean {
  return decisionsOf(kind).role === "bookkeeping";
}

/** The labels once `entry` is read: a label entry names its target, or with no text removes the name. */
export function applyLabel(labels: Map<string, string>, entry: SessionEntry): void {
  if (entry.type !== "label") return;
  if (entry.label) labels.set(entry.targetId, entry.label);
  else labels.delete(entry.targetId);
}

/** What a move, a rewind or a fork may target: the conversation's own entries, never bookkeeping or unknown kinds (the kind table's `tree`). */
export function isTarget(entry: SessionEntry): boolean {
  return isTargetKind(entry.type);
}

export function isTargetKind(kind: string): boolean {
  return decisionsOf(kind).tree === "target";
}

/**
 * What a reader of the whole tree (listing, `awl sessions tree`) keeps of an
 * entry: a message shrinks to its role and whether it is a prompt; the other
 * kinds are small already. The index answers the same about it.
 */
export function slimEntry(entry: SessionEntry): SessionEntry {
  if (entry.type !== "message") return entry;
  return { ...entry, message: { role: entry.message.role, content: isPrompt(entry) ? [{ type: "text", text: "." }] : [] } };
}

export class EntryIndex {
  /** The latest entry with each id: a parentId names the nearest earlier entry with that id. */
  readonly #byId = new Map<string, SessionEntry>();
  /** Each entry's parent, resolved when it was indexed (so a later entry reusing an id changes nothing). */
  readonly #parent = new Map<SessionEntry, SessionEntry>();
  /** Each compaction's first kept entry, resolved the same way. */
  readonly #kept = new Map<CompactionEntry, SessionEntry>();
  /** The latest label of each target id (an empty label removes it). */
  readonly #labels = new Map<string, string>();
  /** Where each entry's line starts, when the reader knows it. */
  readonly #offsets = new Map<SessionEntry, number>();
  /** The partials after each entry since its last conversation child: the answer being streamed there, or a killed one. */
  readonly #partials = new Map<SessionEntry, PartialEntry[]>();
  #leaf: SessionEntry | undefined;
  /** The latest `leaf` entry named an entry that was not read: the path to the leaf is not held (resume reads further back). */
  #lostLeaf = false;
  #count = 0;

  add(entry: SessionEntry, offset?: number): void {
    let parent = entry.parentId === null ? undefined : this.#byId.get(entry.parentId);
    if (parent && readsThrough(parent.type)) parent = this.#parent.get(parent);
    if (parent) this.#parent.set(entry, parent);
    if (parent && entry.type === "partial") {
      const partials = this.#partials.get(parent);
      if (partials) partials.push(entry);
      else this.#partials.set(parent, [entry]);
    } else if (parent && !isBookkeeping(entry)) {
      this.#partials.delete(parent); // the answer's message followed: its partials are only history
    }
    if (entry.type === "compaction") {
      const kept = this.#byId.get(entry.firstKeptEntryId);
      if (kept) this.#kept.set(entry, kept);
    }
    if (offset !== undefined) this.#offsets.set(entry, offset);
    this.#byId.set(entry.id, entry);
    this.#count++;
    const leaf = leafAfter(entry);
    if (leaf === "entry") {
      this.#leaf = entry;
      this.#lostLeaf = false;
    } else if (leaf !== "unchanged") {
      const target = this.#byId.get(leaf.target);
      this.#lostLeaf = !target;
      if (target) this.#leaf = target;
    }
    applyLabel(this.#labels, entry);
  }

  get leaf(): SessionEntry | undefined {
    return this.#leaf;
  }

  get size(): number {
    return this.#count;
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  get(id: string): SessionEntry | undefined {
    return this.#byId.get(id);
  }

  parent(entry: SessionEntry): SessionEntry | undefined {
    return this.#parent.get(entry);
  }

  kept(compaction: CompactionEntry): SessionEntry | undefined {
    return this.#kept.get(compaction);
  }

  /** The partials written after `entry` since its last conversation child (none: the answer there is finished, or none was asked). */
  partialsOf(entry: SessionEntry | undefined): readonly PartialEntry[] {
    return (entry && this.#partials.get(entry)) ?? [];
  }

  label(id: string): string | undefined {
    return this.#labels.get(id);
  }

  offset(entry: SessionEntry): number | undefined {
    return this.#offsets.get(entry);
  }

  /** `from`, its parent, and so on to the root (or the first entry read). */
  *ancestors(from: SessionEntry | undefined = this.#leaf): Generator<SessionEntry> {
    for (let entry = from; entry; entry = this.#parent.get(entry)) yield entry;
  }

  /** Root-to-`from` path (default: to the leaf). */
  path(from: SessionEntry | undefined = this.#leaf): SessionEntry[] {
    return [...this.ancestors(from)].reverse();
  }

  /**
   * Whether what was read holds the whole context of the active path: the
   * path from the leaf reaches the root, or the first kept entry of the
   * compaction in force on it. Resume from the tail reads further back until
   * it does.
   */
  holdsActivePath(): boolean {
    if (this.#lostLeaf) return false;
    const path: SessionEntry[] = [];
    let first: SessionEntry | undefined;
    for (const entry of this.ancestors()) {
      path.push(entry);
      first = entry;
    }
    if (!first || first.parentId === null) return true;
    return compactionInForce(path.reverse(), (c) => this.#kept.get(c)).compaction !== undefined;
  }

  /** Where the context of the active path starts in the file: the in-force compaction's kept prompt, else 0. */
  contextStart(): number {
    const path = this.path();
    const { compaction, from } = compactionInForce(path, (c) => this.#kept.get(c));
    const kept = compaction && path[from];
    return (kept && this.#offsets.get(kept)) ?? 0;
  }
}
