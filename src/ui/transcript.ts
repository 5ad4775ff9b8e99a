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

import { windowOf } from "../agent/agent";
import type { ModelInfo } from "../providers/model-info";
import type { ProviderName } from "../providers/provider";
import { INTERRUPTED_AFTER_START, INTERRUPTED_BY_USER, INTERRUPTED_NOT_RUN, interruptedAfterStart } from "../agent/events";
import type { Conversation, Message, ToolResultBlock, ToolUseBlock } from "../conversation";
import { jsonByteLength } from "../json";
import type { Usage } from "../providers/provider";
import type { CompactionEntry, FileChangeEntry, MessageMeta, SessionContext, SessionEntry } from "../session";
import { providerSecrets } from "../tools";
import { fileChange, MAX_KEPT_BYTES } from "../tools/tool";
import { callEffect, toolSummary } from "../tools";
import { BlobStore, blobDir } from "../session/blobs";
import type { Colors } from "./colors";
import { meterText, oneLine } from "./format";
import { showAnswer } from "./markdown-stream";
import { compactedRow, errorRow, cutOffOutput, keptAnything, interruptedRow, lengthRow, notRunRow, type ShownResult, thoughtRow, toolLine, toolResultRows, toolWidth, unansweredRow, usageRow } from "./turn-lines";

const ANSWER_LINES = 8;
/** About three screens: a turn that starts within them is shown whole. */
export const TRANSCRIPT_LINES = 150;

/** What the transcript reads of a session (a SessionManager). */
export interface TranscriptSession {
  getBranch(): SessionEntry[];
  context(): SessionContext;
  readonly cwd: string;
  readonly sessionFile: string;
}

/** One thing the transcript shows: a message with what the log kept about it, or a compaction. */
type Item =
  /** `effort`: the effort a prompt was sent at, as its entry records it. */
  | { kind: "message"; message: Message; meta: MessageMeta; effort?: string; bytes: () => number; changes?: FileChangeEntry[] }
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
): string {
  const { items, compaction } = "getBranch" in from ? sessionItems(from) : conversationItems(from, compacted);
  const turns = splitTurns(items);
  const view: View = { c, width, env, results: new Map(), items, modelInfo, ...("getBranch" in from ? { files: { cwd: from.cwd, blobs: new BlobStore(blobDir(from.sessionFile)) } } : {}) };
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
  return [...summarized, ...note, ...shown.flat()].join("\n");
}

/** The entries after the latest compaction's first kept one (all of them when none), as the context holds them, uncut. */
function sessionItems(session: TranscriptSession): { items: Item[]; compaction?: CompactionEntry } {
  const context = session.context();
  const branch = session.getBranch();
  let start = 0;
  if (context.summary) {
    // The context's messages after the summary are the branch's last message entries, one for one.
    let kept = context.messages.length - context.messages.indexOf(context.summary) - 1;
    for (start = branch.length; kept > 0 && start > 0; ) {
      const entry = branch[--start]!;
      if (entry.type === "message" && entry.message.role !== "system") kept--;
    }
  }
  const ignored = new Set<SessionEntry>(context.ignored);
  const items: Item[] = [];
  for (const entry of branch.slice(start)) {
    if (entry.type === "compaction" && !ignored.has(entry)) items.push({ kind: "compaction", entry });
    // A call's file_change entries come after the message that made the call.
    const last = items.at(-1);
    if (entry.type === "file_change" && last?.kind === "message") (last.changes ??= []).push(entry);
    if (entry.type !== "message" || entry.message.role === "system") continue;
    const { provider = entry.provider, model = entry.model, stopReason, usage, errorMessage } = entry.message;
    // The entry's own message (its blocks have the in-memory shape): only read here, never changed, so not copied.
    const message: Message = entry.message;
    items.push({ kind: "message", message, meta: { provider, model, stopReason, usage, errorMessage }, effort: entry.effort, bytes: () => jsonByteLength(entry.message) });
  }
  return { items, compaction: context.compaction };
}

