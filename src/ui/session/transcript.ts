// On resume: the conversation so far, compactly, so the person sees where they
// left off, each turn as it was shown live (the lines are ./turn-lines.ts,
// which the live renderer uses too): the prompt on one line, the answers (as
// ./markdown-stream.ts shows them: rendered markdown with colour, the wrapped
// source without; their first ANSWER_LINES rows), each tool call's line with
// the preview of its result, a failed response's error line, "Interrupted.",
// the usage line with how full the context was, and a compaction where it
// happened. Thinking is folded to one line as it was live (`∴ Thought`: how
// long it took is not recorded; Ctrl+O shows the latest turn's in full);
// retries are left out, since the session does not record them.
//
// A call that changed a file was shown live as the diff of the bytes before
// and after; on resume it is shown from the same two versions, which the
// session's file_change entry for it names (blobs in the store). A session
// without them (or a version gone from the store) shows the result line and a
// note. Which calls change which file is their effect (tools/tool.ts), never
// their name or what they printed.
//
// A long session shows its latest turns only, whole, with a line saying how
// many came before: all 24,000 messages of a 100 MB session were 72,000 lines
// of scrollback and a second of printing, and no one reads them at a prompt.
// A compacted one opens with a line saying so and shows the turns after its
// latest compaction; its summary is never shown as a prompt. Everything in it
// came from the session file, so all of it is made safe to show
// (./safe-text.ts) before it is styled: an escape sequence a model or a tool
// wrote is shown, never replayed.

import { windowOf } from "../../agent/window";
import type { ModelInfo } from "../../providers/model-info";
import type { ProviderName } from "../../providers/provider";
import { INTERRUPTED_AFTER_START, INTERRUPTED_NOT_RUN, interruptedAfterStart } from "../../agent/events";
import { keptAnything, type Conversation, type Message, type ToolResultBlock, type ToolUseBlock } from "../../conversation";
import { contextAt, heldEntries, isInterrupted, isSaidText, usageOf, type CompactionEntry, type DiskMessage, type FileChangeEntry, type HeldEntry, type MessageMeta, type SessionContext, type SessionEntry } from "../../session";
import { providerSecrets } from "../../providers/registry";
import { fileChange, MAX_KEPT_BYTES } from "../../tools/tool";
import { callEffect, toolSummary } from "../../tools";
import { BlobStore, blobDir } from "../../session/checkpoints";
import type { Colors } from "../render/colors";
import { meterText, oneLine, wrapLines } from "../render/format";
import { showAnswer } from "../render/markdown-stream";
import { extensionRows, type ExtensionEntry, type RenderEntry } from "./extension-rows";
import { compactedRow, subagentRow, errorRow, cutOffOutput, interruptedRow, lengthRow, notRunRow, type ShownResult, thoughtRow, toolLine, toolResultRows, toolWidth, unansweredRow, usageRow } from "../live/turn-lines";

const ANSWER_LINES = 8;
/** About three screens: a turn that starts within them is shown whole. */
export const TRANSCRIPT_LINES = 150;

/** What the transcript reads of a session (a SessionManager). */
export interface TranscriptSession {
  getBranch(): SessionEntry[];
  context(): SessionContext;
  /** The answer a killed awl was streaming after the leaf, not yet written as a message. */
  interruptedAnswer(): DiskMessage | undefined;
  getLeafId(): string | null;
  /** What the subagent of a `task` call did (its messages, and an answer it was cut off in). */
  childTranscript(task: string): DiskMessage[];
  readonly cwd: string;
  readonly sessionFile: string;
}

/** One thing the transcript shows: a message with what the log kept about it, or a compaction. */
type Item =
  /** `changes`: the file_change entries of the calls an assistant message made, in order. */
  | { kind: "message"; message: Message; meta: MessageMeta; changes?: FileChangeEntry[]; notes?: ExtensionEntry[] }
  | { kind: "compaction"; entry: CompactionEntry };

type Env = Record<string, string | undefined>;

/**
 * The transcript of a session: the turns after its latest compaction (with a
 * line for those before), as they were shown live. Given a bare Conversation
 * instead, it has no metadata: answers, calls and results only.
 */
