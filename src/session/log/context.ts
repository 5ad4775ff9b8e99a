// The model's context, built from the log alone by one pure function: a live
// session after a compaction and a session resumed from its file's tail both
// call it, so they send exactly the same messages (docs/session-format.md,
// "Compaction").
import type { ContentBlock, Message } from "../../conversation";
import { jsonByteLength } from "../../json";
import { diskMessageToInternal } from "./convert";
import { customText, decisionsOf } from "./kinds";
import type { BranchSummaryEntry, CompactionEntry, CustomMessageEntry, MessageEntry, SessionEntry, SessionHeader } from "./schema";

export type ModelRef = { provider: string; model: string };

export interface SessionContext {
  /** What the model is sent: the system message, the summary when compacted, then the live messages. */
  messages: Message[];
  /** The provider/model of the last stamped user message, else the header's. */
  model: ModelRef;
  /** The latest compaction in force. */
  compaction?: CompactionEntry;
  /** The message that stands for the compacted turns (summary and kept prompts): never the person's words. */
  summary?: Message;
  /** Later compactions passed over because their first kept entry is not an earlier prompt. */
  ignored: CompactionEntry[];
  /** Where on the branch the context's entries begin: the compaction in force's first kept entry, else 0. */
  from: number;
}

/** How much of a shortened tool result stays at each end. */
export const CUT_KEEP_BYTES = 2048;

export interface ContextSources {
  header: SessionHeader;
  /** The session's system message entry, which a compacted context opens with. */
  system?: MessageEntry;
  /** The entry a compaction's firstKeptEntryId names: the nearest entry with that id before it in the file, as for a parentId. */
  keptEntry(compaction: CompactionEntry): SessionEntry | undefined;
}

/**
 * The compaction in force along `branch` (root to leaf): the latest whose
 * first kept entry is a prompt on the branch before it; `from` is that
 * prompt's index (0 when none is in force), and `ignored` the later ones
 * passed over.
 */
export function compactionInForce(
  branch: readonly SessionEntry[],
  keptEntry: (c: CompactionEntry) => SessionEntry | undefined,
): { compaction?: CompactionEntry; from: number; ignored: CompactionEntry[] } {
  const ignored: CompactionEntry[] = [];
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i]!;
    if (entry.type !== "compaction") continue;
    const kept = keptEntry(entry);
    const at = kept && isPrompt(kept) ? branch.lastIndexOf(kept, i) : -1;
    if (at === -1) ignored.push(entry);
    else return { compaction: entry, from: at, ignored };
  }
  return { from: 0, ignored };
}

/**
 * The context along `branch` (root to leaf, the active path; after a resume
 * from the tail it starts at the compaction in force's first kept entry).
 * Only the path counts: what abandoned branches said reaches the model only
 * through a branch summary on the path.
 */
export function buildSessionContext(branch: readonly SessionEntry[], o: ContextSources): SessionContext {
  const { compaction, from, ignored } = compactionInForce(branch, o.keptEntry);
  const messages: Message[] = [];
  let summary: Message | undefined;
  if (compaction) {
    if (o.system) messages.push(diskMessageToInternal(o.system.message));
    summary = summaryMessage(compaction);
    messages.push(summary);
  }
  const cut = new Set(compaction?.cutToolResults);
  // What a compaction kept was made before it, under a prefix it has changed.
  const after = compaction ? branch.indexOf(compaction) : -1;
  for (let i = from; i < branch.length; i++) {
    const entry = branch[i]!;
    // What the model is sent of each kind is the kind table's `model`. A compaction (an "opening summary") stands for what came before its kept prompt (above); bookkeeping is never on a path; checkpoints and unknown kinds add nothing.
    const sent = decisionsOf(entry.type).model;
    if (sent === "message" && entry.type === "message") {
      const message = diskMessageToInternal(entry.message);
      if (entry.prefixHash && i > after) message.prefixHash = entry.prefixHash;
      if (entry.message.role === "assistant") message.model = entry.message.model;
      if (cut.size && entry.message.role === "user") message.content = message.content.map((b) => (b.type === "toolResult" && cut.has(b.toolUseId) ? { ...b, content: cutMiddle(b.content) } : b));
      messages.push(message);
    } else if (sent === "branch summary" && entry.type === "branch_summary") messages.push(branchSummaryMessage(entry));
    else if (sent === "extension message" && entry.type === "custom_message") messages.push(extensionMessage(entry));
  }
  return { messages, model: activeModel(branch, o.header), compaction, summary, ignored, from };
}

