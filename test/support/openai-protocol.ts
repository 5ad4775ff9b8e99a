// OpenAI Chat Completions, as the real service speaks it: its request checks
// (status, message, param, code) and the `data:` chunks of a streamed answer
// ending in `data: [DONE]`. The SDK's types keep the chunk shape honest.

import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import { type Reply, type TokenUsage, blocksOf, inputJson, pieces, randomId, stopOf } from "./script";

export interface OpenAIProblem {
  status: number;
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

const bad = (message: string, param: string | null = null, code: string | null = null): OpenAIProblem => ({
  status: 400,
  message,
  type: "invalid_request_error",
  param,
  code,
});

export function openaiErrorBody(p: Omit<OpenAIProblem, "status">): string {
  return JSON.stringify({ error: { message: p.message, type: p.type, param: p.param, code: p.code } });
}

/** Defaults for an injected HTTP fault, per status, as the real API words them. */
export function openaiFault(status: number, code?: string, message?: string): Omit<OpenAIProblem, "status"> {
  if (status === 429 && code === "insufficient_quota")
    return {
      message: message ?? "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
      type: "insufficient_quota",
      param: null,
      code,
    };
  if (status === 429)
    return { message: message ?? "Rate limit reached for requests. Please try again in 1s.", type: "requests", param: null, code: code ?? "rate_limit_exceeded" };
  if (status === 401) return { message: message ?? "Incorrect API key provided.", type: "invalid_request_error", param: null, code: code ?? "invalid_api_key" };
  if (status === 404) return { message: message ?? "The model does not exist or you do not have access to it.", type: "invalid_request_error", param: null, code: code ?? "model_not_found" };
  if (status === 400 && code === "context_length_exceeded")
    return {
      message: message ?? "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.",
      type: "invalid_request_error",
      param: "messages",
      code,
    };
  if (status < 500) return { message: message ?? "Bad request.", type: "invalid_request_error", param: null, code: code ?? null };
  return { message: message ?? "The server had an error while processing your request. Sorry about that!", type: "server_error", param: null, code: code ?? null };
}

/** What OpenAI sends part-way through a stream when it fails: an error object as a data line. */
export const OPENAI_MIDSTREAM_ERROR = `data: ${JSON.stringify({ error: { message: "The server is overloaded or not ready yet.", type: "server_error", param: null, code: null } })}\n\n`;

/** Masks a key the way the real error message does, never echoing all of it. */
function mask(key: string): string {
  return key.length <= 8 ? "*".repeat(key.length) : key.slice(0, 3) + "*".repeat(key.length - 7) + key.slice(-4);
}

export function checkOpenAIAuth(headers: Headers, key: string): OpenAIProblem | null {
  const header = headers.get("authorization");
  const given = header?.match(/^Bearer (.*)$/)?.[1];
  if (!given)
    return {
      status: 401,
      message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
      type: "invalid_request_error",
      param: null,
      code: null,
    };
  if (given !== key)
    return {
      status: 401,
      message: `Incorrect API key provided: ${mask(given)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      type: "invalid_request_error",
      param: null,
      code: "invalid_api_key",
    };
  return null;
}

// ChatCompletionCreateParams in the SDK.
const PARAMS = new Set(
  "audio frequency_penalty function_call functions logit_bias logprobs max_completion_tokens max_tokens messages metadata modalities model moderation n parallel_tool_calls prediction presence_penalty prompt_cache_key prompt_cache_options prompt_cache_retention reasoning_effort response_format safety_identifier seed service_tier stop store stream stream_options temperature tool_choice tools top_logprobs top_p user verbosity web_search_options".split(" "),
);
const ROLES = ["system", "assistant", "user", "function", "tool", "developer"];
const TOOL_NAME = /^[a-zA-Z0-9_-]+$/;

export function validateOpenAI(body: any, knownModels?: string[]): OpenAIProblem | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return bad("We could not parse the JSON body of your request.");
  for (const key of Object.keys(body)) if (!PARAMS.has(key)) return bad(`Unrecognized request argument supplied: ${key}`);
  if (!body.model) return bad("you must provide a model parameter");
  if (body.messages === undefined) return bad("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
  if (!Array.isArray(body.messages)) return bad("Invalid type for 'messages': expected an array, but got an object instead.", "messages", "invalid_type");
  if (body.messages.length === 0) return bad("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", "messages", "empty_array");
  if (body.stream_options != null && body.stream !== true)
    return bad("The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options");
  const tools = checkTools(body.tools);
  if (tools) return tools;
  const effort = checkReasoningEffort(body.model, body.reasoning_effort);
  if (effort) return effort;
  const messages = checkMessages(body.messages);
  if (messages) return messages;
  if (knownModels && !knownModels.includes(body.model))
    return { status: 404, message: `The model \`${body.model}\` does not exist or you do not have access to it.`, type: "invalid_request_error", param: null, code: "model_not_found" };
  return null;
}

/**
 * The `reasoning_effort` values each reasoning model takes (OpenAI's reasoning
 * guide): gpt-5 minimal to high; gpt-5.1 none in minimal's place; gpt-5.2 and
 * later add xhigh; the o-series low to high. Other models are not checked.
 */
function checkReasoningEffort(model: string, effort: unknown): OpenAIProblem | null {
  if (effort === undefined) return null;
  const levels = /^gpt-5\.1/.test(model)
    ? ["none", "low", "medium", "high"]
    : /^gpt-5\.\d/.test(model)
      ? ["none", "low", "medium", "high", "xhigh"]
      : /^gpt-5/.test(model)
        ? ["minimal", "low", "medium", "high"]
        : /^o\d/.test(model)
          ? ["low", "medium", "high"]
          : undefined;
  if (!levels || levels.includes(String(effort))) return null;
  const list = `${levels.slice(0, -1).map((l) => `'${l}'`).join(", ")}, and '${levels.at(-1)}'`;
  return bad(`Unsupported value: 'reasoning_effort' does not support '${String(effort)}' with this model. Supported values are: ${list}.`, "reasoning_effort", "unsupported_value");
}

function checkTools(tools: unknown): OpenAIProblem | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return bad("Invalid type for 'tools': expected an array, but got an object instead.", "tools", "invalid_type");
  for (const [i, tool] of tools.entries()) {
    if (tool?.type !== "function" && tool?.type !== "custom")
      return bad(`Invalid value: '${tool?.type}'. Supported values are: 'function' and 'custom'.`, `tools[${i}].type`, "invalid_value");
    if (tool.type === "custom") continue;
    if (!tool.function) return bad(`Missing required parameter: 'tools[${i}].function'.`, `tools[${i}].function`, "missing_required_parameter");
    const name = tool.function.name;
    if (typeof name !== "string") return bad(`Missing required parameter: 'tools[${i}].function.name'.`, `tools[${i}].function.name`, "missing_required_parameter");
    if (!TOOL_NAME.test(name))
      return bad(`Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `tools[${i}].function.name`, "invalid_value");
    if (name.length > 64)
      return bad(`Invalid 'tools[${i}].function.name': string too long. Expected a string with maximum length 64, but got a string with length ${name.length} instead.`, `tools[${i}].function.name`, "string_above_max_length");
    const params = tool.function.parameters;
    if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params)))
      return bad(`Invalid type for 'tools[${i}].function.parameters': expected an object, but got a ${typeof params} instead.`, `tools[${i}].function.parameters`, "invalid_type");
  }
  return null;
}

function checkMessages(messages: any[]): OpenAIProblem | null {
  for (const [i, m] of messages.entries()) {
    if (m?.role === undefined) return bad(`Missing required parameter: 'messages[${i}].role'.`, `messages[${i}].role`, "missing_required_parameter");
    if (!ROLES.includes(m.role))
      return bad(`Invalid value: '${m.role}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`, `messages[${i}].role`, "invalid_value");
    const calls = m.role === "assistant" ? m.tool_calls : undefined;
    if (m.content === undefined && !(m.role === "assistant" && (calls?.length || m.content === null)))
      return bad(`Missing required parameter: 'messages[${i}].content'.`, `messages[${i}].content`, "missing_required_parameter");
    if (m.content === null && !(m.role === "assistant" && calls?.length))
      return bad("Invalid value for 'content': expected a string, got null.", `messages.[${i}].content`);
    if (m.role === "tool" && typeof m.tool_call_id !== "string")
      return bad(`Missing required parameter: 'messages[${i}].tool_call_id'.`, `messages[${i}].tool_call_id`, "missing_required_parameter");
    if (calls !== undefined) {
      const problem = checkToolCalls(calls, i);
      if (problem) return problem;
    }
  }
  // Pairing: an assistant's tool_calls are answered by the tool messages that
  // immediately follow it, and a tool message answers only such a call.
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "tool") {
      // Find the assistant this run of tool messages follows.
      let j = i - 1;
      while (j >= 0 && messages[j].role === "tool") j--;
      const ids = (messages[j]?.role === "assistant" ? (messages[j].tool_calls ?? []) : []).map((c: any) => c.id);
      if (!ids.includes(m.tool_call_id))
        return bad("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`);
    }
    if (m.role === "assistant" && m.tool_calls?.length) {
      const answered = new Set<string>();
      for (let k = i + 1; k < messages.length && messages[k].role === "tool"; k++) answered.add(messages[k].tool_call_id);
      const missing = m.tool_calls.map((c: any) => c.id).filter((id: string) => !answered.has(id));
      if (missing.length > 0)
        return bad(
          `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`,
          `messages.[${i}].role`,
        );
    }
  }
  return null;
}

