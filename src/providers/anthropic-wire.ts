// Conversation -> Anthropic Messages request body. Pure: the same conversation
// always gives the same bytes, and the conversation is never modified.

import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { ContentBlock, Conversation } from "../conversation";
import { repairHistory } from "./history";
import type { StreamRequest, ToolDefinition } from "./provider";
import { ANTHROPIC_TOOL_ID_MAX } from "./tool-ids";

/** Anthropic refuses a thinking budget under 1024 tokens, and it must stay below max_tokens. */
const MIN_THINKING_BUDGET = 1024;

/**
 * The `messages` array. Thinking goes back only when it carries a signature
 * (only Anthropic signs thinking, so a signed block came from Anthropic and
 * is returned byte-identical); unsigned or foreign thinking is dropped.
 */
export function toWire(conversation: Conversation): MessageParam[] {
  const messages = repairHistory(conversation.messages, {
    keepThinking: (block) => !!block.signature,
    maxToolIdLength: ANTHROPIC_TOOL_ID_MAX,
  });
  return messages.map((message) => ({
    role: message.role as "user" | "assistant",
    content: message.content.map(toBlockParam),
  }));
}

function toBlockParam(block: ContentBlock): ContentBlockParam {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "thinking":
      return block.redacted
        ? { type: "redacted_thinking", data: block.signature ?? "" }
        : { type: "thinking", thinking: block.thinking, signature: block.signature ?? "" };
    case "toolUse":
      return { type: "tool_use", id: block.id, name: block.name, input: toolInput(block.input) };
    case "toolResult":
      return {
        type: "tool_result",
        tool_use_id: block.toolUseId,
        // The API refuses an empty error result; say there was nothing.
        content: block.content === "" ? "(no output)" : block.content,
        ...(block.isError ? { is_error: true } : {}),
      };
  }
}

/**
 * Anthropic wants the call's input as an object. The log keeps the raw text
 * the model produced; when that is not a JSON object (a cut-off stream, a
 * model mistake) it goes back wrapped, so the model can see its own mistake
 * next to the error result its tool call got.
 */
export function toolInput(raw: string): Record<string, unknown> {
  if (raw.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // falls through to the wrapped form
  }
  return { invalid_json_input: raw };
}

export function toolsToWire(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as Tool["input_schema"] }));
}

/** The whole request body. */
export function requestBody(request: StreamRequest): MessageCreateParamsStreaming {
  const messages = toWire(request.conversation);
  const body: MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxTokens,
    stream: true,
    messages,
  };
  if (request.system) body.system = request.system;
  if (request.tools.length) body.tools = toolsToWire(request.tools);
  if (request.thinking && canThink(messages, request.maxTokens)) {
    const budget = Math.max(MIN_THINKING_BUDGET, Math.floor(request.maxTokens / 2));
    body.thinking = { type: "enabled", budget_tokens: budget };
  }
  return body;
}

/**
 * With thinking on, Anthropic requires the assistant turn being continued by
 * tool results to start with a thinking block. After a switch from another
 * provider (or thinking turned on mid-loop) it does not, and the request
 * would be refused: that one request goes without thinking instead.
 */
function canThink(messages: MessageParam[], maxTokens: number): boolean {
  if (maxTokens <= MIN_THINKING_BUDGET) return false;
  const last = messages.at(-1);
  const previous = messages.at(-2);
  const continuesTools =
    last?.role === "user" && Array.isArray(last.content) && last.content.some((b) => b.type === "tool_result");
  if (!continuesTools || previous?.role !== "assistant" || !Array.isArray(previous.content)) return true;
  const first = previous.content[0]?.type;
  return first === "thinking" || first === "redacted_thinking";
}
