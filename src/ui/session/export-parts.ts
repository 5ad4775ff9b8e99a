// A session's active path as the pieces an export shows, in order, every text
// already redacted: the person's prompts, the model's answers (thinking
// apart), tool calls (an edit as a diff, a write as the text it wrote) and
// their results, where an answer was interrupted, and compaction summaries.
// The system prompt is awl's own and left out; entry kinds this version does
// not know are left out.
import type { ActivePath } from "../../session/tree";
import type { Redact } from "./redact";
import { shownCall } from "../../tools";
import { decisionsOf, isInterrupted, isSaidText, wrappedEntry, type DiskMessage, type MessageEntry } from "../../session";

export type Part =
  | { kind: "prompt"; text: string; time: string }
  | { kind: "answer"; text: string; model?: string }
  | { kind: "thinking"; text: string }
  | { kind: "call"; name: string; summary: string; body: string; language: string }
  | { kind: "result"; text: string; isError: boolean }
  | { kind: "summary"; text: string; n: number }
  /** The answer before it was cut off by the person (its entry's `interrupted`). */
  | { kind: "interrupted" }
  /** What a `task` call's subagent did, shown under its call. */
  | { kind: "subagent"; parts: Part[] };

export interface Document {
  title: string;
  id: string;
  cwd: string;
  created: string;
  parts: Part[];
}

export function documentOf(path: ActivePath, title: string | undefined, redact: Redact): Document {
  const parts: Part[] = [];
  const children = childMessages(path);
  for (const { entry } of path.entries) {
    const shown = decisionsOf(entry.type).export; // the kind table's `export`
    if (shown === "summary" && entry.type === "compaction") parts.push({ kind: "summary", text: redact(entry.summary), n: entry.n });
    if (shown !== "messages" || entry.type !== "message") continue;
    if (entry.message.role !== "system") parts.push(...messageParts(entry.message, entry.timestamp, redact, children));
  }
  // A killed answer, read from its partials: where its message will be written.
  if (path.interrupted) parts.push(...messageParts(path.interrupted, "", redact, children));
  const firstPrompt = parts.find((p) => p.kind === "prompt")?.text.split("\n").find((l) => l.trim());
  return { title: redact(title ?? firstPrompt ?? "Untitled session"), id: path.header.id, cwd: redact(path.header.cwd), created: path.header.timestamp, parts };
}

/** The messages of each subagent on the path (the kind table's "nested under its call"), by the id of the call it worked for; its system prompt is awl's own and left out. */
function childMessages(path: ActivePath): Map<string, MessageEntry[]> {
  const out = new Map<string, MessageEntry[]>();
  for (const { entry } of path.children) {
    if (entry.type !== "child" || decisionsOf(entry.type).export !== "nested under its call") continue;
    const wrapped = wrappedEntry(entry);
    if (wrapped?.type !== "message" || wrapped.message.role === "system") continue;
    out.set(entry.task, [...(out.get(entry.task) ?? []), wrapped]);
  }
  return out;
}

/** A message as the pieces an export shows: its texts, thinking, calls (with what their subagents did) and results, and whether it was cut off. */
function messageParts(message: DiskMessage, time: string, redact: Redact, children: Map<string, MessageEntry[]>): Part[] {
  const parts: Part[] = [];
  const model = message.provider && message.model ? `${message.provider}/${message.model}` : undefined;
  for (const block of message.content) {
    if (isSaidText(block) && block.text.trim()) {
      parts.push(message.role === "user" ? { kind: "prompt", text: redact(block.text), time } : { kind: "answer", text: redact(block.text), model });
    } else if (block.type === "thinking" && block.thinking.trim()) parts.push({ kind: "thinking", text: redact(block.thinking) });
    else if (block.type === "toolUse") {
      parts.push(callPart(block.name, block.input, redact));
      const child = children.get(block.id);
      if (child) parts.push({ kind: "subagent", parts: child.flatMap((e) => messageParts(e.message, e.timestamp, redact, children)) });
    }
    else if (block.type === "toolResult") parts.push({ kind: "result", text: redact(block.content), isError: block.isError === true });
  }
  if (message.role === "assistant" && isInterrupted(message)) parts.push({ kind: "interrupted" });
  return parts;
}

/** A tool call as a person reads it, as its tool shows it (the command to run, the edit as a diff, the file written); its input as JSON when the tool would not have run it. */
function callPart(name: string, input: string, redact: Redact): Part {
  const shown = shownCall(name, input);
  if (shown) return { kind: "call", name, summary: redact(shown.summary), body: redact(shown.body), language: shown.language };
  try {
    return { kind: "call", name, summary: "", body: redact(JSON.stringify(JSON.parse(input), null, 2)), language: "json" };
  } catch {
    return { kind: "call", name, summary: "", body: redact(input), language: "" };
  }
}
