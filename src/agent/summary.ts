// The summary request of a compaction: what the model is asked, the part of
// the conversation it reads (as plain text, in pieces when it would not fit
// one request), and its answer. A later compaction hands the earlier summary
// in to be updated, never to be summarized again.

import { Conversation, messageText, type Message } from "../conversation";
import { cutMiddle } from "../session";
import { applyStreamEvent, finalizeMessage } from "../providers/assemble";
import type { ContextOverflow, Provider, StreamEvent, Usage } from "../providers/provider";

export const SUMMARY_SYSTEM = [
  "You compact a coding session between a user and awl, an AI coding agent working in the user's project, so that awl can continue the work with a fresh context window.",
  "Write a summary that lets awl go on as if it remembered everything that matters. Use these headings, in this order:",
  "## Goal: what the user wants, in their terms.",
  "## Constraints and preferences: every instruction, correction and preference the user gave, quoted when short. Never drop one.",
  "## Decisions: what was decided, and why.",
  "## Files: the files read, and the files created or changed, each with what changed.",
  "## Progress: what is done, and what was verified (commands, tests, their results).",
  "## Next steps: what remains, in order, and the exact state of any step left half done.",
  "Be specific: paths, names, commands, error messages, numbers. Do not invent anything. Answer with the summary only.",
].join("\n");

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

/** Sends one summary request and reads the whole answer. Only `retry` events are passed on (the summary text is not shown while it streams). */
export async function askForSummary(o: {
  provider: Provider;
  /** The instructions; the summary's own unless another one-shot request (a title) borrows this. */
  system?: string;
  model: string;
  maxTokens: number;
  request: string;
  signal: AbortSignal;
  onRetry?: (event: Extract<StreamEvent, { type: "retry" }>) => void;
}): Promise<SummaryAnswer> {
  const message: Message = { role: "assistant", content: [] };
  let end: Extract<StreamEvent, { type: "end" }> | undefined;
  const stream = o.provider.stream({
    model: o.model,
    system: o.system ?? SUMMARY_SYSTEM,
    conversation: new Conversation([{ role: "user", content: [{ type: "text", text: o.request }] }]),
    tools: [],
    maxTokens: o.maxTokens,
    thinking: false,
    signal: o.signal,
  });
  for await (const event of stream) {
    if (event.type === "end") end = event;
    else if (event.type === "retry") o.onRetry?.(event);
    else applyStreamEvent(message, event);
  }
  const text = messageText(finalizeMessage(message)).trim();
  if (!end || end.stopReason === "error" || !text) {
    const errorMessage = end?.errorMessage ?? "the summary came back empty";
    return { ok: false, overflow: end?.overflow, aborted: end?.aborted, errorMessage, usage: end?.usage };
  }
  return { ok: true, text, usage: end.usage };
}
