// The one table of entry kinds (docs/session-format.md, "Entry kinds"): for
// each kind awl writes, its schema, the order of its keys on disk, and what
// every reader of a log does with it. Readers ask this table instead of
// keeping their own lists of kinds, and the table's type asks every row for
// every decision: a kind is added by its schema and one row here, and a row
// that leaves a reader's decision out does not compile. Kinds this version
// does not know get the decisions of UNKNOWN_KIND.
import type { allows } from "./checks.generated";
import { isSaidText } from "./cwd-note";
import { defined, orderMessage, orderUsage } from "./key-order";
import type * as Schemas from "./schema";
import type { ChildEntry, CustomMessageEntry, SessionEntry, WrittenEntry } from "./schema";

export type Kind = WrittenEntry["type"];
/** The entry type of a kind. */
export type EntryOf<K extends Kind> = Extract<WrittenEntry, { type: K }>;

/** The schema (by its name in schema.ts, which the generated checks share) whose inferred type is the kind's entry. */
type SchemaOf<K extends Kind> = { [N in keyof typeof allows & keyof typeof Schemas]: (typeof Schemas)[N] extends { infer: EntryOf<K> } ? N : never }[keyof typeof allows & keyof typeof Schemas];

/** The keys of an entry whose values are text, optional ones included (what search may read). */
type TextField<E> = { [F in keyof E]-?: Exclude<E[F], undefined> extends string ? F : never }[keyof E] & string;

/** What the readers of a log do with one kind, whether this version knows it or not. */
export interface Decisions {
  /** conversation: continues the path and becomes the leaf; bookkeeping: hangs off the leaf it was written at and never becomes it. */
  role: "conversation" | "bookkeeping";
  /** What the model is sent: the message itself, a marked summary of a path left behind, the summary the context opens with (and nothing of what came before its kept prompt), an extension's words marked as its own, or nothing. */
  model: "message" | "branch summary" | "opening summary" | "extension message" | "nothing";
  /** The tree: a place a move, a rewind or a fork may go to ("target"), a step on a path ("step"), or a note beside it ("note"). */
  tree: "target" | "step" | "note";
  /** Resume from the tail: where the context starts when it is the latest ("starts"), a move that may reach back before the tail ("moves"), or read like any line ("read"). */
  tail: "starts" | "moves" | "read";
  /** A fork: its line copied when on the path ("copied"), copied when it hangs off the path's end with no message after it ("copied after the end": a killed answer), copied when the entry it hangs off is on the path ("copied with its call": a `task` call's child), left out as bookkeeping ("left out"), or a move that the line-head reading of a linear session cannot follow ("whole tree"). */
  fork: "copied" | "copied after the end" | "copied with its call" | "left out" | "whole tree";
  /** An export: shown as the conversation's messages, as a numbered summary, nested under the tool call it worked for (a child's), or left out. */
  export: "messages" | "summary" | "nested under its call" | "left out";
  /** Search: the person's and the model's words in a message, one text field, what the wrapped entry of a child holds, or nothing. */
  search: "said text" | { field: string } | "the child's entry" | "nothing";
  /** Stats: the usage of an answer (on its message), of the request that wrote it (its own provider, model and usage), of the wrapped entry of a child, or none. */
  stats: "answer" | "request" | "the child's entry" | "nothing";
  /** Purge: keeps every blob its line names, or has none. */
  purge: "keeps its blobs" | "nothing";
}

export interface KindRow<K extends Kind> extends Decisions {
  schema: SchemaOf<K>;
  /** The entry with its keys in the order awl writes them: `type` first, then `id`, `parentId`, `timestamp` (resume finds lines by that head). */
  order: (entry: EntryOf<K>) => EntryOf<K>;
  search: "said text" | { field: TextField<EntryOf<K>> } | "the child's entry" | "nothing";
  /** The words /tree and `awl sessions tree` show for it, `line` cutting a text to its first line. */
  words: (entry: EntryOf<K>, line: (text: string) => string) => string;
}

