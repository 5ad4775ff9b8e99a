// The summary request of a compaction: what the model is asked, and its
// answer. Two ways: a fork of the conversation (its own system prompt, tools
// and messages, with the instruction as the last user message, so the API
// reads it all from the prompt cache), or, when that would not fit the
// window, the conversation as plain text, in pieces. A later compaction hands
// the earlier summary in to be updated, never to be summarized again.

import { Conversation, messageText, type Message } from "../conversation";
import { cutMiddle } from "../session";
import { applyStreamEvent, finalizeMessage } from "../providers/assemble";
import type { ContextOverflow, Provider, StreamEvent, ToolDefinition, Usage } from "../providers/provider";
import type { ThinkingRequest } from "../providers/thinking-plan";

/** What a summary holds, in the order it holds it. */
const SUMMARY_SHAPE = [
  "Write a summary that lets awl go on as if it remembered everything that matters. Use these headings, in this order:",
  "## Goal: what the user wants, in their terms.",
  "## Constraints and preferences: every instruction, correction and preference the user gave, quoted when short. Never drop one.",
  "## Decisions: what was decided, and why.",
  "## Files: the files read, and the files created or changed, each with what changed.",
  "## Progress: what is done, and what was verified (commands, tests, their results).",
  "## Next steps: what remains, in order, and the exact state of any step left half done.",
  "Be specific: paths, names, commands, error messages, numbers. Do not invent anything. Answer with the summary only.",
];

export const SUMMARY_SYSTEM = [
  "You compact a coding session between a user and awl, an AI coding agent working in the user's project, so that awl can continue the work with a fresh context window.",
  ...SUMMARY_SHAPE,
].join("\n");

/**
 * The last user message of a fork: the conversation above is the one to
 * summarize, up to the person's latest request (`kept`, which stays as it is
 * after the compaction). No tool may be called: the answer is the summary.
 */
export function forkInstruction(o: { kept: string; focus?: string; maxWords: number }): string {
  const opening = o.kept.trim().replace(/\s+/g, " ");
  const quote = opening.length > 120 ? `${opening.slice(0, 120)}…` : opening;
  const parts = [
    "Stop the work for a moment: the conversation is about to be compacted so that it fits the context window, and you are asked for its summary. Call no tool; answer with text only.",
    `Summarize everything in this conversation before my latest request (the one that begins "${quote}"), which is kept as it is. Where the conversation opens with an earlier summary, carry everything in it that still holds into yours.`,
    ...SUMMARY_SHAPE,
  ];
  if (o.focus?.trim()) parts.push(`The user asks you to keep this in mind above all: ${o.focus.trim()}`);
  parts.push(`Keep the summary under ${o.maxWords} words.`);
  return parts.join("\n");
}

/** One message as the summarizer reads it; thinking is left out, long tool output shortened. */
export function transcriptLines(messages: readonly Message[]): string[] {
  const names = new Map<string, string>();
  const out: string[] = [];
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "text" && block.text.trim()) out.push(`${message.role === "user" ? "User" : "Assistant"}: ${block.text.trim()}`);
      else if (block.type === "toolUse") {
        names.set(block.id, block.name);
        out.push(`Assistant called ${block.name}: ${cutMiddle(block.input, 1024)}`);
      } else if (block.type === "toolResult") {
        const name = names.get(block.toolUseId) ?? "a tool";
        out.push(`${name} ${block.isError ? "failed" : "returned"}: ${cutMiddle(block.content, 1024)}`);
      }
    }
  }
  return out;
}

/**
 * The one user message of a summary request. With no new transcript it asks
 * for the summary so far again, shorter (the window it must fit shrank).
 */
export function summaryRequest(o: { previous?: string; transcript: string; focus?: string; maxWords: number }): string {
  const parts: string[] = [];
  if (o.previous) parts.push("The summary so far, of what came before:", `<summary>\n${o.previous}\n</summary>`, "");
  if (!o.transcript) parts.push("Write it again, shorter: keep what matters most for going on with the work.");
  else {
    parts.push(o.previous ? "Update it with the conversation below: keep everything in it that still holds, change what the conversation changed, add what is new." : "Summarize the conversation below.");
    parts.push("", `<conversation>\n${o.transcript}\n</conversation>`);
  }
  if (o.focus?.trim()) parts.push("", `The user asks you to keep this in mind above all: ${o.focus.trim()}`);
  parts.push("", `Keep the summary under ${o.maxWords} words.`);
  return parts.join("\n");
}

export type SummaryAnswer = { ok: true; text: string; usage?: Usage } | { ok: false; overflow?: ContextOverflow; aborted?: boolean; errorMessage: string; usage?: Usage };

/** The parts of a summary request that make it a fork or a transcript request. */
export interface SummaryParts {
  system: string;
  tools: ToolDefinition[];
  conversation: Conversation;
  thinking?: ThinkingRequest;
}

/** A summary request of the transcript alone: its own system prompt, no tools, no thinking. */
export function transcriptParts(request: string): SummaryParts {
  return { system: SUMMARY_SYSTEM, tools: [], conversation: new Conversation([{ role: "user", content: [{ type: "text", text: request }] }]) };
}

/**
 * Sends one summary request and reads the whole answer: its text (a tool call
 * in it is never run, and an answer with no text is a failure). Only `retry`
 * events are passed on (the summary text is not shown while it streams).
 */
export async function askForSummary(o: {
  provider: Provider;
  model: string;
  maxTokens: number;
  parts: SummaryParts;
  signal: AbortSignal;
  /** The session's id: the prompt cache key, as on the conversation's own requests. */
  sessionId: string;
  onRetry?: (event: Extract<StreamEvent, { type: "retry" }>) => void;
}): Promise<SummaryAnswer> {
  const message: Message = { role: "assistant", content: [] };
  let end: Extract<StreamEvent, { type: "end" }> | undefined;
  const stream = o.provider.stream({ model: o.model, ...o.parts, maxTokens: o.maxTokens, sessionId: o.sessionId, signal: o.signal });
  for await (const event of stream) {
    if (event.type === "end") end = event;
    else {
      if (event.type === "retry") o.onRetry?.(event);
      applyStreamEvent(message, event);
    }
  }
  const text = messageText(finalizeMessage(message)).trim();
  if (!end || end.stopReason === "error" || !text) {
    const errorMessage = end?.errorMessage ?? "the summary came back empty";
    return { ok: false, overflow: end?.overflow, aborted: end?.aborted, errorMessage, usage: end?.usage };
  }
  return { ok: true, text, usage: end.usage };
}
