// Builds the in-memory assistant Message from stream events, for the agent.
// Kept beside the providers because it is the other half of their contract:
// what an event means for the message being built.

import { appendToBlock, type Message } from "../conversation";
import type { StreamEvent } from "./provider";
import { isJson } from "../json";

/** Applies one event; a `retry` that restarts the answer empties it; `notice`, `end` and other retries carry nothing for the message. */
export function applyStreamEvent(message: Message, event: StreamEvent): void {
  switch (event.type) {
    case "blockStart":
      // A copy: the event may be shown or kept elsewhere, the message's block grows.
      message.content[event.index] = { ...event.block };
      return;
    case "delta": {
      const block = message.content[event.index];
      if (block) appendToBlock(block, event.text);
      return;
    }
    case "signature": {
      const block = message.content[event.index];
      if (block?.type === "thinking") {
        block.signature = event.signature;
        block.origin = event.origin;
      }
      return;
    }
    case "retry":
      // The answer starts again: what arrived of it is dropped (none of its tools has run).
      if (event.restart) message.content = [];
      return;
    default:
      return;
  }
}

/**
 * Makes the message ready to keep: no holes left by skipped indexes, and a
 * tool call with no input gets `{}`. With `dropIncompleteToolUses` (the
 * stream failed or was interrupted) tool calls whose input is not
 * complete JSON are removed: they were never going to run.
 */
export function finalizeMessage(message: Message, options: { dropIncompleteToolUses?: boolean } = {}): Message {
  message.content = message.content.filter((block) => {
    if (!block) return false;
    if (block.type !== "toolUse") return true;
    if (options.dropIncompleteToolUses && !isJson(block.input)) return false;
    if (block.input.trim() === "") block.input = "{}";
    return true;
  });
  return message;
}
