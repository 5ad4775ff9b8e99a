// Conversation -> OpenAI Chat Completions request body. Pure, like
// anthropic-wire.ts. Chat Completions has no way to send reasoning back, so
// thinking is dropped; tool results become `tool` messages placed right after
// the assistant message that made the calls, before the person's text.

import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions/completions";
import type { Conversation, Message } from "../conversation";
import { repairHistory, toolInputObject } from "./history";
import type { StreamRequest, ToolDefinition } from "./provider";
import { OPENAI_TOOL_ID_MAX } from "./tool-ids";

/** Prefix of an error result: Chat Completions has no is_error flag. */
export const ERROR_PREFIX = "Error: ";

export function toWire(system: string, conversation: Conversation): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (system) out.push({ role: "system", content: system });
  const messages = repairHistory(conversation.messages, { keepThinking: () => false, maxToolIdLength: OPENAI_TOOL_ID_MAX });
  for (const message of messages) {
    if (message.role === "assistant") out.push(assistantMessage(message));
    else userMessages(message, out);
  }
  return out;
}

function assistantMessage(message: Message): ChatCompletionAssistantMessageParam {
  const text = joinText(message);
  const calls = message.content.flatMap((b) =>
    b.type === "toolUse"
      ? [{ id: b.id, type: "function" as const, function: { name: b.name, arguments: toolArguments(b.input) } }]
      : [],
  );
  // content may be null only when there are tool calls.
  const wire: ChatCompletionAssistantMessageParam = { role: "assistant", content: text || (calls.length ? null : "") };
  if (calls.length) wire.tool_calls = calls;
  return wire;
}

/**
 * `arguments` as it is replayed: the model's own text, byte for byte, when it
 * is a JSON object; anything else (cut off by `length`, not JSON at all, JSON
 * that is not an object, from this API or another) as the wrapped object of
 * toolInputObject. OpenAI refuses arguments that are not JSON, so one bad call
 * in the log would fail every later request of the session.
 */
export function toolArguments(raw: string): string {
  const input = toolInputObject(raw);
  return "invalid_json_input" in input || raw.trim() === "" ? JSON.stringify(input) : raw;
}

function userMessages(message: Message, out: ChatCompletionMessageParam[]): void {
  for (const block of message.content) {
    if (block.type !== "toolResult") continue;
    const content = block.isError ? `${ERROR_PREFIX}${block.content}` : block.content;
    out.push({ role: "tool", tool_call_id: block.toolUseId, content });
  }
  const text = joinText(message);
  if (text) out.push({ role: "user", content: text });
}

/**
 * Text blocks as one string: plain string content is what every compatible
 * server understands (several reject the array-of-parts form).
 */
function joinText(message: Message): string {
  return message.content
    .flatMap((b) => (b.type === "text" ? [b.text] : []))
    .join("\n\n");
}

export function toolsToWire(tools: readonly ToolDefinition[]): ChatCompletionTool[] {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
}

/** Models that accept `reasoning_effort`; OpenAI refuses the field for the others (gpt-4o, gpt-4.1, and gpt-5-chat-latest, the chat model of gpt-5's family). */
export function isReasoningModel(model: string): boolean {
  return /^(o\d|gpt-5(?!-chat))/.test(model.replace(/^openai\//, ""));
}

/**
 * The whole request body. `max_completion_tokens`, not the deprecated
 * `max_tokens`: OpenAI refuses `max_tokens` for reasoning models (o-series,
 * gpt-5), while vLLM, llama.cpp, LM Studio and OpenRouter accept the new name
 * and a server that does not know it merely ignores the cap.
 * The effort goes as `reasoning_effort` to reasoning models only; for others
 * the request is sent without it rather than refused.
 */
export function requestBody(request: StreamRequest): ChatCompletionCreateParamsStreaming {
  const body: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: toWire(request.system, request.conversation),
    stream: true,
    stream_options: { include_usage: true },
    max_completion_tokens: request.maxTokens,
  };
  if (request.tools.length) body.tools = toolsToWire(request.tools);
  if (request.thinking?.form === "level" && isReasoningModel(request.model)) body.reasoning_effort = request.thinking.level as ChatCompletionCreateParamsStreaming["reasoning_effort"];
  return body;
}
