// Compaction: when the context would not fit the model's window, the turns
// before the latest prompt are summarized and the summary is appended to the
// log as one entry; nothing is removed (docs/session-format.md, "Compaction").
// Write order: (1) the summary request(s), which write nothing; (2) the entry,
// appended and fsync'd as the child of the leaf; the caller then (3) rebuilds
// its conversation from the log, as a resume would, and (4) sends its request.

import { Conversation, type Message } from "../conversation";
import { UserError } from "../errors";
import { jsonByteLength } from "../json";
import { addUsage, cutMiddle, isPrompt, isSaidText, type CompactionEntry, type CompactionFields, type ModelRef, type SessionEntry, type SessionManager } from "../session";
import type { Provider, Usage } from "../providers/provider";
import type { AgentEvent } from "./events";
import { askForSummary, forkInstruction, SUMMARY_SYSTEM, summaryRequest, transcriptLines, transcriptParts, type SummaryParts } from "./summary";

export interface CompactOptions {
  session: SessionManager;
  provider: Provider;
  model: ModelRef;
  /** The context window (tokens) to size the result for. */
  window: number;
  /** Tokens kept free for the answer. */
  reserve: number;
  /** The context's size now, in tokens. */
  tokensBefore: number;
  /** Bytes of the tool definitions every request carries. */
  toolBytes: number;
  /** The largest answer a request may ask for (a thinking budget apart). */
  maxTokens: number;
  /**
   * The conversation's requests as they go (system, tools, messages, thinking
   * and its fixed budget): the summary is asked of it first, with the
   * instruction as its last message, so that its input is read from the cache.
   */
  fork?: SummaryParts & { budget: number };
  /** Shorten every long tool result of the kept turn, fits or not (after a second overflow). */
  cut?: boolean;
  /** What the person asked the summary to keep in mind (/compact's argument). */
  focus?: string;
  /**
   * /compact: the person asked to make room, so a result no smaller than the
   * context it replaces is not written (a long summary of a short session).
   */
  onlySmaller?: boolean;
  signal: AbortSignal;
  onEvent: (event: AgentEvent) => void;
}

export type Compaction =
  | { compacted: true; entry: CompactionEntry; usage: Usage; requests: number }
  /** Nothing could be made smaller: no earlier turn to summarize and nothing to cut, or (onlySmaller) the result was not smaller. */
  | { compacted: false; reason: string };

/** The summary request failed, or was interrupted: nothing was written. */
export class CompactionFailed extends UserError {
  constructor(
    reason: string,
    readonly aborted = false,
  ) {
    super(aborted ? reason : `could not compact the conversation: ${reason}`);
  }
}

/** A summary request may split its piece this many times after an overflow before giving up. */
const MAX_SPLITS = 3;

export async function compact(o: CompactOptions): Promise<Compaction> {
  const { session, window } = o;
  const branch = session.getBranch();
  const previous = session.compaction();
  const keepFrom = branch.findLastIndex(isPrompt);
  if (keepFrom === -1) return { compacted: false, reason: "there is no prompt to keep from yet" };
  const start = previous ? keptIndex(branch, previous) : 0;
  const summarized = messagesIn(branch.slice(start, keepFrom)).filter((m) => m.role !== "system");
  const newPrompts = summarized.flatMap((m) => (m.role === "user" && m.content.some((b) => b.type === "text" && b.text.trim()) ? [promptText(m)] : []));
  const summaryMax = summaryMaxTokens(window, o.maxTokens);

  const kept = branch.slice(keepFrom);
  const inherited = (previous?.cutToolResults ?? []).filter((id) => resultIds(kept).has(id));
  const fields: CompactionFields = {
    // Numbered after every compaction on the branch, those passed over included.
    n: Math.max(previous?.n ?? 0, ...session.context().ignored.map((c) => c.n)) + 1,
    summary: "",
    firstKeptEntryId: branch[keepFrom]!.id,
    keptPrompts: choosePrompts([...(previous?.keptPrompts ?? []), ...newPrompts], window),
    cutToolResults: inherited,
    window,
    tokensBefore: o.tokensBefore,
    tokensAfter: 0,
    provider: o.model.provider,
    model: o.model.model,
    summarizedTurns: (previous?.summarizedTurns ?? 0) + newPrompts.length,
  };
  // The kept turn alone, with a summary of the most it may be, and the answer's reserve: does it fit?
  const fits = tokensOf(session.contextAfter(fields).messages, o.toolBytes) + summaryMax + o.reserve <= window;
  if (o.cut || !fits) fields.cutToolResults = [...new Set([...inherited, ...longResults(kept)])];
  // A window that shrank (an overflow stated a smaller one) can leave the summary so far too long, or too many prompts kept.
  const condense = !summarized.length && previous !== undefined && tokens(Buffer.byteLength(previous.summary)) > summaryMax;
  const fewerPrompts = previous !== undefined && fields.keptPrompts.length < previous.keptPrompts.length;
  if (!summarized.length && fields.cutToolResults.length === inherited.length && !condense && !fewerPrompts) {
    return { compacted: false, reason: previous ? "everything before the latest turn is already summarized" : "there is only one turn so far" };
  }

  let usage: Usage = { input: 0, output: 0 };
  let requests = 0;
  if (summarized.length || condense) {
    const keptPrompt = branch[keepFrom]!;
    const forked = summarized.length && keptPrompt.type === "message" ? await summarizeFork(o, promptText(keptPrompt.message), summaryMax) : undefined;
    if (forked) requests++;
    if (forked?.text) {
      fields.summary = forked.text;
      usage = forked.usage;
    } else {
      const result = await summarizeInPieces(o, transcriptLines(summarized), previous?.summary, summaryMax);
      fields.summary = result.text;
      usage = result.usage;
      if (forked) addUsage(usage, forked.usage);
      requests += result.requests;
    }
  } else {
    fields.summary = previous?.summary ?? "Nothing came before the kept turn.";
  }
  fields.usage = usage;
  fields.tokensAfter = tokensOf(session.contextAfter(fields).messages, o.toolBytes);
  if (o.onlySmaller && fields.tokensAfter >= o.tokensBefore) {
    const count = (n: number) => n.toLocaleString("en-US");
    return { compacted: false, reason: `the summary would make the context larger (${count(o.tokensBefore)} -> ${count(fields.tokensAfter)} tokens); the context stays as it was` };
  }
  const entry = session.appendCompaction(fields);
  return { compacted: true, entry, usage, requests };
}

