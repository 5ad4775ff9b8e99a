// The Responses API against the strict test server: what goes out (store:
// false, reasoning sent back without ids, only to the key that issued it,
// one prompt_cache_key), and what each way a response can end means.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Message } from "../../src/conversation";
import { UsageError } from "../../src/errors";
import { Conversation } from "../../src/conversation";
import { createProvider } from "../../src/providers";
import { MODELS, TOOLS } from "./fixture";
import { fingerprint } from "../../src/providers/origins";
import { serverFixture, user } from "./fixture";

const OTHER_KEY = "sk-other-account-key";
let fx: Awaited<ReturnType<typeof serverFixture>>;
const RESPONSES = { AWL_OPENAI_API: "responses" };
beforeAll(async () => (fx = await serverFixture({ otherOpenaiKeys: [OTHER_KEY] })));
afterAll(() => fx.stop());

const ask = (messages: Message[], options: { thinking?: boolean; env?: Record<string, string>; model?: string } = {}) =>
  fx.ask("openai", messages, { sessionId: "0190c0de-5e55-7000-8000-000000000001", ...options, env: { ...RESPONSES, ...options.env } });
const lastBody = () => fx.server.requests.at(-1)!.body;

describe("a tool loop with reasoning", () => {
  test("the encrypted reasoning comes back in the next request, with no id, directly before the call it led to", async () => {
    fx.server.reply({ blocks: [{ type: "thinking", thinking: "Read it first." }, { type: "toolUse", id: "call_1", name: "read", input: { path: "a" } }] });
    const first = await ask([user("what is in a?")], { thinking: true });
    expect(first.end).toMatchObject({ stopReason: "toolUse", usage: { reasoning: 4 } });
    const thinking = first.message.content[0]!;
    const origin = { api: "openai-responses", fingerprint: fingerprint(fx.server.openaiUrl, fx.server.openaiKey) };
    expect(thinking).toMatchObject({ type: "thinking", thinking: "Read it first.", origin });
    expect(thinking.type === "thinking" && thinking.signature).toBeTruthy();
    const body = lastBody();
    expect(body).toMatchObject({ store: false, stream: true, include: ["reasoning.encrypted_content"], instructions: "You are a test.", reasoning: { effort: "high", summary: "auto" } });
    expect(body.tools[0]).toMatchObject({ type: "function", name: "read", strict: false });

    fx.server.reply({ blocks: [{ type: "text", text: "It says hi." }] });
    const history: Message[] = [user("what is in a?"), first.message, { role: "user", content: [{ type: "toolResult", toolUseId: "call_1", content: "hi" }] }];
    const second = await ask(history, { thinking: true });
    expect(fx.server.requests.at(-1)!.status).toBe(200);
    expect(second.message.content).toEqual([{ type: "text", text: "It says hi.", phase: "final_answer" }]);
    const input = lastBody().input;
    expect(input.map((item: any) => item.type)).toEqual(["message", "reasoning", "function_call", "function_call_output"]);
    expect(input[1]).toEqual({ type: "reasoning", summary: [{ type: "summary_text", text: "Read it first." }], encrypted_content: thinking.type === "thinking" ? thinking.signature : "" });
    expect(JSON.stringify(input)).not.toMatch(/"id"/);
    expect(new Set(fx.server.requests.slice(-2).map((r) => r.body.prompt_cache_key))).toEqual(new Set(["0190c0de-5e55-7000-8000-000000000001"]));
  });

  test("reasoning from another API or another key is dropped, its summary never sent; Anthropic never gets OpenAI's", async () => {
    fx.server.reply({ blocks: [{ type: "thinking", thinking: "secret plan" }, { type: "toolUse", id: "call_2", name: "read", input: { path: "b" } }] });
    const first = await ask([user("go")]);
    const history: Message[] = [
      user("go"),
      { role: "assistant", content: [{ type: "thinking", thinking: "claude's", signature: "sig", origin: { api: "anthropic-messages", fingerprint: "0123456789ab" } }, ...first.message.content] },
      { role: "user", content: [{ type: "toolResult", toolUseId: "call_2", content: "b" }] },
    ];
    fx.server.reply({});
    const { requests, result } = await fx.requestsDuring(() => ask(history, { env: { OPENAI_API_KEY: OTHER_KEY } }));
    expect(requests.map((r) => r.status)).toEqual([200]);
    expect(result.events.some((e) => e.type === "notice")).toBe(false);
    expect(lastBody().input.map((item: any) => item.type)).toEqual(["message", "function_call", "function_call_output"]);
    expect(fx.server.requests.at(-1)!.rawBody).not.toContain("secret plan");

    fx.server.reply({});
    await fx.ask("anthropic", history, { thinking: true });
    expect(fx.server.requests.at(-1)!.status).toBe(200);
    expect(fx.server.requests.at(-1)!.rawBody).not.toContain("secret plan");
  });

  test("a refusal of the reasoning sent back asks once more without it, and says so", async () => {
    const origin = { api: "openai-responses", fingerprint: fingerprint(fx.server.openaiUrl, fx.server.openaiKey) };
    const history: Message[] = [
      user("go"),
      // Its origin matches, but the server no longer takes it (an account moved, a key rotated on the same account).
      { role: "assistant", model: MODELS.openai, content: [{ type: "thinking", thinking: "stale", signature: "gAAAAAstale", origin }, { type: "text", text: "done" }] },
      user("again"),
    ];
    fx.server.reply({ blocks: [{ type: "text", text: "fine" }] });
    const before = fx.server.requests.length;
    const { events, end } = await ask(history);
    const sent = fx.server.requests.slice(before);
    expect(sent.map((r) => r.status)).toEqual([400, 200]);
    expect(sent[1]!.body.input.some((item: any) => item.type === "reasoning")).toBe(false);
    expect(events.filter((e) => e.type === "notice")).toHaveLength(1);
    expect(end.stopReason).toBe("stop");
  });
});