export const KINDS = {
  message: {
    schema: "MessageEntry",
    order: (e) => defined({ type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp, provider: e.provider, model: e.model, effort: e.effort, prefixHash: e.prefixHash, message: orderMessage(e.message) }),
    role: "conversation", model: "message", tree: "target", tail: "read", fork: "copied", export: "messages", search: "said text", stats: "answer", purge: "nothing",
    words: (e, line) => {
      const text = e.message.content.find((b) => isSaidText(b) && b.text.trim());
      if (text?.type === "text") return line(text.text);
      const use = e.message.content.find((b) => b.type === "toolUse");
      if (use?.type === "toolUse") return line(`${use.name} ${use.input}`);
      const result = e.message.content.find((b) => b.type === "toolResult");
      return result?.type === "toolResult" ? line(result.content) : "";
    },
  },
  compaction: {
    schema: "CompactionEntry",
    order: (e) => {
      const { type, id, parentId, timestamp, n, summary, firstKeptEntryId, keptPrompts, cutToolResults, window, tokensBefore, tokensAfter, provider, model, usage, summarizedTurns } = e;
      return defined({
        type, id, parentId, timestamp, n, summary, firstKeptEntryId, keptPrompts: [...keptPrompts], cutToolResults: [...cutToolResults],
        window, tokensBefore, tokensAfter, provider, model, usage: usage && orderUsage(usage), summarizedTurns,
      });
    },
    role: "conversation", model: "opening summary", tree: "target", tail: "starts", fork: "copied", export: "summary", search: "nothing", stats: "request", purge: "nothing",
    words: (e, line) => line(`compaction ${e.n}: ${e.summary}`),
  },
  file_change: {
    schema: "FileChangeEntry",
    order: (e) => defined({ type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp, path: e.path, before: e.before, after: e.after, mode: e.mode, modeAfter: e.modeAfter, linkBefore: e.linkBefore, linkAfter: e.linkAfter, pathBytes: e.pathBytes }),
    role: "conversation", model: "nothing", tree: "step", tail: "read", fork: "copied", export: "left out", search: "nothing", stats: "nothing", purge: "keeps its blobs",
    words: (e, line) => `file ${line(e.path)}`,
  },
  bash_effects: {
    schema: "BashEffectsEntry",
    order: (e) => {
      const effect = (p: Schemas.PathEffect): Schemas.PathEffect => defined({ path: p.path, before: p.before, after: p.after, git: p.git, mode: p.mode, modeAfter: p.modeAfter, linkBefore: p.linkBefore, linkAfter: p.linkAfter, pathBytes: p.pathBytes });
      return {
        type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp,
        created: e.created.map(effect), modified: e.modified.map(effect), deleted: e.deleted.map(effect),
        untracked: e.untracked.map((u) => ({ path: u.path, reason: u.reason })),
      };
    },
    role: "conversation", model: "nothing", tree: "step", tail: "read", fork: "copied", export: "left out", search: "nothing", stats: "nothing", purge: "keeps its blobs",
    words: (e) => {
      const changed = e.created.length + e.modified.length + e.deleted.length;
      return `${changed} path${changed === 1 ? "" : "s"} changed by a command`;
    },
  },
  session_info: {
    schema: "SessionInfoEntry",
    order: (e) => {
      const { type, id, parentId, timestamp, title, source, provider, model, usage } = e;
      return defined({ type, id, parentId, timestamp, title, source, provider, model, usage: usage && orderUsage(usage) });
    },
    role: "bookkeeping", model: "nothing", tree: "note", tail: "read", fork: "left out", export: "left out", search: { field: "title" }, stats: "request", purge: "nothing",
    words: (e, line) => `title: ${line(e.title)}`,
  },
  leaf: {
    schema: "LeafEntry",
    order: (e) => ({ type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp, targetId: e.targetId }),
    role: "bookkeeping", model: "nothing", tree: "note", tail: "moves", fork: "whole tree", export: "left out", search: "nothing", stats: "nothing", purge: "nothing",
    words: (e) => `leaf moved to ${e.targetId}`,
  },
  label: {
    schema: "LabelEntry",
    order: (e) => ({ type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp, targetId: e.targetId, label: e.label }),
    role: "bookkeeping", model: "nothing", tree: "note", tail: "read", fork: "left out", export: "left out", search: { field: "label" }, stats: "nothing", purge: "nothing",
    words: (e, line) => (e.label ? `label ${e.targetId}: ${line(e.label)}` : `label of ${e.targetId} removed`),
  },
  branch_summary: {
    schema: "BranchSummaryEntry",
    order: (e) => {
      const { type, id, parentId, timestamp, fromId, summary, provider, model, usage } = e;
      return defined({ type, id, parentId, timestamp, fromId, summary, provider, model, usage: usage && orderUsage(usage) });
    },
    role: "conversation", model: "branch summary", tree: "target", tail: "read", fork: "copied", export: "left out", search: "nothing", stats: "nothing", purge: "nothing",
    words: (e, line) => line(e.summary),
  },
  partial: {
    schema: "PartialEntry",
    order: (e) => defined({ type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp, attempt: e.attempt, block: e.block, text: e.text, thinking: e.thinking }),
    // Bookkeeping: the answer it belongs to is its message once that is written; a killed answer is read from its partials (partials.ts) and written as a message when the conversation goes on.
    role: "bookkeeping", model: "nothing", tree: "note", tail: "read", fork: "copied after the end", export: "left out", search: { field: "text" }, stats: "nothing", purge: "nothing",
    words: (e, line) => `partial answer: ${line(e.text ?? e.thinking ?? "")}`,
  },
  custom: {
    schema: "CustomEntry",
    // An extension's data is its own: its keys keep the order the extension gave them.
    order: (e) => ({ type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp, customType: e.customType, data: e.data }),
    // On the path (going back takes it back), never a place to go to: the message before it is.
    role: "conversation", model: "nothing", tree: "step", tail: "read", fork: "copied", export: "left out", search: "nothing", stats: "nothing", purge: "nothing",
    words: (e, line) => `${line(e.customType)} entry`,
  },
  custom_message: {
    schema: "CustomMessageEntry",
    order: (e) => ({ type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp, customType: e.customType, content: typeof e.content === "string" ? e.content : e.content.map((b) => ({ type: b.type, text: b.text })), display: e.display }),
    role: "conversation", model: "extension message", tree: "step", tail: "read", fork: "copied", export: "left out", search: "nothing", stats: "nothing", purge: "nothing",
    words: (e, line) => `${line(e.customType)}: ${line(customText(e))}`,
  },
  child: {
    schema: "ChildEntry",
    // The wrapped entry keeps the key order of its own kind.
    order: (e) => ({ type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp, task: e.task, entry: orderWrapped(e.entry) }),
    // A child's whole chain lives beside its parent's: read for the transcript, the stats and a rewind, never as the parent's conversation.
    role: "bookkeeping", model: "nothing", tree: "note", tail: "read", fork: "copied with its call", export: "nested under its call", search: "the child's entry", stats: "the child's entry", purge: "keeps its blobs",
    words: (e, line) => `subagent of ${e.task}: ${isKnownKind(e.entry.type) && e.entry.type !== "child" ? rowOf(e.entry as WrittenEntry).words(e.entry as never, line) : e.entry.type}`,
  },
} as const satisfies { [K in Kind]: KindRow<K> };