function conversationItems(conversation: Conversation, compacted: Pick<SessionContext, "summary" | "compaction">): { items: Item[]; compaction?: CompactionEntry } {
  const items: Item[] = conversation.messages
    .filter((m) => m !== compacted.summary && m.role !== "system")
    .map((message) => ({ kind: "message", message, meta: {}, bytes: () => jsonByteLength(message) }));
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
  /** Where a session's calls ran and its file versions are: absent for a bare conversation. */
  files?: { cwd: string; blobs: BlobStore };
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
  const usage: Usage = { input: 0, output: 0 };
  const opening = items[turn[0]!];
  const effort = opening?.kind === "message" ? opening.effort : undefined;
  let estimated = false;
  for (const i of turn) {
    const item = items[i]!;
    if (item.kind === "compaction") {
      out.push(compactedRow(item.entry, c));
      if (i > lastMessage) out.push(c.dim(meterText(meterAt(i, view))));
      else add(usage, item.entry.usage);
      continue;
    }
    out.push(...renderMessage(item.message, item.meta, view, item.changes));
    const cut = item.message.role === "assistant" && item.meta.stopReason === "error" ? cutUsage(item.message, item.meta.usage) : undefined;
    add(usage, cut ?? item.meta.usage);
    estimated ||= cut !== undefined;
    if (i === lastMessage) {
      if (interrupted(item)) out.push(interruptedRow(c));
      if (item.message.role === "assistant" && item.meta.stopReason === "error" && !keptAnything(item.message.content)) out.push(unansweredRow(c, view.width));
      const line = usageRow(usage, meterAt(i, view), c, view.width, { effort, estimated });
      if (line) out.push(line);
    }
  }
  return out;
}

/** A response cut off (interrupted or failed) after something streamed, counted as the live view counted it (see cutOffOutput); undefined when nothing had. */
function cutUsage(message: Message, usage: Usage | undefined): Usage | undefined {
  const characters = message.content.reduce((n, b) => n + (b.type === "text" ? b.text.length : b.type === "thinking" ? b.thinking.length : 0), 0);
  if (characters === 0) return undefined;
  return { ...(usage ?? { input: 0 }), output: cutOffOutput(usage?.output ?? 0, characters) };
}

function add(sum: Usage, usage: Usage | undefined): void {
  if (!usage) return;
  sum.input += usage.input;
  sum.output += usage.output;
  if (usage.cacheRead) sum.cacheRead = (sum.cacheRead ?? 0) + usage.cacheRead;
  if (usage.cacheWrite) sum.cacheWrite = (sum.cacheWrite ?? 0) + usage.cacheWrite;
}

/** The turn ended because it was interrupted: its response was cut off by the person, or its tools were stopped. */
function interrupted(item: Item & { kind: "message" }): boolean {
  if (item.message.role === "assistant") return item.meta.errorMessage === INTERRUPTED_BY_USER;
  return !isPrompt(item.message) && item.message.content.some((b) => b.type === "toolResult" && (b.content === INTERRUPTED_NOT_RUN || b.content.startsWith(INTERRUPTED_AFTER_START)));
}

/**
 * How full the context was after item `at`, as the live meter counted it:
 * the tokens the latest response (or compaction) accounted for, plus a
 * quarter of the bytes of every message after it; against the window of the
 * model that answered, as the environment, the catalogue, that compaction or the table has it.
 */
function meterAt(at: number, view: View): { tokens: number; window: number } {
  const { items } = view;
  let bytes = 0;
  let tokens: number | undefined;
  let compaction: CompactionEntry | undefined;
  let model: { provider: string; model: string } | undefined;
  for (let i = at; i >= 0 && (tokens === undefined || !compaction || !model); i--) {
    const item = items[i]!;
    if (item.kind === "compaction") {
      compaction ??= item.entry;
      tokens ??= item.entry.tokensAfter;
      continue;
    }
    const { provider, model: id, usage } = item.meta;
    if (!model && provider && id) model = { provider, model: id };
    if (tokens !== undefined) continue;
    if (item.message.role === "assistant" && usage) tokens = usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0) + usage.output;
    else bytes += item.bytes();
  }
  const window = model ? windowOf(model, compaction, view.env, view.modelInfo?.(model.provider as ProviderName, model.model)) : (compaction?.window ?? 1);
  return { tokens: (tokens ?? 0) + Math.ceil(bytes / 4), window };
}

function renderMessage(message: Message, meta: MessageMeta, view: View, changes: FileChangeEntry[] = []): string[] {
  const { c, width } = view;
  const out: string[] = [];
  if (message.role === "user") {
    for (const block of message.content) if (block.type === "text" && block.text.trim()) out.push(`${c.bold(c.green("›"))} ${oneLine(block.text, width - 2)}`);
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
    out.push(...resultRows(block, view.results.get(block.id), meta, view, changes));
  }
  if (meta.stopReason === "error" && meta.errorMessage && meta.errorMessage !== INTERRUPTED_BY_USER) out.push(errorRow(meta.errorMessage, c));
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
