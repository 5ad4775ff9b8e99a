// Anthropic Messages API requests, checked as the real service checks them:
// what it rejects, with its status codes, error types and error text.
// (The streamed answer is in anthropic-stream.ts.)

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Signer, randomId } from "./script";

export interface Problem {
  status: number;
  type: string;
  message: string;
}

const bad = (message: string): Problem => ({ status: 400, type: "invalid_request_error", message });

/** The error `type` the real API uses for each status. */
export function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
  };
  return types[status] ?? "api_error";
}

export function anthropicErrorBody(type: string, message: string): string {
  return JSON.stringify({ type: "error", error: { type, message }, request_id: "req_011C" + randomId(20) });
}

export function checkAnthropicAuth(headers: Headers, key: string): Problem | null {
  const given = headers.get("x-api-key");
  if (!given) return { status: 401, type: "authentication_error", message: "x-api-key header is required" };
  if (given !== key) return { status: 401, type: "authentication_error", message: "invalid x-api-key" };
  if (!headers.get("anthropic-version")) return bad("anthropic-version: header is required");
  return null;
}

/**
 * The `anthropic-beta` values the API knows: the literal members of the SDK's
 * AnthropicBeta type, read from its declaration so the list follows the SDK.
 */
const KNOWN_BETAS: ReadonlySet<string> = (() => {
  const declaration = readFileSync(join(import.meta.dir, "../../node_modules/@anthropic-ai/sdk/resources/beta/beta.d.ts"), "utf8");
  const union = /export type AnthropicBeta = ([^;]*);/.exec(declaration)?.[1] ?? "";
  return new Set([...union.matchAll(/'([^']+)'/g)].map((m) => m[1]!));
})();

export const INTERLEAVED_THINKING = "interleaved-thinking-2025-05-14";

/** The betas a request asks for, or the API's refusal of the ones it does not know. */
export function checkAnthropicBetas(headers: Headers): { betas: string[] } | Problem {
  const betas = (headers.get("anthropic-beta") ?? "").split(",").map((b) => b.trim()).filter(Boolean);
  const unknown = betas.filter((b) => !KNOWN_BETAS.has(b));
  if (unknown.length)
    return bad(`Unexpected value(s) ${unknown.map((b) => `\`${b}\``).join(", ")} for the \`anthropic-beta\` header. Please consult our documentation at docs.anthropic.com or try again without the header.`);
  return { betas };
}

/**
 * Whether the model thinks between tool calls: the extended-thinking docs
 * give interleaved thinking to the Claude 4 models, with the beta header; for
 * other models the direct API accepts the header to no effect.
 */
export function interleaved(model: string, betas: readonly string[]): boolean {
  return betas.includes(INTERLEAVED_THINKING) && /^claude-(opus|sonnet|haiku)-4(-|$)/.test(model);
}

const TOOL_ID = /^[a-zA-Z0-9_-]+$/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const THINKING_DOCS = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking";

// MessageCreateParams in the SDK, plus sampling fields older models still take.
const PARAMS = new Set(
  "cache_control container context_management diagnostics inference_geo max_tokens mcp_servers messages metadata model output_config service_tier speed stop_sequences stream system temperature thinking tool_choice tools top_k top_p user_profile_id workspace_id".split(" "),
);

interface Options {
  signer: Signer;
  knownModels?: string[];
  /** The `anthropic-beta` values the request carries. */
  betas?: string[];
}

/** Returns what the real API would reject in this body, or null. */
export function validateAnthropic(body: any, options: Options): Problem | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return bad("Input should be a valid dictionary");
  for (const key of Object.keys(body)) if (!PARAMS.has(key)) return bad(`${key}: Extra inputs are not permitted`);
  if (body.model === undefined) return bad("model: Field required");
  if (typeof body.model !== "string") return bad("model: Input should be a valid string");
  if (body.max_tokens === undefined) return bad("max_tokens: Field required");
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) return bad("max_tokens: Input should be greater than or equal to 1");
  if (body.messages === undefined) return bad("messages: Field required");
  if (!Array.isArray(body.messages)) return bad("messages: Input should be a valid list");
  if (body.system !== undefined && typeof body.system !== "string" && !Array.isArray(body.system))
    return bad("system: Input should be a valid string");
  const system = checkSystem(body.system);
  if (system) return system;
  const automatic = checkCacheControl(body.cache_control, "cache_control");
  if (automatic) return automatic;
  const thinking = checkThinkingParam(body, interleaved(body.model, options.betas ?? []));
  if (typeof thinking !== "boolean") return thinking;
  const tools = checkTools(body.tools);
  if (tools) return tools;
  if (options.knownModels && !options.knownModels.includes(body.model))
    return { status: 404, type: "not_found_error", message: `model: ${body.model}` };
  return checkMessages(body.messages, thinking, options.signer) ?? checkBreakpoints(body);
}