/** Tokens of a fork's instruction, at most (its wording, a quoted request, a focus). */
export const SUMMARY_INSTRUCTION_TOKENS = 600;

/**
 * The summary asked of the conversation itself (a cache-safe fork), when the
 * conversation, the instruction and the answer fit the window: undefined when
 * they do not; `text` empty when the answer was not a summary (no text, an
 * error, an overflow), and the transcript path is taken instead. An interrupt
 * ends the compaction.
 */
async function summarizeFork(o: CompactOptions, kept: string, summaryMax: number): Promise<{ text: string; usage: Usage } | undefined> {
  const fork = o.fork;
  const focus = o.focus ? tokens(Buffer.byteLength(o.focus)) : 0;
  if (!fork || o.tokensBefore + SUMMARY_INSTRUCTION_TOKENS + focus + summaryMax + fork.budget > o.window) return undefined;
  const instruction = forkInstruction({ kept, focus: o.focus, maxWords: Math.floor(summaryMax * 0.6) });
  const conversation = new Conversation([...fork.conversation.messages, { role: "user", content: [{ type: "text", text: instruction }] }]);
  const answer = await askForSummary({
    provider: o.provider,
    model: o.model.model,
    maxTokens: summaryMax + fork.budget,
    parts: { system: fork.system, tools: fork.tools, conversation, thinking: fork.thinking },
    signal: o.signal,
    sessionId: o.session.sessionId,
    onRetry: o.onEvent,
  });
  if (!answer.ok && answer.aborted) throw new CompactionFailed("Interrupted", true);
  return { text: answer.ok ? answer.text : "", usage: answer.usage ?? { input: 0, output: 0 } };
}

/**
 * The summary of `lines`, updating `previous`: one request when they fit the
 * window, else one per piece, each updating the summary of the pieces before
 * it. A piece the API still finds too long is split and sent again, a few
 * times at most: never a loop.
 */
