import type { ContentBlock, ToolResultBlock, ToolUseBlock } from "./content";

export type Role = "system" | "user" | "assistant";

export interface Message {
  role: Role;
  content: ContentBlock[];
  /**
   * An assistant message's: the hash of the system prompt and tools its
   * thinking was made under, absent when unknown or when a compaction has
   * since changed what came before it. Never sent; models that bind thinking
   * to its prefix get the thinking back only while it matches.
   */
  prefixHash?: string;
  /**
   * An assistant message's: the model that made it. Never sent; a protocol
   * that seals reasoning to its model sends it back only to that model
   * (providers/responses-wire.ts).
   */
  model?: string;
}

export const textMessage = (role: Role, text: string): Message => ({
  role,
  content: [{ type: "text", text }],
});

export const toolUses = (message: Message): ToolUseBlock[] =>
  message.content.filter((b): b is ToolUseBlock => b.type === "toolUse");

export const toolResults = (message: Message): ToolResultBlock[] =>
  message.content.filter((b): b is ToolResultBlock => b.type === "toolResult");

/** The concatenated text blocks of a message (thinking and tools excluded). */
export const messageText = (message: Message): string =>
  message.content.map((b) => (b.type === "text" ? b.text : "")).join("");

/**
 * Whether an answer kept anything the model is sent back: text, or a call. One
 * that failed with nothing of it kept is left out of the next request, and its
 * prompt waits for an answer still.
 */
export const keptAnything = (content: readonly ContentBlock[]): boolean =>
  content.some((b) => b.type === "toolUse" || (b.type === "text" && b.text.trim() !== ""));