/** A `cache_control` value, wherever it sits (CacheControlEphemeral in the SDK: type "ephemeral", optional ttl). */
function checkCacheControl(value: unknown, at: string): Problem | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "object" || Array.isArray(value)) return bad(`${at}: Input should be a valid dictionary`);
  const c = value as { type?: unknown; ttl?: unknown };
  if (c.type === undefined) return bad(`${at}.type: Field required`);
  if (c.type !== "ephemeral") return bad(`${at}.type: Input should be 'ephemeral'`);
  if (c.ttl !== undefined && c.ttl !== "5m" && c.ttl !== "1h") return bad(`${at}.ttl: Input should be '5m' or '1h'`);
  return null;
}

/** `system` as a list: text blocks, each of which may carry cache_control. */
function checkSystem(system: unknown): Problem | null {
  if (!Array.isArray(system)) return null;
  for (const [i, block] of system.entries()) {
    const at = `system.${i}`;
    if (typeof block !== "object" || block === null) return bad(`${at}: Input should be a valid dictionary`);
    if (block.type !== "text") return bad(`${at}.type: Input should be 'text'`);
    if (typeof block.text !== "string") return bad(`${at}.text: Field required`);
    const cache = checkCacheControl(block.cache_control, `${at}.cache_control`);
    if (cache) return cache;
    if (block.cache_control && block.text === "") return bad(`${at}.text: cache_control cannot be set for empty text blocks`);
  }
  return null;
}

/** Every block carrying cache_control, in processing order: tools, system, messages (and blocks inside tool results). */
function breakpoints(body: any): { at: string; ttl: "5m" | "1h" }[] {
  const found: { at: string; ttl: "5m" | "1h" }[] = [];
  const visit = (block: any, at: string) => {
    if (block?.cache_control) found.push({ at, ttl: block.cache_control.ttl === "1h" ? "1h" : "5m" });
    if (block?.type === "tool_result" && Array.isArray(block.content)) block.content.forEach((inner: any, k: number) => visit(inner, `${at}.content.${k}`));
  };
  if (Array.isArray(body.tools)) body.tools.forEach((tool: any, i: number) => visit(tool, `tools.${i}`));
  if (Array.isArray(body.system)) body.system.forEach((block: any, i: number) => visit(block, `system.${i}`));
  body.messages.forEach((m: any, i: number) => {
    if (Array.isArray(m.content)) m.content.forEach((block: any, j: number) => visit(block, `messages.${i}.content.${j}`));
  });
  return found;
}

/** At most 4 breakpoints (top-level automatic caching takes one), and no 1-hour one after a 5-minute one. */
function checkBreakpoints(body: any): Problem | null {
  const found = breakpoints(body);
  const count = found.length + (body.cache_control ? 1 : 0);
  if (count > 4) return bad(`A maximum of 4 blocks with cache_control may be provided. Found ${count}.`);
  const firstShort = found.findIndex((b) => b.ttl === "5m");
  const late = firstShort < 0 ? undefined : found.slice(firstShort).find((b) => b.ttl === "1h");
  if (late)
    return bad(
      `${late.at}.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: \`tools\`, \`system\`, \`messages\`.`,
    );
  return null;
}

/**
 * Returns whether thinking with a budget is on, or the problem with the
 * parameter. With interleaved thinking the budget is for the whole turn and
 * may pass max_tokens (the extended-thinking docs). Adaptive thinking counts
 * as off here: the model may answer without thinking (at a low effort), so
 * the API cannot require a turn to open with it. Which model takes which form
 * is anthropic-thinking.ts's.
 */