export function renderTranscript(
  from: TranscriptSession | Conversation,
  c: Colors,
  width = 100,
  compacted: Pick<SessionContext, "summary" | "compaction"> = {},
  env: Env = process.env,
  modelInfo?: ModelLookup,
  /** The loaded extensions' renderers of their entries (without: each entry is one dim line). */
  renderEntry?: RenderEntry,
): string {
  const { items, compaction, held } = "getBranch" in from ? sessionItems(from) : conversationItems(from, compacted);
  const turns = splitTurns(items);
  const files = "getBranch" in from ? { cwd: from.cwd, blobs: new BlobStore(blobDir(from.sessionFile)) } : undefined;
  const view: View = { c, width, env, results: new Map(), items, held, modelInfo, renderEntry, ...(files ? { files } : {}), ...("getBranch" in from ? { children: (task: string) => from.childTranscript(task) } : {}) };
  const shown: string[][] = [];
  let lines = 0;
  let resultsFrom = items.length;
  for (let i = turns.length - 1; i >= 0 && lines < TRANSCRIPT_LINES; i--) {
    // The results of the calls shown so far: a call's result comes after it (in the next message, or the next prompt's).
    const first = turns[i]![0]!;
    for (let at = first; at < resultsFrom; at++) {
      const item = items[at]!;
      if (item.kind === "message") for (const b of item.message.content) if (b.type === "toolResult") view.results.set(b.toolUseId, b);
    }
    resultsFrom = Math.min(resultsFrom, first);
    const rendered = renderTurn(turns[i]!, view);
    shown.unshift(rendered);
    lines += rendered.length;
  }
  const hidden = turns.length - shown.length;
  const note = hidden ? [c.dim(`… ${hidden.toLocaleString("en-US")} earlier prompt${hidden === 1 ? "" : "s"} and ${hidden === 1 ? "its" : "their"} answers not shown`)] : [];
  const summarized = compaction ? [c.dim(compactionNote(compaction))] : [];
  // A row wider than the terminal (an error's words) wraps between words, as the live renderer writes it.
  return wrapLines([...summarized, ...note, ...shown.flat()].join("\n"), width);
}

/** The entries the context holds (heldEntries: from the compaction in force's first kept one), uncut, one item each. */
function sessionItems(session: TranscriptSession): { items: Item[]; compaction?: CompactionEntry; held: HeldEntry[] } {
  const context = session.context();
  const branch = session.getBranch();
  const held = heldEntries(branch, context);
  // A killed answer is shown where its message will be written, marked interrupted as a cut-off answer is.
  const answer = session.interruptedAnswer();
  if (answer) held.push({ type: "message", id: "", parentId: session.getLeafId(), timestamp: "", message: answer });
  const changes = callChanges(branch);
  const notes = extensionNotes(branch);
  const items = held.map((entry): Item => {
    if (entry.type === "compaction") return { kind: "compaction", entry };
    const { provider = entry.provider, model = entry.model, stopReason, usage, errorMessage } = entry.message;
    const interrupted = isInterrupted(entry.message) ? (true as const) : undefined;
    // The entry's own message (its blocks have the in-memory shape): only read here, never changed, so not copied.
    const message: Message = entry.message;
    const made = changes.get(entry);
    const noted = notes.get(entry);
    return { kind: "message", message, meta: { provider, model, stopReason, interrupted, usage, errorMessage }, ...(made ? { changes: [...made] } : {}), ...(noted ? { notes: noted } : {}) };
  });
  return { items, compaction: context.compaction, held };
}

/** Each message's file_change entries: a call's come after the message that made it. */
function callChanges(branch: readonly SessionEntry[]): Map<SessionEntry, FileChangeEntry[]> {
  const out = new Map<SessionEntry, FileChangeEntry[]>();
  let message: SessionEntry | undefined;
  for (const entry of branch) {
    if (entry.type === "message") message = entry;
    else if (entry.type === "file_change" && message) out.set(message, [...(out.get(message) ?? []), entry]);
  }
  return out;
}


/** Each message's extension entries: those between it and the next message. */
function extensionNotes(branch: readonly SessionEntry[]): Map<SessionEntry, ExtensionEntry[]> {
  const out = new Map<SessionEntry, ExtensionEntry[]>();
  let message: SessionEntry | undefined;
  for (const entry of branch) {
    if (entry.type === "message") message = entry;
    else if ((entry.type === "custom" || entry.type === "custom_message") && message) out.set(message, [...(out.get(message) ?? []), entry]);
  }
  return out;
}

function conversationItems(conversation: Conversation, compacted: Pick<SessionContext, "summary" | "compaction">): { items: Item[]; compaction?: CompactionEntry; held?: undefined } {
  const items: Item[] = conversation.messages
    .filter((m) => m !== compacted.summary && m.role !== "system")
    .map((message) => ({ kind: "message", message, meta: {} }));
  return { items, compaction: compacted.compaction };
}

/** "… 3 compactions, 41 turns summarized" */
function compactionNote(c: { n: number; summarizedTurns?: number }): string {
  const turns = c.summarizedTurns === undefined ? "" : `, ${c.summarizedTurns.toLocaleString("en-US")} turn${c.summarizedTurns === 1 ? "" : "s"} summarized`;
  return `… ${c.n} compaction${c.n === 1 ? "" : "s"}${turns}`;
}