function checkToolCalls(calls: unknown, i: number): OpenAIProblem | null {
  if (!Array.isArray(calls)) return bad(`Invalid type for 'messages[${i}].tool_calls': expected an array, but got an object instead.`, `messages[${i}].tool_calls`, "invalid_type");
  for (const [k, call] of calls.entries()) {
    const at = `messages[${i}].tool_calls[${k}]`;
    if (typeof call?.id !== "string") return bad(`Missing required parameter: '${at}.id'.`, `${at}.id`, "missing_required_parameter");
    if (call.id.length > 40)
      return bad(`Invalid '${at}.id': string too long. Expected a string with maximum length 40, but got a string with length ${call.id.length} instead.`, `${at}.id`, "string_above_max_length");
    if (call.type !== "function") return bad(`Invalid value: '${call.type}'. Supported values are: 'function' and 'custom'.`, `${at}.type`, "invalid_value");
    if (typeof call.function?.name !== "string") return bad(`Missing required parameter: '${at}.function.name'.`, `${at}.function.name`, "missing_required_parameter");
    if (typeof call.function.arguments !== "string")
      return bad(`Invalid type for '${at}.function.arguments': expected a string, but got ${call.function.arguments === undefined ? "nothing" : `a ${typeof call.function.arguments}`} instead.`, `${at}.function.arguments`, "invalid_type");
    // The API reference has `arguments` as "the arguments to call the function
    // with, as generated by the model in JSON format", and OpenAI refuses a
    // replayed call whose arguments do not parse (a call cut off by `length`
    // does not), so one such call fails every later request of a session. Its
    // exact wording is not published; this follows the form of its other
    // parameter errors.
    if (!isJson(call.function.arguments))
      return bad(`Invalid '${at}.function.arguments': arguments not a JSON string.`, `${at}.function.arguments`, "invalid_value");
  }
  return null;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const FINISH = { stop: "stop", toolUse: "tool_calls", length: "length", refusal: "content_filter", context_window: "length" } as const;

/** The complete streamed answer, one string per SSE event (the last is `[DONE]`). */
export function renderOpenAI(reply: Reply, model: string, usage: TokenUsage, includeUsage: boolean): string[] {
  const frames: string[] = [];
  const id = "chatcmpl-" + randomId(29);
  const created = Math.floor(Date.now() / 1000);
  const size = reply.chunk ?? 3;
  const chunk = (delta: ChatCompletionChunk.Choice.Delta, finish_reason: ChatCompletionChunk.Choice["finish_reason"] = null) => {
    const body: ChatCompletionChunk & { usage?: CompletionUsage | null } = {
      id,
      object: "chat.completion.chunk",
      created,
      model,
      service_tier: "default",
      system_fingerprint: "fp_test",
      choices: [{ index: 0, delta, logprobs: null, finish_reason }],
    };
    if (includeUsage) body.usage = null; // the real API sends usage: null on every chunk but the last
    frames.push(`data: ${JSON.stringify(body)}\n\n`);
  };
  const blocks = blocksOf(reply);
  const refusing = blocks[0]?.type === "refusal";
  const refuses = blocks.some((b) => b.type === "refusal");
  // The first chunk opens the field the answer streams in: content, or refusal.
  chunk(refusing ? { role: "assistant", content: null, refusal: "" } : { role: "assistant", content: "", refusal: null });
  let toolIndex = 0;
  for (const block of blocks) {
    if (block.type === "text") for (const content of pieces(block.text, size)) chunk({ content });
    else if (block.type === "refusal") for (const refusal of pieces(block.refusal, size)) chunk({ refusal });
    else if (block.type === "thinking") for (const text of pieces(block.thinking, size)) chunk({ reasoning_content: text } as ChatCompletionChunk.Choice.Delta);
    else if (block.type === "toolUse") {
      const index = toolIndex++;
      chunk({ tool_calls: [{ index, id: block.id ?? "call_" + randomId(24), type: "function", function: { name: block.name, arguments: "" } }] });
      for (const args of pieces(inputJson(block.input), size)) chunk({ tool_calls: [{ index, function: { arguments: args } }] });
    }
    // redacted thinking has no OpenAI form: omitted.
  }
  // A refusal ends as an ordinary stop: the refusal field is what says so.
  chunk({}, refuses && !reply.stop ? "stop" : FINISH[stopOf(reply)]);
  if (includeUsage) {
    const last: ChatCompletionChunk = {
      id,
      object: "chat.completion.chunk",
      created,
      model,
      service_tier: "default",
      system_fingerprint: "fp_test",
      choices: [],
      usage: completionUsage(usage),
    };
    frames.push(`data: ${JSON.stringify(last)}\n\n`);
  }
  frames.push("data: [DONE]\n\n");
  return frames;
}

/** A non-streaming chat.completion. */
export function openaiCompletion(reply: Reply, model: string, usage: TokenUsage): unknown {
  const blocks = blocksOf(reply);
  const text = blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
  const refusal = blocks.map((b) => (b.type === "refusal" ? b.refusal : "")).join("") || null;
  const calls = blocks.flatMap((b) =>
    b.type === "toolUse" ? [{ id: b.id ?? "call_" + randomId(24), type: "function", function: { name: b.name, arguments: inputJson(b.input) } }] : [],
  );
  return {
    id: "chatcmpl-" + randomId(29),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: text || null, refusal, ...(calls.length ? { tool_calls: calls } : {}) },
        logprobs: null,
        finish_reason: refusal && !reply.stop ? "stop" : FINISH[stopOf(reply)],
      },
    ],
    usage: completionUsage(usage),
  };
}

/** CompletionUsage: prompt_tokens is the whole prompt, cached_tokens the part read from the cache. */
function completionUsage(usage: TokenUsage): CompletionUsage {
  const prompt = usage.input + usage.cacheRead;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.output,
    total_tokens: prompt + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}
