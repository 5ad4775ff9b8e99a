// Thinking sent back to a model that binds it to its prefix ("preserved
// thinking"): such a model refuses a replayed thinking block when anything
// before it changed since it was made: the system prompt, the tools, or the
// messages (a compaction replaces them with a summary). So each assistant
// message remembers the hash of the system prompt and tools it was made
// under, a compaction forgets it for what it keeps, and only thinking whose
// hash still matches goes back. The rest is dropped, which those models allow:
// a tool loop in flight carries on without its earlier thinking.

import { createHash } from "node:crypto";
import type { Message } from "../conversation";
import type { ToolDefinition } from "../providers/provider";

/** A short hash of what comes before every message: the system prompt and the tool definitions. */
export function prefixHash(system: string, tools: readonly ToolDefinition[]): string {
  return createHash("sha256").update(system).update("\0").update(JSON.stringify(tools)).digest("hex").slice(0, 12);
}

/** `messages` with the thinking left out of every assistant message not made under `hash`. */
export function replayable(messages: readonly Message[], hash: string): Message[] {
  return messages.map((message) => {
    if (message.role !== "assistant" || message.prefixHash === hash || !message.content.some((b) => b.type === "thinking")) return message;
    return { role: message.role, content: message.content.filter((b) => b.type !== "thinking") };
  });
}