const isPrompt = (message: Message) => message.role === "user" && message.content.some((b) => b.type === "text" && b.text.trim());

/** Turns, each from a prompt the person typed to just before the next one: the items' positions. */
function splitTurns(items: readonly Item[]): number[][] {
  const turns: number[][] = [];
  for (const [i, item] of items.entries()) {
    if ((item.kind === "message" && isPrompt(item.message)) || turns.length === 0) turns.push([i]);
    else turns.at(-1)!.push(i);
  }
  return turns;
}

/** What the provider's catalogue says of a model (its window), as the live meter had it. */
type ModelLookup = (provider: ProviderName, model: string) => ModelInfo | undefined;

interface View {
  c: Colors;
  width: number;
  env: Env;
  modelInfo?: ModelLookup;
  results: Map<string, ToolResultBlock>;
  items: readonly Item[];
  /** The session's entries, one per item; none for a bare Conversation, which records no usage and no compaction, so shows no usage line or meter. */
  held?: readonly HeldEntry[];
  /** Where a session's calls ran and its file versions are: absent for a bare conversation. */
  files?: { cwd: string; blobs: BlobStore };
  /** The subagent of a `task` call's transcript: none for a bare conversation. */
  children?: (task: string) => DiskMessage[];
  renderEntry: RenderEntry | undefined;
}

/**
 * One turn as the live renderer showed it: its messages and compactions in
 * order, then "Interrupted." and the usage line; a compaction after its last
 * message (`/compact`) after those, with the meter as /compact showed it.
 */
function renderTurn(turn: readonly number[], view: View): string[] {
  const { c, items } = view;
  const lastMessage = turn.findLast((i) => items[i]!.kind === "message") ?? turn[0]!;
  const out: string[] = [];
  for (const i of turn) {
    const item = items[i]!;
    if (item.kind === "compaction") {
      out.push(compactedRow(item.entry, c));
      if (i > lastMessage && view.held) out.push(c.dim(meterText(meterAt(i, view.held, view))));
      continue;
    }
    out.push(...renderMessage(item.message, item.meta, view, item.changes));
    for (const note of item.notes ?? []) out.push(...extensionRows(note, c, view.width, view.renderEntry));
    if (i === lastMessage) {
      if (interrupted(item)) out.push(interruptedRow(c));
      if (item.message.role === "assistant" && item.meta.stopReason === "error" && !keptAnything(item.message.content)) out.push(unansweredRow(c, view.width));
      const line = view.held && usageLine(turn.filter((at) => at <= lastMessage), view.held, view);
      if (line) out.push(line);
    }
  }
  return out;
}

/**
 * The usage line after a turn's last message: what its requests cost (a
 * compaction after that message is a /compact of its own), a response cut
 * off after something streamed counted as the live view counted it (see
 * cutOffOutput), and how full the context was then.
 */
function usageLine(turn: readonly number[], held: readonly HeldEntry[], view: View): string | undefined {
  const usage = usageOf(turn.map((i) => held[i]!));
  let estimated = false;
  for (const i of turn) {
    const entry = held[i]!;
    if (entry.type !== "message" || entry.message.role !== "assistant" || entry.message.stopReason !== "error") continue;
    const characters = entry.message.content.reduce((n, b) => n + (b.type === "text" ? b.text.length : b.type === "thinking" ? b.thinking.length : 0), 0);
    if (characters === 0) continue;
    const reported = entry.message.usage?.output ?? 0;
    usage.output += cutOffOutput(reported, characters) - reported;
    estimated = true;
  }
  // The effort the turn's prompt was sent at, as its entry records it.
  const opening = held[turn[0]!];
  const effort = opening?.type === "message" ? opening.effort : undefined;
  return usageRow(usage, meterAt(turn.at(-1)!, held, view), view.c, view.width, { effort, estimated });
}

/** The turn ended because it was interrupted: its response was cut off by the person, or its tools were stopped. */
function interrupted(item: Item & { kind: "message" }): boolean {
  if (item.message.role === "assistant") return item.meta.interrupted === true;
  return !isPrompt(item.message) && item.message.content.some((b) => b.type === "toolResult" && (b.content === INTERRUPTED_NOT_RUN || b.content.startsWith(INTERRUPTED_AFTER_START)));
}

/**
 * How full the context was after entry `at`, as the live meter counted it
 * (contextAt): the tokens the latest response (or compaction) accounted for,
 * plus a quarter of the bytes of every message after it; against the window
 * of the model that answered, as the environment, the catalogue, that
 * compaction or the table has it.
 */
