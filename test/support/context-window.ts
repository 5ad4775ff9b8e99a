// A request over its model's context window, answered as each API (or
// OpenAI-compatible server) answers it: status, error type and code, message
// text and body shape, each copied from a real answer (see each style).
// Tokens are the test server's count (prompt.ts): bytes / 4 of the prompt.

import { anthropicErrorBody } from "./anthropic-protocol";
import { openaiErrorBody } from "./openai-protocol";
import { promptTokens } from "./prompt";

/**
 * How the Anthropic Messages API refuses an overflow.
 * - "prompt_too_long" (default): 400 invalid_request_error
 *   "prompt is too long: N tokens > M maximum" when the prompt alone is over.
 * - "input_and_max_tokens": as above, and also, when the prompt fits but
 *   prompt + max_tokens does not, 400 "input length and `max_tokens` exceed
 *   context limit: N + X > M, decrease input length or `max_tokens` and try
 *   again" (models from Claude 3.7 Sonnet on validate the sum; the newest
 *   instead stop with `model_context_window_exceeded`).
 * - "request_too_large": 413 request_too_large, which states no limit.
 */
export type AnthropicOverflowStyle = "prompt_too_long" | "input_and_max_tokens" | "request_too_large";

/**
 * How an OpenAI-compatible endpoint refuses an overflow.
 * - "context_length_exceeded" (default): OpenAI, 400 invalid_request_error,
 *   code context_length_exceeded, param messages, "This model's maximum context
 *   length is M tokens. However, your messages resulted in N tokens. Please
 *   reduce the length of the messages."
 * - "exceeds_context_window": OpenAI's newer wording, which states no limit:
 *   400 invalid_request_error, code context_length_exceeded, "Your input
 *   exceeds the context window of this model. Please adjust your input and try
 *   again."
 * - "llama_cpp": llama.cpp's llama-server, 400 with
 *   {"error":{"code":400,"message":"request (N tokens) exceeds the available
 *   context size (M tokens), try increasing it","type":"exceed_context_size_error",
 *   "n_prompt_tokens":N,"n_ctx":M}}.
 * - "vllm": vLLM, 400 with a top-level {"object":"error","message":"This model's
 *   maximum context length is M tokens. However, you requested T tokens (N in the
 *   messages, X in the completion). Please reduce the length of the messages or
 *   completion.","type":"BadRequestError","param":null,"code":400}; it counts the
 *   completion's tokens too (max_completion_tokens or max_tokens).
 */
/**
 * How the Responses API reports an overflow, each seen from the service:
 * - "http" (default): 400 invalid_request_error, code context_length_exceeded,
 *   "Your input exceeds the context window of this model. Please adjust your
 *   input and try again.";
 * - "errorEvent": a 200 stream whose `error` event says the same;
 * - "failed": a 200 stream ending in `response.failed` whose `error` says it.
 */
export type ResponsesOverflowStyle = "http" | "errorEvent" | "failed";

export type OpenAIOverflowStyle = "context_length_exceeded" | "exceeds_context_window" | "llama_cpp" | "vllm";

export interface Overflow {
  status: number;
  body: string;
}

/** An option given for every model (a number) or by model id: its value for this model, if any. */
export function forModel(option: number | Record<string, number> | undefined, model: string): number | undefined {
  return typeof option === "number" ? option : option?.[model];
}

export function anthropicOverflow(body: any, window: number, style: AnthropicOverflowStyle = "prompt_too_long"): Overflow | null {
  const n = promptTokens("anthropic", body);
  const bad = (message: string): Overflow => ({ status: 400, body: anthropicErrorBody("invalid_request_error", message) });
  if (n > window) {
    if (style === "request_too_large")
      return { status: 413, body: anthropicErrorBody("request_too_large", "Request exceeds the maximum allowed number of bytes.") };
    return bad(`prompt is too long: ${n} tokens > ${window} maximum`);
  }
  const x = Number.isInteger(body?.max_tokens) ? (body.max_tokens as number) : 0;
  if (style === "input_and_max_tokens" && n + x > window)
    return bad(`input length and \`max_tokens\` exceed context limit: ${n} + ${x} > ${window}, decrease input length or \`max_tokens\` and try again`);
  return null;
}

export function openaiOverflow(body: any, window: number, style: OpenAIOverflowStyle = "context_length_exceeded"): Overflow | null {
  const n = promptTokens("openai", body);
  const completion = body?.max_completion_tokens ?? body?.max_tokens;
  const x = Number.isInteger(completion) ? (completion as number) : undefined;
  if (style === "vllm") {
    if (x === undefined ? n < window : n + x <= window) return null;
    const message =
      x === undefined
        ? `This model's maximum context length is ${window} tokens. However, you requested ${n} tokens in the messages, Please reduce the length of the messages.`
        : `This model's maximum context length is ${window} tokens. However, you requested ${n + x} tokens (${n} in the messages, ${x} in the completion). Please reduce the length of the messages or completion.`;
    return { status: 400, body: JSON.stringify({ object: "error", message, type: "BadRequestError", param: null, code: 400 }) };
  }
  if (n <= window) return null;
  if (style === "llama_cpp")
    return {
      status: 400,
      body: JSON.stringify({
        error: { code: 400, message: `request (${n} tokens) exceeds the available context size (${window} tokens), try increasing it`, type: "exceed_context_size_error", n_prompt_tokens: n, n_ctx: window },
      }),
    };
  const message =
    style === "exceeds_context_window"
      ? "Your input exceeds the context window of this model. Please adjust your input and try again."
      : `This model's maximum context length is ${window} tokens. However, your messages resulted in ${n} tokens. Please reduce the length of the messages.`;
  return { status: 400, body: openaiErrorBody({ message, type: "invalid_request_error", param: "messages", code: "context_length_exceeded" }) };
}

const RESPONSES_OVERFLOW = "Your input exceeds the context window of this model. Please adjust your input and try again.";

/** A Responses request over the window: an HTTP refusal, or how its stream is to end (see ResponsesOverflowStyle). */
export function responsesOverflow(body: any, window: number, style: ResponsesOverflowStyle = "http"): Overflow | { as: "errorEvent" | "failed"; code: string; message: string } | null {
  if (promptTokens("responses", body) <= window) return null;
  if (style === "http") return { status: 400, body: openaiErrorBody({ message: RESPONSES_OVERFLOW, type: "invalid_request_error", param: "input", code: "context_length_exceeded" }) };
  return { as: style, code: "context_length_exceeded", message: RESPONSES_OVERFLOW };
}
