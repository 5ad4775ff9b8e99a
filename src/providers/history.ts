// The provider-neutral half of "conversation -> wire" (docs/architecture.md, "A turn"): repairs any
// recorded history into a shape both APIs accept, without touching the log.
// Real logs hold empty assistant messages left by errors, unanswered tool
// calls in the middle, two user messages in a row, results whose call is
// gone. Each provider's toWire runs this, then only translates block shapes.

import type { ContentBlock, Message, ToolResultBlock, ToolUseBlock } from "../conversation";
import { normalizeToolId } from "./tool-ids";

/** What a tool call that never got a result is answered with. */
export const NOT_RUN_RESULT = "Interrupted: this tool call was not run.";

export interface HistoryOptions {
  /** Whether a thinking block may be sent back to this provider. */
  keepThinking: (block: Extract<ContentBlock, { type: "thinking" }>, message: Message) => boolean;
  /** The provider's tool id length limit. */
  maxToolIdLength: number;
}

/**
 * A repaired copy of `messages`: strictly alternating user/assistant, starting
 * with user; every assistant tool call answered, results first, in call order,
 * in the very next user message; no blank text, no system messages, no
 * assistant message without sendable content. Blocks are shared, not copied,
 * except where an id had to change.
 */
export function repairHistory(messages: readonly Message[], options: HistoryOptions): Message[] {
  const out: Message[] = [];
  let pending: ToolUseBlock[] = [];
  let results = new Map<string, ToolResultBlock>();
  let rest: ContentBlock[] = [];

  // Ends a run of user messages: answers to the pending calls first, then what the person said.
  const closeUserRun = (): void => {
    const answers = pending.map((use) => results.get(use.id) ?? notRun(use.id));
    const content = [...answers, ...rest];
    if (content.length) out.push({ role: "user", content });
    pending = [];
    results = new Map();
    rest = [];
  };

  for (const message of messages) {
    if (message.role === "system") continue;
    if (message.role === "user") {
      for (const block of message.content) {
        if (block.type === "toolResult") {
          const id = normalizeToolId(block.toolUseId, options.maxToolIdLength);
          // A result for no pending call (or a duplicate) cannot be sent: the APIs reject it.
          if (pending.some((u) => u.id === id) && !results.has(id)) results.set(id, withResultId(block, id));
        } else if (block.type === "text" && hasText(block.text)) {
          rest.push(block);
        }
      }
      continue;
    }
    const content = assistantContent(message, options);
    if (!content.length) continue;
    const hadUserRun = pending.length > 0 || rest.length > 0;
    closeUserRun();
    const previous = out.at(-1);
    if (!previous) continue; // an assistant cannot open the conversation; its calls go with it
    if (!hadUserRun && previous.role === "assistant") previous.content = [...previous.content, ...content];
    else out.push({ role: "assistant", content });
    pending = content.filter((b): b is ToolUseBlock => b.type === "toolUse");
  }
  closeUserRun();
  return out;
}

/** The blocks of an assistant message this provider can take back, ids normalised. */
function assistantContent(message: Message, options: HistoryOptions): ContentBlock[] {
  const out: ContentBlock[] = [];
  const seen = new Set<string>();
  for (const block of message.content) {
    if (block.type === "text") {
      if (hasText(block.text)) out.push(block);
    } else if (block.type === "thinking") {
      if (options.keepThinking(block, message)) out.push(block);
    } else if (block.type === "toolUse") {
      const id = normalizeToolId(block.id, options.maxToolIdLength);
      if (seen.has(id)) continue; // the APIs reject duplicate ids in one message
      seen.add(id);
      out.push(id === block.id ? block : { ...block, id });
    }
    // toolResult blocks in an assistant message are malformed history: dropped.
  }
  return out;
}

/** Anthropic refuses empty and whitespace-only text blocks (models emit "\n\n" before tool calls). */
function hasText(text: string): boolean {
  return text.trim() !== "";
}

function withResultId(block: ToolResultBlock, id: string): ToolResultBlock {
  return id === block.toolUseId ? block : { ...block, toolUseId: id };
}

function notRun(toolUseId: string): ToolResultBlock {
  return { type: "toolResult", toolUseId, content: NOT_RUN_RESULT, isError: true };
}

/**
 * A tool call's input as a JSON object, whatever the log holds. The log keeps
 * the raw text the model produced; when that is not a JSON object (cut off by
 * the output limit, or a model's mistake) it is sent back wrapped, as
 * `{"invalid_json_input": raw}`: both APIs refuse input that is not an object
 * (OpenAI refuses arguments that are not JSON), and every later request of
 * the session would be refused with it. The model still sees its own mistake,
 * next to the error result its call got. Nothing empty: `{}`.
 */
export function toolInputObject(raw: string): Record<string, unknown> {
  if (raw.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // falls through to the wrapped form
  }
  return { invalid_json_input: raw };
}