/** The user message a branch summary puts on the path: marked as a summary of a path left behind, never the person's words. */
export function branchSummaryMessage(e: BranchSummaryEntry): Message {
  const intro = "[The conversation went down another path from here first, then came back to this point. This summary of that path stands for it.]";
  return { role: "user", content: [{ type: "text", text: `${intro}\n\n<summary>\n${e.summary}\n</summary>` }] };
}

/** The user message an extension's words are sent as: marked as the extension's, never the person's words. */
export function extensionMessage(e: CustomMessageEntry): Message {
  const who = e.customType === "hook" ? "a hook" : `the ${e.customType} extension`;
  return { role: "user", content: [{ type: "text", text: `[Added by ${who}, not typed by the user.]\n\n${customText(e)}` }] };
}

/** A user message with text in it: a turn the person started (tool results alone are not one). */
export function isPrompt(entry: SessionEntry): entry is MessageEntry {
  return entry.type === "message" && entry.message.role === "user" && entry.message.content.some((b) => b.type === "text" && b.text.trim() !== "");
}

function activeModel(branch: readonly SessionEntry[], header: SessionHeader): ModelRef {
  for (let i = branch.length - 1; i >= 0; i--) {
    const entry = branch[i]!;
    if (entry.type === "message" && entry.message.role === "user" && entry.provider && entry.model) return { provider: entry.provider, model: entry.model };
  }
  return { provider: header.provider, model: header.model };
}

/**
 * The user message a compaction puts where the summarized turns were: the
 * summary, marked as one, then the person's kept prompts verbatim, one text
 * block each, oldest first.
 */
export function summaryMessage(c: CompactionEntry): Message {
  const turns = c.summarizedTurns === undefined ? "" : ` (${c.summarizedTurns} turn${c.summarizedTurns === 1 ? "" : "s"})`;
  const prompts = c.keptPrompts.length ? " The user's own prompts from them follow it, verbatim, oldest first." : "";
  const intro = `[The earlier part of this conversation${turns} was compacted to fit the context window. This summary stands for it.${prompts}]`;
  const content: ContentBlock[] = [{ type: "text", text: `${intro}\n\n<summary>\n${c.summary}\n</summary>` }];
  for (const prompt of c.keptPrompts) content.push({ type: "text", text: prompt });
  return { role: "user", content };
}

/** A long text shortened to its first and last CUT_KEEP_BYTES around `[… N bytes cut]`; short ones unchanged. */
export function cutMiddle(text: string, keep = CUT_KEEP_BYTES): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= keep * 2 + 64) return text;
  const head = bytes.toString("utf8", 0, keep).replace(/\uFFFD$/, "");
  const tail = bytes.toString("utf8", bytes.length - keep).replace(/^\uFFFD/, "");
  const cut = bytes.length - Buffer.byteLength(head) - Buffer.byteLength(tail);
  return `${head}\n[… ${cut.toLocaleString("en-US")} bytes cut]\n${tail}`;
}

export interface ContextSize {
  /** Tokens the API counted for the last response since the latest compaction (input, cache and output), else the compaction's estimate, else 0. */
  tokens: number;
  /** JSON bytes of the messages appended after that. */
  bytesSince: number;
  /** False when nothing counted yet: `bytesSince` is then the whole context's (the caller adds the tool definitions). */
  anchored: boolean;
}

/**
 * What the context costs so far, walking `fromLeaf` (leaf first) back to the
 * last response that reported usage or to the compaction in force: the next
 * request's estimate is `tokens` + bytes/4 of what came since.
 */
export function contextSize(fromLeaf: Iterable<SessionEntry>, compaction: CompactionEntry | undefined): ContextSize {
  let bytesSince = 0;
  for (const entry of fromLeaf) {
    if (entry === compaction) return { tokens: compaction.tokensAfter, bytesSince, anchored: true };
    if (entry.type === "branch_summary") bytesSince += Buffer.byteLength(entry.summary);
    if (entry.type === "custom_message") bytesSince += Buffer.byteLength(customText(entry));
    if (entry.type !== "message") continue;
    const usage = entry.message.role === "assistant" ? entry.message.usage : undefined;
    if (usage) return { tokens: usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0) + usage.output, bytesSince, anchored: true };
    bytesSince += jsonByteLength(entry.message);
  }
  return { tokens: 0, bytesSince, anchored: false };
}