describe("how a response ends", () => {
  test("response.incomplete: the answer is kept, cut off (length), and a half-streamed function call is not a call to run", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "Let me look." }, { type: "toolUse", id: "call_cut", name: "bash", input: '{"command":"rm -' }], stop: "length" });
    const { end, message } = await ask([user("clean up")]);
    expect(end.stopReason).toBe("length");
    expect(message.content[0]).toMatchObject({ type: "text", text: "Let me look." });
    expect(message.content[1]).toMatchObject({ type: "toolUse", id: "call_cut", input: '{"command":"rm -' });
  });

  test("response.failed and the error event (flat and nested) are one line each, and not retried", async () => {
    const failed = { type: "response.failed", response: { id: "resp_1", status: "failed", error: { code: "invalid_prompt", message: "Your prompt was flagged." } } };
    const flat = { type: "error", code: "invalid_request", message: "Something was wrong.", param: null, sequence_number: 1 };
    const nested = { type: "error", error: { type: "invalid_request_error", code: "bad_thing", message: "Nested wording.", param: null }, sequence_number: 1 };
    const lines: string[] = [];
    for (const [name, data] of [["response.failed", failed], ["error", flat], ["error", nested]] as const) {
      fx.server.reply({ raw: `event: ${name}\ndata: ${JSON.stringify(data)}\n\n` });
      const { end, retries } = await ask([user("hi")]);
      expect(retries).toHaveLength(0);
      expect(end.stopReason).toBe("error");
      lines.push(end.errorMessage!);
    }
    expect(lines).toEqual([
      "OpenAI stream error (invalid_prompt): Your prompt was flagged.",
      "OpenAI stream error (invalid_request): Something was wrong.",
      "OpenAI stream error (bad_thing): Nested wording.",
    ]);
  });

  test("a context overflow in each of its three shapes is an overflow, never retried", async () => {
    for (const style of ["http", "errorEvent", "failed"] as const) {
      const server = await serverFixture({ contextWindow: 10, overflowStyle: { responses: style } });
      const { end, retries } = await server.ask("openai", [user("this will not fit in ten tokens at all")], { env: RESPONSES });
      await server.stop();
      expect({ style, stopReason: end.stopReason, overflow: end.overflow, retries: retries.length }).toEqual({ style, stopReason: "error", overflow: {}, retries: 0 });
    }
  });
});

