// Conversation -> Anthropic Messages request body. Pure: the same conversation
// always gives the same bytes, and the conversation is never modified.

import type {
  CacheControlEphemeral,
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  OutputConfig,
  Tool,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { ContentBlock, Conversation, ThinkingOrigin } from "../conversation";
import { repairHistory, toolInputObject } from "./history";
import { replayable } from "./origins";
import type { StreamRequest, ToolDefinition } from "./provider";
import type { ThinkingRequest } from "./thinking-plan";
import { ANTHROPIC_TOOL_ID_MAX } from "./tool-ids";

/**
 * The `messages` array. Thinking goes back, byte-identical, only when it is
 * signed by this API for this key (`origin`, see origins.ts); a signed block
 * written before origins were recorded came from Anthropic (only Anthropic
 * signed thinking then) and goes back too. Unsigned or foreign thinking
 * (another key's, OpenAI's encrypted reasoning) is dropped.
 */
export function toWire(conversation: Conversation, origin: ThinkingOrigin): MessageParam[] {
  const messages = repairHistory(conversation.messages, {
    keepThinking: (block) => replayable(block, origin, true),
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

/** Anthropic wants the call's input as an object: see toolInputObject. */
export function toolInput(raw: string): Record<string, unknown> {
  return toolInputObject(raw);
}

export function toolsToWire(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as Tool["input_schema"] }));
}

/** The whole request body. */
export function requestBody(request: StreamRequest, origin: ThinkingOrigin): MessageCreateParamsStreaming {
  const messages = toWire(request.conversation, origin);
  const body: MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxTokens,
    stream: true,
    messages,
  };
  if (request.system) body.system = request.system;
  if (request.tools.length) body.tools = toolsToWire(request.tools);
  Object.assign(body, thinkingFields(request.thinking, messages));
  return markCacheBreakpoints(body);
}

/** The `thinking` and `output_config` fields of a request, as the turn's plan asks. */
function thinkingFields(thinking: ThinkingRequest | undefined, messages: MessageParam[]): Partial<MessageCreateParamsStreaming> {
  switch (thinking?.form) {
    case undefined:
    case "level":
      return {};
    case "off":
      return { thinking: { type: "disabled" } };
    case "adaptive":
      return { thinking: { type: "adaptive", ...(thinking.display ? { display: thinking.display } : {}) }, ...effortField(thinking.level) };
    case "budget":
      // A budget needs the loop's first message to open with thinking; when it does not, this request goes without.
      if (!canThink(messages)) return effortField(thinking.level);
      return { thinking: { type: "enabled", budget_tokens: thinking.budget }, ...effortField(thinking.level) };
  }
}

/** The level as `output_config.effort` (a level the model lists, or one nobody knows it refuses: the API then says). */
function effortField(level: string | undefined): Partial<MessageCreateParamsStreaming> {
  return level ? { output_config: { effort: level as OutputConfig["effort"] } } : {};
}

/*
 * Prompt caching, per Anthropic's prompt-caching docs. The prompt is read as
 * tools, then system, then messages; a `cache_control` breakpoint on a block
 * caches the prefix up to and including it (5 minutes, refreshed on each
 * hit). A request may carry at most 4 breakpoints. For a read, the API looks
 * for an earlier cached prefix at the breakpoint and up to about 20 blocks
 * before it, so a breakpoint should sit where the previous request wrote one.
 * Prefixes below the model's minimum are simply not cached (no error): 1024
 * tokens for Sonnet 4.5/4, Opus 4.1/4 and Sonnet 3.7 (Sonnet 4.6: 1024 in the
 * docs, 2048 in practice); 2048 for Haiku 3.5/3; 4096 for Opus 4.5/4.6 and
 * Haiku 4.5. The API
 * refuses `cache_control` on thinking and redacted_thinking blocks (they are
 * cached as part of the prefix all the same) and on empty text blocks.
 *
 * awl marks: (a) the last tool, (b) the system prompt, (c) the last block of
 * the last message, which writes this request's prefix, and (d) the last block
 * of the last user message before the latest assistant message: where the
 * previous request's (c) was, so inside a tool loop and from one prompt to the
 * next that written prefix is read back and the markers move along with it.
 */

