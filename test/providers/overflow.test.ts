// "The prompt is too long for this model", however an API words it: the end
// event carries `overflow` (with the window the error states, if it states
// one), the request is never retried, and the line no longer tells the person
// to start over (the agent compacts instead).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { contextOverflow, describeOverflow, parseApiError, type ApiIdentity } from "../../src/providers/api-errors";
import type { ProviderName } from "../../src/providers/provider";
import { MODELS, serverFixture, user } from "./fixture";

/** Error bodies as the APIs and compatible servers send them, with their status (undefined: inside a stream). */
const OVERFLOWS: [string, number | undefined, unknown, { limit?: number; input?: number }][] = [
  ["Anthropic: prompt too long", 400,
    { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 208310 tokens > 200000 maximum" }, request_id: "req_011C" },
    { limit: 200_000, input: 208_310 }],
  ["Anthropic: input and max_tokens exceed the window", 400,
    { type: "error", error: { type: "invalid_request_error", message: "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again" } },
    { limit: 200_000, input: 188_240 }],
  ["Anthropic: request too large (bytes)", 413,
    { type: "error", error: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." } },
    {}],
  ["OpenAI: context_length_exceeded", 400,
    { error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } },
    { limit: 128_000 }],
  ["OpenAI: messages plus completion", 400,
    { error: { message: "This model's maximum context length is 4097 tokens. However, you requested 4120 tokens (3120 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } },
    { limit: 4097, input: 3120 }],
  ["OpenAI: exceeds the context window (no number)", 400,
    { error: { message: "Your input exceeds the context window of this model. Please adjust your input and try again.", type: "invalid_request_error", param: "input", code: "context_length_exceeded" } },
    {}],
  ["OpenAI gpt-5: configured limit", 400,
    { error: { message: "Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 289650 tokens. Please reduce the length of the messages.", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } },
    { limit: 272_000 }],
  ["vLLM (fields at the top level, numeric code)", 400,
    { object: "error", message: "This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (112946 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.", type: "BadRequestError", param: null, code: 400 },
    { limit: 16_384, input: 112_946 }],
  ["vLLM (newer: wrapped)", 400,
    { error: { message: "This model's maximum context length is 2048 tokens. However, your request has 8 input tokens plus 2045 'max_tokens'. Please reduce one or the other.", type: "BadRequestError", param: "input_tokens, max_tokens", code: 400 } },
    { limit: 2048 }],
  ["OpenRouter", 400,
    { error: { message: "This endpoint's maximum context length is 131072 tokens. However, you requested about 141607 tokens (10535 of text input, 131072 in the output). Please reduce the length of either one, or use the \"middle-out\" transform to compress your prompt automatically.", code: 400, metadata: { provider_name: "Chutes" } } },
    { limit: 131_072 }],
  ["llama.cpp (limit in n_ctx)", 400,
    { error: { code: 400, message: "the request exceeds the available context size, try increasing it", type: "exceed_context_size_error", n_prompt_tokens: 14429, n_ctx: 8192 } },
    { limit: 8192 }],
  ["llama.cpp before it answered 400", 500,
    { error: { code: 500, message: "the request exceeds the available context size. try increasing the context size or enable context shift", type: "exceed_context_size_error", n_prompt_tokens: 1407, n_ctx: 256 } },
    { limit: 256 }],
  ["LM Studio: context length of only", 400,
    { error: "Trying to keep the first 111490 tokens when context the overflows. However, the model is loaded with context length of only 32768 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input" },
    { limit: 32_768 }],
  ["LM Studio: n_keep >= n_ctx", 400,
    { error: { message: "The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 10247 >= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter prompt." } },
    { limit: 4096 }],
  ["LM Studio in the stream", undefined, { error: "Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)" }, { limit: 7424 }],
  ["LM Studio MLX in the stream", undefined, { error: { message: "Context size has been exceeded." } }, {}],
  ["Mistral", 400,
    { object: "error", message: "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length", type: "invalid_request_error", code: null },
    { limit: 32_768 }],
  ["Hugging Face TGI", 422,
    { error: "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 200 `max_new_tokens`", error_type: "validation" },
    { limit: 4096 }],
];

/** Failures that mention tokens or limits but are not the prompt being too long. */
const NOT_OVERFLOWS: [string, number, unknown][] = [
  ["Anthropic: max_tokens above the model's output cap", 400,
    { type: "error", error: { type: "invalid_request_error", message: "max_tokens: 300000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5-20250929" } }],
  ["OpenAI: max_tokens too large", 400,
    { error: { message: "max_tokens is too large: 200000. This model supports at most 16384 completion tokens, whereas you provided 200000.", type: "invalid_request_error", param: "max_tokens", code: "invalid_value" } }],
  ["OpenAI: tokens-per-minute limit", 429,
    { error: { message: "Request too large for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Requested 50000.", type: "tokens", param: null, code: "rate_limit_exceeded" } }],
  ["OpenAI: quota", 429, { error: { message: "You exceeded your current quota, please check your plan and billing details.", type: "insufficient_quota", code: "insufficient_quota" } }],
  ["Anthropic: rate limit", 429, { type: "error", error: { type: "rate_limit_error", message: "This request would exceed the rate limit for your organization" } }],
  ["Anthropic: overloaded", 529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }],
  ["a 500 that mentions the context window", 500, { error: { message: "internal error while computing the context window", type: "server_error" } }],
  ["a plain bad request", 400, { type: "error", error: { type: "invalid_request_error", message: "messages: text content blocks must be non-empty" } }],
];

describe("contextOverflow", () => {
  test.each(OVERFLOWS)("%s", (_, status, body, expected) => {
    expect(contextOverflow(status, parseApiError(JSON.stringify(body)))).toEqual(expected);
  });

  test.each(NOT_OVERFLOWS)("not an overflow: %s", (_, status, body) => {
    expect(contextOverflow(status, parseApiError(JSON.stringify(body)))).toBeUndefined();
  });

  test("limits written with thousands separators are read whole", () => {
    expect(contextOverflow(400, { message: "This model's maximum context length is 1,047,576 tokens." })).toEqual({ limit: 1_047_576 });
  });

  test("the line says what the API said, not to start a new session", () => {
    const api: ApiIdentity = { label: "Anthropic", keyVariable: "ANTHROPIC_API_KEY", baseUrlVariable: "ANTHROPIC_BASE_URL", secrets: ["sk-ant-secret"] };
    const line = describeOverflow(api, "claude-sonnet-4-5", { message: "prompt is too long: 208310 tokens > 200000 maximum" }, 400);
    expect(line).toBe("The conversation is too long for claude-sonnet-4-5 (prompt is too long: 208310 tokens > 200000 maximum)");
    expect(describeOverflow(api, "m", { type: "request_too_large" }, 413)).toBe("The conversation is too long for m (Anthropic 413 request_too_large)");
    expect(describeOverflow(api, "m", { message: "too long for sk-ant-secret\nreally." })).toBe("The conversation is too long for m (too long for [redacted] really)");
  });
});

describe("an overflow through a real request", () => {
  let fx: Awaited<ReturnType<typeof serverFixture>>;
  beforeAll(async () => (fx = await serverFixture()));
  afterAll(() => fx.stop());

  const ask = async (name: ProviderName) => {
    const before = fx.server.requests.length;
    const result = await fx.ask(name, [user("hi")]);
    return { ...result, requests: fx.server.requests.length - before };
  };

  test("Anthropic's 'prompt is too long' ends the stream with the stated limit, once, unretried", async () => {
    fx.server.reply({ fault: { status: 400, message: "prompt is too long: 9000 tokens > 4000 maximum" } });
    const { end, requests, retries } = await ask("anthropic");
    expect(requests).toBe(1);
    expect(retries).toEqual([]);
    expect(end).toEqual({
      type: "end", stopReason: "error", overflow: { limit: 4000, input: 9000 },
      errorMessage: `The conversation is too long for ${MODELS.anthropic} (prompt is too long: 9000 tokens > 4000 maximum)`,
    });
  });

  test("Anthropic's 'input length and max_tokens exceed context limit' carries the limit too", async () => {
    fx.server.reply({ fault: { status: 400, message: "input length and `max_tokens` exceed context limit: 3000 + 4096 > 4000, decrease input length or `max_tokens` and try again" } });
    const { end, requests } = await ask("anthropic");
    expect(requests).toBe(1);
    expect(end.overflow).toEqual({ limit: 4000, input: 3000 });
    expect(end.errorMessage).not.toContain("new session");
  });

  test("OpenAI's context_length_exceeded ends the stream with the stated limit, once, unretried", async () => {
    fx.server.reply({ fault: { status: 400, code: "context_length_exceeded", message: "This model's maximum context length is 4000 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages." } });
    const { end, requests, retries } = await ask("openai");
    expect(requests).toBe(1);
    expect(retries).toEqual([]);
    expect(end.overflow).toEqual({ limit: 4000 });
    expect(end.errorMessage).toStartWith(`The conversation is too long for ${MODELS.openai} (This model's maximum context length is 4000 tokens.`);
  });

  test("an overflow that states no limit still ends as one (413, 'exceeds the context window')", async () => {
    fx.server.reply({ fault: { status: 413, message: "Request exceeds the maximum allowed number of bytes." } });
    expect((await ask("anthropic")).end.overflow).toEqual({});
    fx.server.reply({ fault: { status: 400, code: "context_length_exceeded", message: "Your input exceeds the context window of this model. Please adjust your input and try again." } });
    expect((await ask("openai")).end.overflow).toEqual({});
  });

  test("a server that would be retried (llama.cpp's old 500) is not, when the error is an overflow", async () => {
    fx.server.reply({ fault: { status: 500, errorType: "exceed_context_size_error", message: "the request exceeds the available context size. try increasing the context size or enable context shift" } });
    const { end, requests, retries } = await ask("openai");
    expect(requests).toBe(1);
    expect(retries).toEqual([]);
    expect(end.overflow).toEqual({});
  });

  test("an overflow reported inside the stream (LM Studio) ends the same way, unretried", async () => {
    fx.server.reply({ raw: `data: ${JSON.stringify({ error: "Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough." })}\n\n` });
    const { end, requests, retries } = await ask("openai");
    expect(requests).toBe(1);
    expect(retries).toEqual([]);
    expect(end).toMatchObject({ stopReason: "error", overflow: { limit: 4096 } });
    expect(end.errorMessage).toStartWith(`The conversation is too long for ${MODELS.openai} (Trying to keep the first 9000 tokens`);
  });

  test("other failures carry no overflow", async () => {
    fx.server.reply({ fault: { status: 400, message: "max_tokens: 300000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5" } });
    const { end } = await ask("anthropic");
    expect(end.stopReason).toBe("error");
    expect(end).not.toHaveProperty("overflow");
  });
});
