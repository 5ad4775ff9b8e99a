// Conversation -> OpenAI Responses request body. Pure, like the other two
// wire files. The Responses API takes the conversation as a list of items:
// messages, function calls and their outputs, and reasoning. awl sends
// nothing it expects the server to have stored (`store: false`): every item
// goes in whole, reasoning as its encrypted content, and no item carries an
// id (an id the server did not store is refused: "Item with id 'rs_…' not
// found").

import type { EasyInputMessage, FunctionTool, ResponseCreateParamsStreaming, ResponseInputItem, ResponseReasoningItem } from "openai/resources/responses/responses";
import type { ContentBlock, Conversation, Message, ThinkingOrigin } from "../conversation";
import { repairHistory } from "./history";
import { ERROR_PREFIX, isReasoningModel, toolArguments } from "./openai-wire";
import { replayable } from "./origins";
import type { StreamRequest, ToolDefinition } from "./provider";
import { OPENAI_TOOL_ID_MAX } from "./tool-ids";

/** A reasoning item as sent back: the official schema marks `id` required, but under `store: false` the API takes it without one, as Codex sends it. */
export type ReasoningInput = Omit<ResponseReasoningItem, "id">;
export type WireItem = Exclude<ResponseInputItem, ResponseReasoningItem> | ReasoningInput;
export type ResponsesBody = Omit<ResponseCreateParamsStreaming, "input"> & { input: WireItem[] };

export interface WireOptions {
  /** This API and key: only reasoning they issued goes back. */
  origin: ThinkingOrigin;
  /** Send reasoning items back at all (not after the API refused them). */
  reasoning: boolean;
}

/** What the API said a model does not take, learnt from its refusals (see responses.ts). */
export interface ModelLimits {
  /** Models that turned out not to reason: no reasoning parameters, nothing encrypted to include. */
  notReasoning: Set<string>;
  /** Models that refused `max_output_tokens`. */
  noMaxOutputTokens: Set<string>;
}

export const noLimits = (): ModelLimits => ({ notReasoning: new Set(), noMaxOutputTokens: new Set() });

/**
 * The `input` items for `model`, in the order the conversation holds them: an assistant
 * message's blocks become one item each in their original order, so a
 * reasoning item stays directly before the item that followed it.
 */
export function toWire(conversation: Conversation, options: WireOptions, model: string): WireItem[] {
  // Reasoning goes back only to the model that made it, when it reasons, as encrypted content this API and key issued.
  const messages = repairHistory(conversation.messages, {
    keepThinking: (block, message) => options.reasoning && message.model === model && replayable(block, options.origin, false),
    maxToolIdLength: OPENAI_TOOL_ID_MAX,
  });
  const out: WireItem[] = [];
  for (const message of messages) {
    if (message.role !== "assistant") {
      userItems(message, out);
      continue;
    }
    // A reasoning item goes back only with the item it led to: one that ends
    // a response (cut off while reasoning) is refused as "provided without its
    // required following item".
    const last = message.content.findLastIndex((block) => block.type !== "thinking");
    message.content.forEach((block, i) => i <= last && out.push(assistantItem(block)));
  }
  return out;
}

function assistantItem(block: ContentBlock): WireItem {
  switch (block.type) {
    case "thinking":
      return {
        type: "reasoning",
        summary: block.thinking ? [{ type: "summary_text", text: block.thinking }] : [],
        encrypted_content: block.signature ?? null,
      };
    case "toolUse":
      return { type: "function_call", call_id: block.id, name: block.name, arguments: toolArguments(block.input) };
    default: {
      // repairHistory leaves text, thinking and toolUse in an assistant message.
      const text = block.type === "text" ? block.text : "";
      const item: EasyInputMessage = { type: "message", role: "assistant", content: text };
      if (block.type === "text" && (block.phase === "commentary" || block.phase === "final_answer")) item.phase = block.phase;
      return item;
    }
  }
}

function userItems(message: Message, out: WireItem[]): void {
  for (const block of message.content) {
    if (block.type !== "toolResult") continue;
    out.push({ type: "function_call_output", call_id: block.toolUseId, output: block.isError ? `${ERROR_PREFIX}${block.content}` : block.content });
  }
  const text = message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n\n");
  if (text) out.push({ type: "message", role: "user", content: text });
}

/** Function tools, not strict: awl's schemas have optional fields, which strict mode refuses. */
export function toolsToWire(tools: readonly ToolDefinition[]): FunctionTool[] {
  return tools.map((t) => ({ type: "function", name: t.name, description: t.description, parameters: t.inputSchema, strict: false }));
}

/**
 * The whole request body. A reasoning model (by awl's table, unless the API
 * said otherwise) gets its encrypted reasoning included in the answer (to be
 * sent back next time) and, with thinking on, readable summaries of it;
 * `reasoning.effort` is the person's choice (--effort; --thinking is high). The
 * session id is the cache key, so every request of a session lands on the
 * same cached prefix.
 */
export function requestBody(request: StreamRequest, options: WireOptions, limits: ModelLimits = noLimits()): ResponsesBody {
  const reasons = isReasoningModel(request.model) && !limits.notReasoning.has(request.model);
  const body: ResponsesBody = {
    model: request.model,
    input: toWire(request.conversation, { ...options, reasoning: options.reasoning && reasons }, request.model),
    stream: true,
    store: false,
  };
  if (!limits.noMaxOutputTokens.has(request.model)) body.max_output_tokens = request.maxTokens;
  if (request.system) body.instructions = request.system;
  if (request.tools.length) body.tools = toolsToWire(request.tools);
  if (request.sessionId) body.prompt_cache_key = request.sessionId;
  if (reasons) {
    body.include = ["reasoning.encrypted_content"];
    const effort = request.thinking?.level;
    const thinks = request.thinking !== undefined && request.thinking.form !== "off";
    const reasoning: NonNullable<ResponsesBody["reasoning"]> = {};
    if (effort) reasoning.effort = effort as NonNullable<typeof reasoning.effort>;
    if (thinks) reasoning.summary = "auto";
    if (effort || thinks) body.reasoning = reasoning;
  }
  return body;
}