describe("which protocol the openai provider speaks", () => {
  const apiOf = (env: Record<string, string>) => createProvider("openai", { OPENAI_API_KEY: "sk-test", ...env }).api;
  test("Responses for OpenAI's own base URL, Chat Completions for any other; AWL_OPENAI_API overrides either way", () => {
    expect(apiOf({})).toBe("openai-responses");
    expect(apiOf({ OPENAI_BASE_URL: "https://api.openai.com/v1/" })).toBe("openai-responses");
    expect(apiOf({ OPENAI_BASE_URL: "http://localhost:11434/v1" })).toBe("openai-chat");
    expect(apiOf({ AWL_OPENAI_API: "chat" })).toBe("openai-chat");
    expect(apiOf({ OPENAI_BASE_URL: "https://openrouter.ai/api/v1", AWL_OPENAI_API: "responses" })).toBe("openai-responses");
    expect(createProvider("anthropic", { ANTHROPIC_API_KEY: "k" }).api).toBe("anthropic-messages");
  });

  test("any other AWL_OPENAI_API is a usage error naming the choices", () => {
    expect(() => apiOf({ AWL_OPENAI_API: "completions" })).toThrow(new UsageError('AWL_OPENAI_API must be responses or chat, not "completions"'));
  });

  test("the fingerprint is 12 hex digits of the base URL and key, never the key, the same with or without a trailing slash", () => {
    const print = fingerprint("https://api.openai.com/v1", "sk-secret-key-1234");
    expect(print).toMatch(/^[0-9a-f]{12}$/);
    expect(fingerprint("https://api.openai.com/v1/", "sk-secret-key-1234")).toBe(print);
    expect(fingerprint("https://api.openai.com/v1", "sk-secret-key-5678")).not.toBe(print);
    expect(fingerprint("https://eu.api.openai.com/v1", "sk-secret-key-1234")).not.toBe(print);
    const hasher = new Bun.CryptoHasher("sha256");
    expect(print).toBe(hasher.update("https://api.openai.com/v1\nsk-secret-key-1234").digest("hex").slice(0, 12));
  });
});

describe("what a model does not take, learnt from the API's refusal", () => {
  const provider = () => createProvider("openai", { ...fx.env, ...RESPONSES });
  const request = (model: string) => ({
    model, system: "s", conversation: new Conversation([user("hi")]), tools: TOOLS, maxTokens: 4096, thinking: { form: "level" as const, level: "high" }, signal: new AbortController().signal,
  });
  const drain = async (stream: AsyncIterable<unknown>) => {
    const events: any[] = [];
    for await (const event of stream) events.push(event);
    return events;
  };

  test("reasoning parameters a model refuses are dropped: the request is asked again, and the model's later requests go without them", async () => {
    const openai = provider();
    fx.server.reply({ fault: { status: 400, code: "unsupported_parameter", message: "Unsupported parameter: 'reasoning.effort' is not supported with this model." } }, {}, {});
    const { requests, result } = await fx.requestsDuring(async () => [await drain(openai.stream(request("gpt-5-preview"))), await drain(openai.stream(request("gpt-5-preview")))]);
    expect(requests.map((r) => r.status)).toEqual([400, 200, 200]);
    for (const sent of requests.slice(1)) expect([sent.body.reasoning, sent.body.include]).toEqual([undefined, undefined]);
    expect(result.flat().filter((e) => e.type === "end").map((e) => e.stopReason)).toEqual(["stop", "stop"]);
  });

  test("max_output_tokens a model refuses is dropped the same way", async () => {
    const openai = provider();
    fx.server.reply({ fault: { status: 400, code: "unsupported_parameter", message: "Unsupported parameter: 'max_output_tokens' is not supported with this model." } }, {}, {});
    const { requests } = await fx.requestsDuring(async () => [await drain(openai.stream(request("gpt-5-mini"))), await drain(openai.stream(request("gpt-5-mini")))]);
    expect(requests.map((r) => [r.status, r.body.max_output_tokens])).toEqual([[400, 4096], [200, undefined], [200, undefined]]);
  });

  test("gpt-5's chat model is not taken for a reasoning one: no reasoning parameters, and the server takes the request", async () => {
    fx.server.reply({});
    await drain(provider().stream(request("gpt-5-chat-latest")));
    const sent = fx.server.requests.at(-1)!;
    expect([sent.status, sent.body.reasoning, sent.body.include]).toEqual([200, undefined, undefined]);
  });
});