async function summarizeInPieces(o: CompactOptions, lines: string[], previous: string | undefined, summaryMax: number): Promise<{ text: string; usage: Usage; requests: number }> {
  const maxWords = Math.floor(summaryMax * 0.6);
  const instructions = tokens(jsonByteLength(SUMMARY_SYSTEM) + jsonByteLength(summaryRequest({ transcript: "x", focus: o.focus, maxWords })));
  // Room for a piece: the window less the answer, the summary it updates (at most an answer's size) and the instructions, with a margin.
  const budget = o.window - 2 * summaryMax - instructions - Math.ceil(o.window / 20);
  if (budget < 256) throw new CompactionFailed(`the context window (${o.window} tokens) is too small to summarize in`);
  // No new lines: one request that writes the summary so far again, shorter.
  const queue = lines.length ? pack(lines, budget).map((piece) => ({ piece, splits: 0 })) : [{ piece: [] as string[], splits: MAX_SPLITS }];
  const usage: Usage = { input: 0, output: 0 };
  // A summary written for a larger window may not fit this one at all: it goes in shortened (its middle cut) to be rewritten.
  let summary = previous && cutMiddle(previous, summaryMax * 2);
  let requests = 0;
  while (queue.length) {
    const { piece, splits } = queue.shift()!;
    const answer = await askForSummary({
      provider: o.provider,
      model: o.model.model,
      maxTokens: summaryMax,
      parts: transcriptParts(summaryRequest({ previous: summary, transcript: piece.join("\n"), focus: o.focus, maxWords })),
      signal: o.signal,
      sessionId: o.session.sessionId,
      onRetry: o.onEvent,
    });
    requests++;
    addUsage(usage, answer.usage);
    if (answer.ok) {
      summary = answer.text;
      continue;
    }
    if (answer.aborted) throw new CompactionFailed("Interrupted", true);
    if (!answer.overflow || splits >= MAX_SPLITS) throw new CompactionFailed(answer.errorMessage);
    queue.unshift(...halves(piece).map((half) => ({ piece: half, splits: splits + 1 })));
  }
  return { text: summary!, usage, requests };
}

/** Lines packed in order into pieces of at most `budget` tokens; a line longer than that is shortened in its middle. */
function pack(lines: string[], budget: number): string[][] {
  const pieces: string[][] = [];
  let piece: string[] = [];
  let size = 0;
  for (const raw of lines) {
    const line = tokens(Buffer.byteLength(raw)) > budget ? cutMiddle(raw, Math.floor((budget * 4) / 2) - 64) : raw;
    const cost = tokens(Buffer.byteLength(line) + 1);
    if (piece.length && size + cost > budget) {
      pieces.push(piece);
      piece = [];
      size = 0;
    }
    piece.push(line);
    size += cost;
  }
  if (piece.length) pieces.push(piece);
  return pieces;
}

/** A piece in two; a piece of one line becomes that line's two shortened halves' worth. */
function halves(piece: string[]): string[][] {
  if (piece.length > 1) return [piece.slice(0, piece.length >> 1), piece.slice(piece.length >> 1)];
  const line = piece[0] ?? "";
  return [[cutMiddle(line, Math.max(256, Buffer.byteLength(line) >> 2))]];
}

/** The answer a summary may take: an eighth of the window, between 256 and 8,192 tokens, never above the model's own limit. */
export function summaryMaxTokens(window: number, maxTokens: number): number {
  return Math.max(256, Math.min(Math.floor(window / 8), 8192, maxTokens));
}

/**
 * The person's prompts to keep verbatim: newest first until their bytes/4
 * would pass a tenth of the window, then back in the order they were typed.
 */
export function choosePrompts(prompts: readonly string[], window: number): string[] {
  const chosen: string[] = [];
  let size = 0;
  for (let i = prompts.length - 1; i >= 0; i--) {
    const cost = tokens(Buffer.byteLength(prompts[i]!));
    if (size + cost > window / 10) break;
    chosen.unshift(prompts[i]!);
    size += cost;
  }
  return chosen;
}

/** Where the compaction in force keeps from: the nearest entry before it with its first kept id. */
function keptIndex(branch: readonly SessionEntry[], compaction: CompactionEntry): number {
  const at = branch.indexOf(compaction);
  for (let i = at - 1; i >= 0; i--) if (branch[i]!.id === compaction.firstKeptEntryId) return i;
  return 0;
}

function messagesIn(entries: readonly SessionEntry[]): Message[] {
  return entries.flatMap((e) => (e.type === "message" ? [{ role: e.message.role, content: e.message.content }] : []));
}

/** What the person wrote: awl's directory note is left out of the prompts kept verbatim. */
function promptText(message: Message): string {
  return message.content.flatMap((b) => (isSaidText(b) ? [b.text] : [])).join("\n\n");
}

function resultIds(entries: readonly SessionEntry[]): Set<string> {
  return new Set(entries.flatMap((e) => (e.type === "message" ? e.message.content.flatMap((b) => (b.type === "toolResult" ? [b.toolUseId] : [])) : [])));
}

/** The tool results of `entries` that cutting would shorten. */
function longResults(entries: readonly SessionEntry[]): string[] {
  return entries.flatMap((e) =>
    e.type === "message" ? e.message.content.flatMap((b) => (b.type === "toolResult" && cutMiddle(b.content) !== b.content ? [b.toolUseId] : [])) : [],
  );
}

/** The size of a context in tokens, as bytes/4 of what a request carries. */
export function tokensOf(messages: readonly Message[], toolBytes: number): number {
  return tokens(jsonByteLength(messages) + toolBytes);
}

function tokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}