function meterAt(at: number, held: readonly HeldEntry[], view: View): { tokens: number; window: number } {
  const { size, model, compaction } = contextAt(held, at);
  const window = model ? windowOf(model, compaction, view.env, view.modelInfo?.(model.provider, model.model)) : (compaction?.window ?? 1);
  return { tokens: size.tokens + Math.ceil(size.bytesSince / 4), window };
}

function renderMessage(message: Message, meta: MessageMeta, view: View, changes: FileChangeEntry[] = []): string[] {
  const { c, width } = view;
  const out: string[] = [];
  if (message.role === "user") {
    for (const block of message.content) if (isSaidText(block) && block.text.trim()) out.push(`${c.bold(c.green("›"))} ${oneLine(block.text, width - 2)}`);
    return out;
  }
  // As live: the text as it streams, then each call as it runs (the calls wait under the output until then).
  for (const block of message.content) {
    if (block.type === "thinking") out.push(block.redacted ? c.dim("(redacted thinking)") : thoughtRow(c)); // folded, as live (Ctrl+O)
    else if (block.type === "text" && block.text.trim()) out.push(...answerRows(block.text, c, width));
  }
  for (const block of message.content) {
    if (block.type !== "toolUse") continue;
    out.push(toolLine(block.name, toolSummary(block.name, block.input), c, toolWidth(width)));
    const child = view.children?.(block.id) ?? [];
    if (child.length) out.push(subagentRow(child, c, toolWidth(width)));
    out.push(...resultRows(block, view.results.get(block.id), meta, view, changes));
  }
  if (meta.stopReason === "error" && meta.errorMessage && !meta.interrupted) out.push(errorRow(meta.errorMessage, c));
  if (meta.stopReason === "length") out.push(lengthRow(c));
  return out;
}

/** An answer's rows as shown live, its first ANSWER_LINES. */
function answerRows(text: string, c: Colors, width: number): string[] {
  // Its rows without the final line end (an HTML block's rendering closes its style after it).
  const rows = showAnswer(text.trim(), width, c.isColorSupported).replace(/\n((?:\x1b\[[0-9;]*m)*)$/, "$1").split("\n");
  const more = rows.length - ANSWER_LINES;
  if (more <= 0) return rows;
  // Cut between two rendered rows: a style still open there must not run into the next line.
  const shown = rows.slice(0, ANSWER_LINES);
  if (c.isColorSupported) shown[shown.length - 1] += "\x1b[0m";
  return [...shown, c.dim(`… ${more} more line${more === 1 ? "" : "s"}`)];
}

/**
 * A call's result as it was shown live: the tool's own output (a call
 * interrupted after it started is recorded with a note for the model first),
 * a diff for write and edit where the log allows one. A call with no result
 * yet never ran when its response failed (the next prompt records it so);
 * when its response asked for it, awl stopped while it ran, and nothing was
 * shown after its line.
 */
function resultRows(use: ToolUseBlock, result: ToolResultBlock | undefined, meta: MessageMeta, view: View, changes: FileChangeEntry[]): string[] {
  const { c, width } = view;
  if (!result) return meta.stopReason && meta.stopReason !== "toolUse" ? [notRunRow(c)] : [];
  const interruptedPrefix = interruptedAfterStart("");
  const content = result.content.startsWith(interruptedPrefix) ? result.content.slice(interruptedPrefix.length) : result.content;
  const isError = result.isError ?? false;
  const effect = callEffect(use.name, use.input, view.files?.cwd ?? "/");
  const shown: ShownResult = { content, isError, ...(isError || effect?.kind !== "write" ? {} : changeOf(effect.path, changes, view)) };
  return toolResultRows(shown, c, toolWidth(width), effect?.kind);
}

/** The change a call made to `path`, from its file_change entry's two versions (each entry is taken once, in call order). */
function changeOf(path: string, changes: FileChangeEntry[], view: View): Partial<ShownResult> {
  const at = changes.findIndex((e) => e.path === path);
  const entry = at === -1 ? undefined : changes.splice(at, 1)[0];
  const missing = { note: "(no diff: the file's versions are not kept)" };
  if (!entry || !view.files) return missing;
  const version = (hash: string | null) => (hash === null ? null : blobUpTo(view.files!.blobs, hash, MAX_KEPT_BYTES));
  const [before, after] = [version(entry.before), version(entry.after)];
  if (before === undefined || !after) return missing;
  return { change: fileChange({ created: before === null, ...(before ? { before } : {}), after }, providerSecrets(view.env)) };
}

/** A blob's bytes when it is stored and not larger than `max` (a diff of more is not shown). */
function blobUpTo(blobs: BlobStore, hash: string, max: number): Buffer | undefined {
  const size = Bun.file(blobs.path(hash)).size;
  return size <= max ? blobs.get(hash) : undefined;
}