const EPHEMERAL: CacheControlEphemeral = { type: "ephemeral" };
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * The body with its cache breakpoints marked, as a pure function of the body:
 * a new body that shares every unmarked part with the one given and changes
 * none of it. A breakpoint that would land on a block the API refuses it on,
 * or on a block already marked, is left out.
 */
export function markCacheBreakpoints(body: MessageCreateParamsStreaming): MessageCreateParamsStreaming {
  const out: MessageCreateParamsStreaming = { ...body };
  if (body.tools?.length) out.tools = markLast(body.tools);
  const system = typeof body.system === "string" ? [{ type: "text" as const, text: body.system }] : body.system;
  if (cacheable(system?.at(-1))) out.system = markLast(system!);

  const messages = body.messages;
  const last = messages.length - 1;
  let latestAssistant = last;
  while (latestAssistant >= 0 && messages[latestAssistant]!.role !== "assistant") latestAssistant--;
  let previousUser = latestAssistant - 1;
  while (previousUser >= 0 && messages[previousUser]!.role !== "user") previousUser--;
  const marked = new Set([last, previousUser].filter((i) => i >= 0 && cacheable(lastBlock(messages[i]!))));
  if (marked.size) {
    out.messages = messages.map((message, i) =>
      marked.has(i) ? ({ ...message, content: markLast(contentBlocks(message.content)) } as MessageParam) : message,
    );
  }
  return out;
}

function contentBlocks(content: MessageParam["content"]): ContentBlockParam[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

function lastBlock(message: MessageParam): ContentBlockParam | undefined {
  return contentBlocks(message.content).at(-1);
}

/** Whether the API accepts `cache_control` on this block. */
function cacheable(block: ContentBlockParam | undefined): boolean {
  if (!block || block.type === "thinking" || block.type === "redacted_thinking") return false;
  return block.type !== "text" || block.text !== "";
}

/** A copy of `blocks` whose last block (copied too) carries the marker. */
function markLast<T extends object>(blocks: readonly T[]): T[] {
  return [...blocks.slice(0, -1), { ...blocks.at(-1)!, cache_control: EPHEMERAL }];
}

/**
 * With thinking on, Anthropic's docs require the final assistant turn to
 * start with a thinking block, and a tool loop is one turn: the assistant
 * messages from the person's latest prompt on, with only tool results
 * between them. Without interleaved thinking the model thinks once, at the
 * start of the turn, so the later messages of the loop start with a tool call
 * and only the turn's FIRST message decides. When even that one has no
 * thinking (a switch from another provider mid-loop, or thinking turned on
 * mid-loop), the request would be refused: that request goes without
 * thinking instead, and the next prompt thinks again.
 */
function canThink(messages: MessageParam[]): boolean {
  const last = messages.length - 1;
  if (!hasToolResults(messages[last])) return true; // a new turn starts: nothing to continue
  let first = last - 1;
  while (first >= 2 && messages[first - 2]?.role === "assistant" && onlyToolResults(messages[first - 1])) first -= 2;
  const opening = messages[first];
  if (opening?.role !== "assistant" || !Array.isArray(opening.content)) return true;
  const type = opening.content[0]?.type;
  return type === "thinking" || type === "redacted_thinking";
}

function hasToolResults(message: MessageParam | undefined): boolean {
  return message?.role === "user" && Array.isArray(message.content) && message.content.some((b) => b.type === "tool_result");
}

/** A user message that only answers tool calls: the agent's, inside a tool loop (a prompt carries text). */
function onlyToolResults(message: MessageParam | undefined): boolean {
  return hasToolResults(message) && (message!.content as ContentBlockParam[]).every((b) => b.type === "tool_result");
}

export const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";

/**
 * Whether to send INTERLEAVED_THINKING_BETA: with it, Claude 4 models think
 * between tool calls, not only at the start of the turn (Anthropic's
 * extended-thinking docs). The direct API ignores the header for other
 * models, but Bedrock and Vertex refuse it, so it goes only to the Claude 4
 * family (ids as the API and Vertex spell them), and only with thinking on.
 */
export function interleavesThinking(model: string): boolean {
  return /^claude-(opus|sonnet|haiku)-4(?:[-@.]|$)/.test(model.trim().toLowerCase());
}