function checkThinkingParam(body: any, interleavedThinking: boolean): boolean | Problem {
  const t = body.thinking;
  if (t === undefined || t === null) return false;
  if (t.type === "disabled") return false;
  if (t.type === "adaptive") return false;
  if (t.type !== "enabled")
    return bad(`thinking: Input tag '${t.type}' found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'`);
  if (t.budget_tokens === undefined) return bad("thinking.enabled.budget_tokens: Field required");
  if (!Number.isInteger(t.budget_tokens) || t.budget_tokens < 1024)
    return bad("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
  if (t.budget_tokens >= body.max_tokens && !interleavedThinking)
    return bad(`\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${THINKING_DOCS}#max-tokens-and-context-window-size`);
  return true;
}

function checkTools(tools: unknown): Problem | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return bad("tools: Input should be a valid list");
  const names = new Set<string>();
  for (const [i, tool] of tools.entries()) {
    if (tool?.type !== undefined && tool.type !== "custom") continue; // server tools: not awl's business
    if (typeof tool?.name !== "string") return bad(`tools.${i}.custom.name: Field required`);
    if (!TOOL_NAME.test(tool.name)) return bad(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
    if (names.has(tool.name)) return bad("tools: Tool names must be unique.");
    names.add(tool.name);
    if (tool.input_schema === undefined) return bad(`tools.${i}.custom.input_schema: Field required`);
    if (tool.input_schema?.type !== "object") return bad(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
    const cache = checkCacheControl(tool.cache_control, `tools.${i}.custom.cache_control`);
    if (cache) return cache;
  }
  return null;
}

type Block = { type: string; [key: string]: any };

function contentOf(message: any): Block[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

function checkMessages(messages: any[], thinking: boolean, signer: Signer): Problem | null {
  if (messages.length === 0) return bad("messages: at least one message is required");
  for (const [i, m] of messages.entries()) {
    const problem = checkMessage(m, i, i === messages.length - 1, signer);
    if (problem) return problem;
  }
  if (messages[0].role !== "user") return bad('messages: first message must use the "user" role');

  // Consecutive messages with the same role are merged into one turn by the
  // real API, so the pairing rules apply to turns, not to single messages.
  const turns = turnsOf(messages);

  const seenToolUse = new Set<string>();
  for (const [t, turn] of turns.entries()) {
    if (turn.role === "assistant") {
      const ids = turn.blocks.filter((b) => b.block.type === "tool_use").map((b) => b.block.id as string);
      for (const id of ids) {
        if (seenToolUse.has(id)) return bad(`messages.${turn.first}: \`tool_use\` ids must be unique`);
        seenToolUse.add(id);
      }
      if (ids.length === 0) continue;
      const next = turns[t + 1];
      const leading: string[] = [];
      for (const { block } of next?.blocks ?? []) {
        if (block.type !== "tool_result") break;
        leading.push(block.tool_use_id);
      }
      const allResults = new Set((next?.blocks ?? []).filter((b) => b.block.type === "tool_result").map((b) => b.block.tool_use_id));
      const missing = ids.filter((id) => !allResults.has(id));
      if (missing.length > 0)
        return bad(
          `messages.${turn.first}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      if (ids.some((id) => !leading.includes(id)))
        return bad(
          `messages.${next!.first}: Did not find ${ids.length} \`tool_result\` block(s) at the beginning of this message. Messages following \`tool_use\` blocks must begin with a matching number of \`tool_result\` blocks.`,
        );
    } else {
      const previous = turns[t - 1];
      const offered = new Set(previous?.blocks.filter((b) => b.block.type === "tool_use").map((b) => b.block.id));
      for (const { block, at } of turn.blocks) {
        if (block.type === "tool_result" && !offered.has(block.tool_use_id))
          return bad(
            `${at}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
      }
    }
  }

  // With thinking on, the final assistant turn must start with a thinking
  // block (the extended-thinking docs, "Toggling thinking modes in
  // conversations"). A tool loop is part of that one turn: it runs from the
  // person's latest prompt, through every assistant message that only tool
  // results follow. Without interleaved thinking the model thinks once, at
  // its start, so only the turn's first message is held to it.
  const start = finalTurnStart(turns);
  if (thinking && start !== undefined) {
    const opening = turns[start]!;
    const first = opening.blocks[0]!.block;
    if (first.type !== "thinking" && first.type !== "redacted_thinking")
      return bad(
        `messages.${opening.first}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${THINKING_DOCS}`,
      );
  }
  return null;
}

type Turn = { role: string; first: number; blocks: { block: Block; at: string }[] };

/** Consecutive messages of one role, as the API merges them. */
function turnsOf(messages: any[]): Turn[] {
  const turns: Turn[] = [];
  for (const [i, m] of messages.entries()) {
    const blocks = contentOf(m).map((block, j) => ({ block, at: `messages.${i}.content.${j}` }));
    const last = turns.at(-1);
    if (last && last.role === m.role) last.blocks.push(...blocks);
    else turns.push({ role: m.role, first: i, blocks });
  }
  return turns;
}

/**
 * The index of the turn that opens the assistant turn being continued, when
 * the request continues one (it ends in tool results); undefined when it
 * starts a new one.
 */
function finalTurnStart(turns: Turn[]): number | undefined {
  const last = turns.at(-1);
  if (last?.role !== "user" || !last.blocks.some((b) => b.block.type === "tool_result")) return undefined;
  let start = turns.length - 2;
  if (turns[start]?.role !== "assistant") return undefined;
  while (start >= 2 && turns[start - 2]!.role === "assistant" && turns[start - 1]!.blocks.every((b) => b.block.type === "tool_result")) start -= 2;
  return start;
}

/**
 * Whether this request continues a turn (it ends in tool results) and so,
 * without interleaved thinking, gets an answer without thinking: the model
 * thought once, at the start of the turn.
 */
export function continuesTurn(body: any): boolean {
  return Array.isArray(body?.messages) && finalTurnStart(turnsOf(body.messages)) !== undefined;
}

function checkMessage(m: any, i: number, isLast: boolean, signer: Signer): Problem | null {
  if (m?.role === undefined) return bad(`messages.${i}.role: Field required`);
  if (m.role !== "user" && m.role !== "assistant") return bad(`messages.${i}.role: Input should be 'user' or 'assistant'`);
  if (m.content === undefined) return bad(`messages.${i}.content: Field required`);
  if (typeof m.content !== "string" && !Array.isArray(m.content)) return bad(`messages.${i}.content: Input should be a valid list`);
  if (m.content.length === 0 && !(isLast && m.role === "assistant"))
    return bad(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
  if (typeof m.content === "string") return null;
  for (const [j, block] of (m.content as Block[]).entries()) {
    const at = `messages.${i}.content.${j}`;
    const problem = checkBlock(block, at, m.role, signer);
    if (problem) return problem;
  }
  return null;
}

const BLOCK_TYPES = new Set(["text", "image", "document", "thinking", "redacted_thinking", "tool_use", "tool_result"]);

function checkBlock(block: Block, at: string, role: string, signer: Signer): Problem | null {
  if (BLOCK_TYPES.has(block?.type)) {
    // ThinkingBlockParam and RedactedThinkingBlockParam have no cache_control field.
    if ((block.type === "thinking" || block.type === "redacted_thinking") && block.cache_control !== undefined)
      return bad(`${at}.${block.type}.cache_control: Extra inputs are not permitted`);
    const cache = checkCacheControl(block.cache_control, `${at}.${block.type}.cache_control`);
    if (cache) return cache;
  }
  switch (block?.type) {
    case "text":
      return checkText(block, at);
    case "image":
    case "document":
      return null;
    case "thinking":
    case "redacted_thinking":
      if (role !== "assistant") return bad(`${at}: \`${block.type}\` blocks are only allowed in \`assistant\` messages`);
      if (block.type === "redacted_thinking") {
        if (block.data === undefined) return bad(`${at}.redacted_thinking.data: Field required`);
        return signer.verifyRedacted(block.data) ? null : bad(`${at}: Invalid \`data\` in \`redacted_thinking\` block`);
      }
      if (typeof block.thinking !== "string") return bad(`${at}.thinking.thinking: Field required`);
      if (block.signature === undefined) return bad(`${at}.thinking.signature: Field required`);
      return signer.verify(block.thinking, block.signature) ? null : bad(`${at}: Invalid \`signature\` in \`thinking\` block`);
    case "tool_use":
      if (role !== "assistant") return bad(`${at}: \`tool_use\` blocks can only be in \`assistant\` messages`);
      if (typeof block.id !== "string") return bad(`${at}.tool_use.id: Field required`);
      if (!TOOL_ID.test(block.id)) return bad(`${at}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      if (block.id.length > 64) return bad(`${at}.tool_use.id: String should have at most 64 characters`);
      if (typeof block.name !== "string") return bad(`${at}.tool_use.name: Field required`);
      if (typeof block.input !== "object" || block.input === null || Array.isArray(block.input))
        return bad(`${at}.tool_use.input: Input should be a valid dictionary`);
      return null;
    case "tool_result":
      if (role !== "user") return bad(`${at}: \`tool_result\` blocks can only be in \`user\` messages`);
      if (typeof block.tool_use_id !== "string") return bad(`${at}.tool_result.tool_use_id: Field required`);
      if (!TOOL_ID.test(block.tool_use_id)) return bad(`${at}.tool_result.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      if (block.is_error !== undefined && typeof block.is_error !== "boolean") return bad(`${at}.tool_result.is_error: Input should be a valid boolean`);
      if (Array.isArray(block.content)) {
        for (const [k, inner] of (block.content as Block[]).entries()) {
          const cache = checkCacheControl(inner?.cache_control, `${at}.content.${k}.${inner?.type}.cache_control`);
          if (cache) return cache;
          if (inner?.type === "text") {
            const problem = checkText(inner, `${at}.content.${k}`);
            if (problem) return problem;
          }
        }
      } else if (block.content !== undefined && typeof block.content !== "string") {
        return bad(`${at}.tool_result.content: Input should be a valid list`);
      }
      return null;
    default:
      return bad(`${at}: Input tag '${block?.type}' found using 'type' does not match any of the expected tags`);
  }
}

function checkText(block: Block, at: string): Problem | null {
  if (typeof block.text !== "string") return bad(`${at}.text.text: Field required`);
  if (block.cache_control && block.text === "") return bad(`${at}.text: cache_control cannot be set for empty text blocks`);
  if (block.text === "") return bad("messages: text content blocks must be non-empty");
  if (block.text.trim() === "") return bad("messages: text content blocks must contain non-whitespace text");
  return null;
}