/** A child's entry in its own kind's key order (one this version does not know keeps the order it came in). */
function orderWrapped(entry: ChildEntry["entry"]): ChildEntry["entry"] {
  return isKnownKind(entry.type) ? rowOf(entry as WrittenEntry).order(entry as never) : entry;
}

/**
 * A kind this version does not know (a newer awl wrote it): it continues the
 * conversation (so an older awl never branches around it), keeps its bytes
 * through resume, fork and export, and is otherwise passed over.
 */
export const UNKNOWN_KIND: Decisions = {
  role: "conversation",
  model: "nothing",
  tree: "step",
  tail: "read",
  fork: "whole tree",
  export: "left out",
  search: "nothing",
  stats: "nothing",
  purge: "nothing",
};

/** Whether `kind` is one this version writes (an own key of the table: never `toString` or `__proto__`). */
export function isKnownKind(kind: string): kind is Kind {
  return Object.hasOwn(KINDS, kind);
}

/** The decisions for a kind, known or not. */
export function decisionsOf(kind: string): Decisions {
  return isKnownKind(kind) ? KINDS[kind] : UNKNOWN_KIND;
}

/** The row of an entry's kind, typed for that entry. */
export function rowOf<K extends Kind>(entry: EntryOf<K>): KindRow<K> {
  return KINDS[entry.type as K] as unknown as KindRow<K>;
}

/** The kinds whose decision `reader` is `value`. */
export type KindsWhere<R extends keyof Decisions, V extends Decisions[R]> = { [K in Kind]: (typeof KINDS)[K][R] extends V ? K : never }[Kind];

/** The kinds whose decision `reader` is `value`, as a list. */
export function kindsWhere<R extends keyof Decisions, V extends Decisions[R]>(reader: R, value: V): KindsWhere<R, V>[] {
  return (Object.keys(KINDS) as Kind[]).filter((kind) => (KINDS[kind] as Decisions)[reader] === value) as KindsWhere<R, V>[];
}

/** The kind of any entry read: its own `type`, also for a kind this version does not know. */
export function kindOf(entry: SessionEntry): string {
  return entry.type === "opaque" ? entry.kind : entry.type;
}

/** The words of an extension's message: its text, or its text blocks one after another. */
export function customText(e: Pick<CustomMessageEntry, "content">): string {
  return typeof e.content === "string" ? e.content : e.content.map((b) => b.text).join("\n");
}
