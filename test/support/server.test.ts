// Self-tests of the test server with raw fetch: that it streams each protocol
// as the real API does, rejects what the real API rejects, and injects each
// fault. awl's provider tests are the real coverage; these pin the server.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { type TestServer, type TestServerOptions, promptTokens, startTestServer } from "./server";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.stop();
});

function anthropic(body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return fetch(`${server.anthropicUrl}/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": server.anthropicKey, "anthropic-version": "2023-06-01", "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal,
  });
}
function openai(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.openaiUrl}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.openaiKey}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}
const ask = (messages: unknown[], extra: object = {}) => ({ model: "claude-sonnet-4-5", max_tokens: 4096, stream: true, messages, ...extra });
const chat = (messages: unknown[], extra: object = {}) => ({ model: "gpt-5-mini", stream: true, stream_options: { include_usage: true }, messages, ...extra });

/** Reads a whole SSE body into events, tolerating any byte boundaries (as a client must). */
async function events(response: Response): Promise<{ event: string; data: string }[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((frame) => {
      const event = frame.match(/^event: (.*)$/m)?.[1] ?? "";
      const data = frame.match(/^data: (.*)$/m)?.[1] ?? "";
      return { event, data };
    });
}
/** A response body as JSON (typed loosely: tests poke at the real APIs' shapes). */
async function bodyOf(response: Response | Promise<Response>): Promise<any> {
  return (await response).json();
}
const json = (list: { data: string }[]) => list.map((e) => (e.data === "[DONE]" ? "[DONE]" : JSON.parse(e.data)));

async function restart(options: TestServerOptions) {
  await server.stop();
  server = await startTestServer(options);
}
/** The input side of an Anthropic answer's usage (message_start), after queueing a default reply. */
async function anthropicUsage(body: object) {
  server.reply({});
  const response = await anthropic(body);
  expect(response.status).toBe(200);
  const start = json(await events(response))[0];
  const { input_tokens, cache_read_input_tokens, cache_creation_input_tokens, cache_creation } = start.message.usage;
  return { input: input_tokens, read: cache_read_input_tokens, write: cache_creation_input_tokens, byTtl: cache_creation };
}
/** An OpenAI answer's final usage chunk, after queueing a default reply. */
async function openaiUsage(body: object) {
  server.reply({});
  const response = await openai(body);
  expect(response.status).toBe(200);
  return json(await events(response)).at(-2).usage;
}

/** One Anthropic exchange: the assistant's tool call streamed by the server, as a client would echo it back. */
async function anthropicToolTurn() {
  server.reply({ blocks: [{ type: "thinking", thinking: "let me look" }, { type: "toolUse", name: "read", input: { path: "a" } }] });
  const got = json(await events(await anthropic(ask([{ role: "user", content: "hi" }]))));
  const id = got.find((e: any) => e.type === "content_block_start" && e.content_block.type === "tool_use").content_block.id as string;
  const signature = got.find((e: any) => e.delta?.type === "signature_delta").delta.signature as string;
  const assistant = {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "let me look", signature },
      { type: "tool_use", id, name: "read", input: { path: "a" } },
    ],
  };
  return { id, signature, assistant };
}

describe("Anthropic Messages", () => {
  test("streams named events like the real API: start, ping, deltas, signature, stop reason, cumulative usage", async () => {
    server.reply({ blocks: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "héllo" }, { type: "toolUse", id: "toolu_01abc", name: "bash", input: { command: "ls" } }], usage: { input: 10, output: 20 }, chunk: 2 });
    const list = await events(await anthropic(ask([{ role: "user", content: "hi" }])));
    const names = list.map((e) => e.event);
    expect(names.slice(0, 3)).toEqual(["message_start", "content_block_start", "ping"]);
    expect(names.slice(-2)).toEqual(["message_delta", "message_stop"]);
    const data = json(list);
    expect(data[0].message.usage.input_tokens).toBe(10);
    const deltas = data.filter((e: any) => e.type === "content_block_delta").map((e: any) => e.delta);
    expect(deltas.filter((d: any) => d.type === "text_delta").map((d: any) => d.text).join("")).toBe("héllo");
    expect(deltas.filter((d: any) => d.type === "input_json_delta").map((d: any) => d.partial_json).join("")).toBe('{"command":"ls"}');
    expect(deltas.some((d: any) => d.type === "signature_delta" && d.signature.length > 40)).toBe(true);
    expect(data.at(-2)).toEqual({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 20 } });
    expect(server.requests[0]!.status).toBe(200);
  });

  test("auth: a missing or wrong x-api-key is a 401 authentication_error; no anthropic-version is a 400", async () => {
    const missing = await anthropic(ask([{ role: "user", content: "hi" }]), { "x-api-key": "" });
    expect(missing.status).toBe(401);
    const wrong = await anthropic(ask([{ role: "user", content: "hi" }]), { "x-api-key": "nope" });
    expect(await bodyOf(wrong)).toMatchObject({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });
    const version = await anthropic(ask([{ role: "user", content: "hi" }]), { "anthropic-version": "" });
    expect(version.status).toBe(400);
    expect(server.requests.map((r) => r.status)).toEqual([401, 401, 400]);
  });

  test("tool pairing: results must answer the previous turn's calls, all of them, first in the message", async () => {
    const { id, assistant } = await anthropicToolTurn();
    const result = { type: "tool_result", tool_use_id: id, content: "A" };
    const reject = async (messages: unknown[], pattern: RegExp) => {
      const response = await anthropic(ask(messages));
      expect(response.status).toBe(400);
      expect((await bodyOf(response)).error.message).toMatch(pattern);
    };
    const hi = { role: "user", content: "hi" };
    await reject([hi, assistant, { role: "user", content: "go on" }], /^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_/);
    await reject([hi, assistant, { role: "user", content: [{ type: "text", text: "x" }, result] }], /Did not find 1 `tool_result` block\(s\) at the beginning/);
    await reject([hi, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01zzz", content: "?" }] }], /^messages\.1\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01zzz/);
    await reject([{ role: "system", content: "x" }, hi], /^messages\.0\.role: Input should be 'user' or 'assistant'/);
    await reject([{ role: "assistant", content: "x" }, hi], /first message must use the "user" role/);
    await reject([{ role: "user", content: [{ type: "text", text: "" }] }], /text content blocks must be non-empty/);
    await reject([hi, { ...assistant, content: [assistant.content[0], { ...assistant.content[1], id: "bad.id" }] }, { role: "user", content: [{ ...result, tool_use_id: "bad.id" }] }], /tool_use\.id: String should match pattern/);
    // Consecutive user messages are merged by the real API: results then text is fine.
    server.reply({});
    const ok = await anthropic(ask([hi, assistant, { role: "user", content: [result] }, { role: "user", content: "and?" }]));
    expect(ok.status).toBe(200);
  });

  test("thinking comes back only byte-identical with the server's own signature; redacted data only as issued", async () => {
    const { id, signature, assistant } = await anthropicToolTurn();
    const results = { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "A" }] };
    const send = (thinkingBlock: object, extra: object = {}) =>
      anthropic(ask([{ role: "user", content: "hi" }, { ...assistant, content: [thinkingBlock, assistant.content[1]] }, results], extra));
    server.reply({});
    expect((await send({ type: "thinking", thinking: "let me look", signature })).status).toBe(200);
    const edited = await send({ type: "thinking", thinking: "let me look!", signature });
    expect((await bodyOf(edited)).error.message).toBe("messages.1.content.0: Invalid `signature` in `thinking` block");
    const unsigned = await send({ type: "thinking", thinking: "let me look" });
    expect((await bodyOf(unsigned)).error.message).toBe("messages.1.content.0.thinking.signature: Field required");
    const redacted = await send({ type: "redacted_thinking", data: "forged" });
    expect(redacted.status).toBe(400);
    // With thinking on, the tool loop being continued must start with its thinking block.
    const thinkingOn = { thinking: { type: "enabled", budget_tokens: 2048 } };
    const noThinking = await anthropic(ask([{ role: "user", content: "hi" }, { ...assistant, content: [assistant.content[1]] }, results], thinkingOn));
    expect((await bodyOf(noThinking)).error.message).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`/);
    const budget = await anthropic(ask([{ role: "user", content: "hi" }], { max_tokens: 2000, thinking: { type: "enabled", budget_tokens: 2048 } }));
    expect((await bodyOf(budget)).error.message).toMatch(/`max_tokens` must be greater than `thinking.budget_tokens`/);
  });

  test("request shape: required fields, tool schemas, and unknown models when a list is configured", async () => {
    expect((await bodyOf(anthropic({ model: "m", messages: [] }))).error.message).toBe("max_tokens: Field required");
    expect((await bodyOf(anthropic(ask([{ role: "user", content: "hi" }], { stream_options: {} })))).error.message).toBe("stream_options: Extra inputs are not permitted");
    const tools = [{ name: "bad name", input_schema: { type: "object" } }];
    expect((await bodyOf(anthropic(ask([{ role: "user", content: "hi" }], { tools })))).error.message).toMatch(/^tools\.0\.custom\.name/);
    const schema = [{ name: "ok", input_schema: { type: "string" } }];
    expect((await bodyOf(anthropic(ask([{ role: "user", content: "hi" }], { tools: schema })))).error.message).toBe("tools.0.custom.input_schema.type: Input should be 'object'");
    await server.stop();
    server = await startTestServer({ knownModels: ["claude-sonnet-4-5"] });
    const unknown = await anthropic(ask([{ role: "user", content: "hi" }], { model: "claude-nope" }));
    expect(unknown.status).toBe(404);
    expect(await bodyOf(unknown)).toMatchObject({ error: { type: "not_found_error", message: "model: claude-nope" } });
  });
});

describe("OpenAI Chat Completions", () => {
  test("streams chunks: role, content, a tool call split across chunks, finish_reason, usage chunk, [DONE]", async () => {
    server.reply({ blocks: [{ type: "thinking", thinking: "hm" }, { type: "text", text: "hi" }, { type: "toolUse", name: "bash", input: { command: "ls" } }], usage: { input: 7, output: 9 }, chunk: 4 });
    const data = json(await events(await openai(chat([{ role: "user", content: "hi" }]))));
    expect(data.at(-1)).toBe("[DONE]");
    expect(data[0].choices[0].delta).toMatchObject({ role: "assistant" });
    const deltas = data.slice(0, -2).map((c: any) => c.choices[0].delta);
    expect(deltas.map((d: any) => d.reasoning_content ?? "").join("")).toBe("hm");
    const calls = deltas.flatMap((d: any) => d.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, type: "function", function: { name: "bash", arguments: "" } });
    expect(calls[0].id).toMatch(/^call_/);
    expect(calls.slice(1).every((c: any) => c.id === undefined && c.index === 0)).toBe(true);
    expect(calls.map((c: any) => c.function.arguments).join("")).toBe('{"command":"ls"}');
    expect(data.at(-3).choices[0].finish_reason).toBe("tool_calls");
    expect(data.at(-2)).toMatchObject({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 9, total_tokens: 16 } });
  });

  test("auth: a wrong bearer is 401 invalid_api_key and the message does not echo the key", async () => {
    const key = "sk-secret-key-that-must-not-leak";
    const response = await openai(chat([{ role: "user", content: "hi" }]), { authorization: `Bearer ${key}` });
    expect(response.status).toBe(401);
    const body = await bodyOf(response);
    expect(body.error.code).toBe("invalid_api_key");
    expect(body.error.message).not.toContain(key);
  });

  test("tool pairing, id length, roles and content as the real API checks them", async () => {
    const call = { id: "call_1", type: "function", function: { name: "bash", arguments: "{}" } };
    const reject = async (messages: unknown[], pattern: RegExp) => {
      const response = await openai(chat(messages));
      expect(response.status).toBe(400);
      const body = await bodyOf(response);
      expect(body.error.type).toBe("invalid_request_error");
      expect(body.error.message).toMatch(pattern);
    };
    const hi = { role: "user", content: "hi" };
    await reject([hi, { role: "tool", tool_call_id: "call_1", content: "x" }], /^Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'\.$/);
    await reject([hi, { role: "assistant", content: null, tool_calls: [call] }, hi], /The following tool_call_ids did not have response messages: call_1$/);
    await reject([hi, { role: "assistant", tool_calls: [{ ...call, id: "c".repeat(41) }] }, { role: "tool", tool_call_id: "c".repeat(41), content: "x" }], /string too long\. Expected a string with maximum length 40/);
    await reject([{ role: "robot", content: "x" }], /^Invalid value: 'robot'/);
    await reject([{ role: "user" }], /^Missing required parameter: 'messages\[0\]\.content'/);
    expect((await bodyOf(openai(chat([hi], { thinking: { type: "enabled" } })))).error.message).toBe("Unrecognized request argument supplied: thinking");
    const tools = [{ type: "function", name: "bash" }];
    expect((await bodyOf(openai(chat([hi], { tools })))).error.message).toBe("Missing required parameter: 'tools[0].function'.");
    server.reply({});
    const ok = await openai(chat([hi, { role: "assistant", content: null, tool_calls: [call] }, { role: "tool", tool_call_id: "call_1", content: "x" }]));
    expect(ok.status).toBe(200);
  });
});

describe("faults", () => {
  test("HTTP errors carry the real bodies and retry-after headers", async () => {
    server.reply({ fault: { status: 429, retryAfter: 2, retryAfterMs: 1500 } }, { fault: { status: 529 } }, { fault: { status: 429, code: "insufficient_quota" } });
    const limited = await anthropic(ask([{ role: "user", content: "hi" }]));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(limited.headers.get("retry-after-ms")).toBe("1500");
    expect((await bodyOf(limited)).error.type).toBe("rate_limit_error");
    const overloaded = await anthropic(ask([{ role: "user", content: "hi" }]));
    expect(await bodyOf(overloaded)).toMatchObject({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    const quota = await openai(chat([{ role: "user", content: "hi" }]));
    expect(await bodyOf(quota)).toMatchObject({ error: { type: "insufficient_quota", code: "insufficient_quota" } });
  });

  test("mid-stream: an overloaded error event, a dropped connection, a silent stall", async () => {
    server.reply({ fault: { midStream: "overloaded", afterEvents: 2 } });
    const overloaded = await events(await anthropic(ask([{ role: "user", content: "hi" }])));
    expect(overloaded.map((e) => e.event)).toEqual(["message_start", "content_block_start", "error"]);
    expect(JSON.parse(overloaded[2]!.data)).toEqual({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });

    server.reply({ fault: { midStream: "drop", afterEvents: 2 } });
    const dropped = await anthropic(ask([{ role: "user", content: "hi" }]));
    expect(dropped.status).toBe(200);
    let received = "";
    const failure = await (async () => {
      for await (const chunk of dropped.body!) received += new TextDecoder().decode(chunk);
    })().catch((error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(received).toContain("event: content_block_start");

    server.reply({ fault: { midStream: "stall", afterEvents: 1 } });
    const controller = new AbortController();
    const stalled = await anthropic(ask([{ role: "user", content: "hi" }]), {}, controller.signal);
    const reader = stalled.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("message_start");
    const next = Promise.race([reader.read().then(() => "data", () => "aborted"), Bun.sleep(200).then(() => "silent")]);
    expect(await next).toBe("silent");
    controller.abort();
  });

  test("splitBytes cuts events and UTF-8 characters anywhere, and reassembles to the same events", async () => {
    const reply = { blocks: [{ type: "text" as const, text: "naïve café 😀 ".repeat(20) }, { type: "toolUse" as const, id: "toolu_01x", name: "bash", input: { command: "é" } }] };
    server.reply(reply, { ...reply, splitBytes: true });
    const plain = await (await anthropic(ask([{ role: "user", content: "hi" }]))).text();
    const response = await anthropic(ask([{ role: "user", content: "hi" }]));
    const reads: Uint8Array[] = [];
    for await (const chunk of response.body!) reads.push(chunk);
    expect(reads.length).toBeGreaterThan(10);
    const split = new TextDecoder().decode(Buffer.concat(reads));
    const normalise = (text: string) => text.replace(/msg_01\w+/g, "msg");
    expect(normalise(split)).toBe(normalise(plain));
  });

  test("an empty script, or an onRequest hook that throws, answers 500 with a message the test can read", async () => {
    const empty = await anthropic(ask([{ role: "user", content: "hi" }]));
    expect(empty.status).toBe(500);
    expect((await bodyOf(empty)).error.message).toMatch(/no scripted reply/);
    server.onRequest = () => {
      throw new Error("file missing on disk");
    };
    const hooked = await openai(chat([{ role: "user", content: "hi" }]));
    expect(hooked.status).toBe(500);
    expect((await bodyOf(hooked)).error.message).toContain("file missing on disk");
  });

  test("raw replies are sent verbatim", async () => {
    const raw = ': keep-alive\n\ndata: {"choices":[{"delta":{"content":"x"},"finish_reason":"stop"}]}\n\n';
    server.reply({ raw });
    expect(await (await openai(chat([{ role: "user", content: "hi" }]))).text()).toBe(raw);
  });
});

describe("context windows", () => {
  const long = (bytes: number) => [{ role: "user", content: "x".repeat(bytes) }];

  test("Anthropic: a prompt over the window is refused as the API does, in the style the test picks; one under it is answered", async () => {
    await restart({ contextWindow: 1000 });
    const over = ask(long(4400));
    const n = promptTokens("anthropic", over);
    expect(n).toBeGreaterThan(1000);
    server.reply({});
    const refused = await anthropic(over);
    expect(refused.status).toBe(400);
    expect(await bodyOf(refused)).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: `prompt is too long: ${n} tokens > 1000 maximum` } });
    expect(server.requests.at(-1)!.status).toBe(400);
    expect(server.pending()).toBe(1); // a refused request takes no reply
    // Under the window it is answered, even though prompt + max_tokens is over it (newer models stop instead).
    const under = ask(long(3000), { max_tokens: 4096 });
    expect((await anthropic(under)).status).toBe(200);

    await restart({ contextWindow: 1000, overflowStyle: { anthropic: "input_and_max_tokens" } });
    const m = promptTokens("anthropic", under);
    const sum = await anthropic(under);
    expect(sum.status).toBe(400);
    expect((await bodyOf(sum)).error).toEqual({
      type: "invalid_request_error",
      message: `input length and \`max_tokens\` exceed context limit: ${m} + 4096 > 1000, decrease input length or \`max_tokens\` and try again`,
    });
    expect((await bodyOf(anthropic(over))).error.message).toBe(`prompt is too long: ${n} tokens > 1000 maximum`);
    server.reply({});
    expect((await anthropic(ask(long(3000), { max_tokens: 200 }))).status).toBe(200);

    await restart({ contextWindow: 1000, overflowStyle: { anthropic: "request_too_large" } });
    const large = await anthropic(over);
    expect(large.status).toBe(413);
    expect((await bodyOf(large)).error).toEqual({ type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." });

    // A window by model id applies to that model only.
    await restart({ contextWindow: { "claude-haiku-4-5": 1000 } });
    server.reply({});
    expect((await anthropic(over)).status).toBe(200);
    expect((await anthropic({ ...over, model: "claude-haiku-4-5" })).status).toBe(400);
  });

  test("OpenAI and compatible servers: each overflow wording, status and body shape", async () => {
    const over = chat(long(4400), { max_completion_tokens: 100 });
    const n = promptTokens("openai", over);
    expect(n).toBeGreaterThan(1000);
    const refusal = async (options: TestServerOptions) => {
      await restart({ contextWindow: 1000, ...options });
      const response = await openai(over);
      expect(response.status).toBe(400);
      expect(server.requests.at(-1)!.status).toBe(400);
      return bodyOf(response);
    };
    expect(await refusal({})).toEqual({
      error: {
        message: `This model's maximum context length is 1000 tokens. However, your messages resulted in ${n} tokens. Please reduce the length of the messages.`,
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    });
    expect(await refusal({ overflowStyle: { openai: "exceeds_context_window" } })).toEqual({
      error: { message: "Your input exceeds the context window of this model. Please adjust your input and try again.", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" },
    });
    expect(await refusal({ overflowStyle: { openai: "llama_cpp" } })).toEqual({
      error: { code: 400, message: `request (${n} tokens) exceeds the available context size (1000 tokens), try increasing it`, type: "exceed_context_size_error", n_prompt_tokens: n, n_ctx: 1000 },
    });
    expect(await refusal({ overflowStyle: { openai: "vllm" } })).toEqual({
      object: "error",
      message: `This model's maximum context length is 1000 tokens. However, you requested ${n + 100} tokens (${n} in the messages, 100 in the completion). Please reduce the length of the messages or completion.`,
      type: "BadRequestError",
      param: null,
      code: 400,
    });
    // vLLM counts the completion: a prompt that fits is refused when the completion does not.
    const fits = chat(long(3000), { max_completion_tokens: 900 });
    expect((await openai(fits)).status).toBe(400);
    server.reply({});
    expect((await openai(chat(long(3000)))).status).toBe(200);
  });
});

describe("Anthropic prompt caching", () => {
  const marker = { type: "ephemeral" };
  const text = (t: string, cache = false) => ({ type: "text", text: t, ...(cache ? { cache_control: marker } : {}) });

  test("cache_control is checked as the API checks it: at most 4, only where allowed, ephemeral with a 5m/1h ttl, 1h before 5m", async () => {
    const refuse = async (body: object, message: string) => {
      const response = await anthropic(body);
      expect(response.status).toBe(400);
      expect(await bodyOf(response)).toMatchObject({ type: "error", error: { type: "invalid_request_error", message } });
    };
    const tools = [{ name: "read", input_schema: { type: "object" }, cache_control: marker }];
    const system = [text("you are awl", true)];
    const four = [{ role: "user", content: [text("a", true), text("b", true)] }, { role: "assistant", content: "ok" }, { role: "user", content: [text("c", true)] }];
    await refuse(ask(four, { tools, system }), "A maximum of 4 blocks with cache_control may be provided. Found 5.");
    server.reply({});
    expect((await anthropic(ask(four.slice(0, 1), { tools, system }))).status).toBe(200);
    // The top-level (automatic) marker takes a slot too.
    await refuse(ask(four, { system, cache_control: marker }), "A maximum of 4 blocks with cache_control may be provided. Found 5.");

    await refuse(ask([{ role: "user", content: [text("a", true)] }], { system: [{ type: "text", text: "s", cache_control: { type: "persistent" } }] }), "system.0.cache_control.type: Input should be 'ephemeral'");
    await refuse(ask([{ role: "user", content: [{ ...text("a"), cache_control: { type: "ephemeral", ttl: "10m" } }] }]), "messages.0.content.0.text.cache_control.ttl: Input should be '5m' or '1h'");
    await refuse(ask([{ role: "user", content: [text("a", true), { ...text("b"), cache_control: { type: "ephemeral", ttl: "1h" } }] }]),
      "messages.0.content.1.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.");
    await refuse(ask([{ role: "user", content: [text("a"), { type: "text", text: "", cache_control: marker }] }]), "messages.0.content.1.text: cache_control cannot be set for empty text blocks");
    await refuse(ask([{ role: "user", content: "hi" }], { system: [{ type: "image", text: "s" }] }), "system.0.type: Input should be 'text'");

    // Thinking blocks cannot carry it.
    const { id, signature, assistant } = await anthropicToolTurn();
    const results = { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "A", cache_control: marker }] };
    const marked = { ...assistant, content: [{ type: "thinking", thinking: "let me look", signature, cache_control: marker }, assistant.content[1]] };
    await refuse(ask([{ role: "user", content: "hi" }, marked, results]), "messages.1.content.0.thinking.cache_control: Extra inputs are not permitted");
    server.reply({});
    expect((await anthropic(ask([{ role: "user", content: "hi" }, assistant, results]))).status).toBe(200);
  });

  test("a tool loop with moving breakpoints reads the shared prefix and writes only what is new", async () => {
    const hour = { type: "ephemeral", ttl: "1h" };
    const tools = [{ name: "read", description: "d".repeat(2000), input_schema: { type: "object" }, cache_control: hour }];
    const system = [{ type: "text", text: "s".repeat(3000), cache_control: hour }];
    const u1 = { role: "user", content: [text("read the notes, all of them: " + "n".repeat(2000), true)] };
    const first = ask([u1], { tools, system });
    const total1 = promptTokens("anthropic", first);
    const upToSystem = promptTokens("anthropic", { tools, system });
    expect(total1).toBeGreaterThan(1024);
    // First request: nothing cached yet; everything up to the last breakpoint is written, the system part for an hour.
    expect(await anthropicUsage(first)).toEqual({ input: 0, read: 0, write: total1, byTtl: { ephemeral_5m_input_tokens: total1 - upToSystem, ephemeral_1h_input_tokens: upToSystem } });

    // The loop continues: the breakpoint moves to the tool result; the previous one stays on the user's prompt.
    const a1 = { role: "assistant", content: [{ type: "text", text: "Reading." }, { type: "tool_use", id: "toolu_01a", name: "read", input: { path: "notes" } }] };
    const u2 = { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01a", content: "r".repeat(800), cache_control: marker }] };
    const second = ask([u1, a1, u2], { tools, system });
    const total2 = promptTokens("anthropic", second);
    const usage2 = await anthropicUsage(second);
    expect(usage2).toMatchObject({ input: 0, read: total1, write: total2 - total1 });

    // Without a breakpoint on the newest block, the part after the last one is plain input.
    const u2plain = { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01a", content: "r".repeat(800) }, text("and now?")] };
    const third = ask([u1, a1, u2plain], { tools, system });
    const usage3 = await anthropicUsage(third);
    expect(usage3).toMatchObject({ read: total1, write: 0, input: promptTokens("anthropic", third) - total1 });
    expect(usage3.input).toBeLessThan(total1);

    // Top-level cache_control marks the last block itself.
    const auto = ask([u1, a1, u2plain], { tools, system: "s".repeat(3000), cache_control: marker });
    const usage4 = await anthropicUsage(auto);
    expect(usage4).toMatchObject({ input: 0 });
    expect(usage4.read + usage4.write).toBe(promptTokens("anthropic", auto));
  });

  test("a prefix under the model's minimum is not cached (no error); the minimum is per model and configurable", async () => {
    const short = ask([{ role: "user", content: [text("q".repeat(2000), true)] }]); // ~500 tokens
    const n = promptTokens("anthropic", short);
    expect(await anthropicUsage(short)).toMatchObject({ input: n, read: 0, write: 0 });
    expect(await anthropicUsage(short)).toMatchObject({ input: n, read: 0, write: 0 });
    // 2,000 tokens: enough for Sonnet (1024), not for Haiku 4.5 (4096).
    const mid = ask([{ role: "user", content: [text("q".repeat(8000), true)] }]);
    const m = promptTokens("anthropic", mid);
    expect(await anthropicUsage(mid)).toMatchObject({ write: m });
    expect(await anthropicUsage({ ...mid, model: "claude-haiku-4-5" })).toMatchObject({ input: m, write: 0 });
    // Caches are per model: Sonnet's entry is not Haiku's.
    expect(await anthropicUsage({ ...mid, model: "claude-haiku-4-5" })).toMatchObject({ read: 0 });
    await restart({ minCacheableTokens: 100 });
    expect(await anthropicUsage(short)).toMatchObject({ input: 0, write: n });
    expect(await anthropicUsage(short)).toMatchObject({ input: 0, read: n, write: 0 });
  });

  test("a cache hit is found within 20 blocks before a breakpoint, not further back", async () => {
    const head = text("h".repeat(6000), true);
    const blocks = (count: number) => Array.from({ length: count }, (_, i) => text(`block ${i + 1}`, i === count - 1));
    await anthropicUsage(ask([{ role: "user", content: [head] }])); // caches the prefix ending at block 0
    const headTokens = promptTokens("anthropic", ask([{ role: "user", content: [text("h".repeat(6000))] }]));
    // 21 blocks later: out of reach.
    const far = ask([{ role: "user", content: [text("h".repeat(6000)), ...blocks(21)] }]);
    expect(await anthropicUsage(far)).toMatchObject({ read: 0, write: promptTokens("anthropic", far) });
    // 20 blocks later: found.
    const near = ask([{ role: "user", content: [text("h".repeat(6000)), ...blocks(20)] }]);
    expect(await anthropicUsage(near)).toMatchObject({ read: headTokens, write: promptTokens("anthropic", near) - headTokens });
  });

  test("a reply's scripted usage wins over the server's accounting", async () => {
    const body = ask([{ role: "user", content: [text("q".repeat(8000), true)] }]);
    server.reply({ usage: { input: 10, output: 20, cacheRead: 30, cacheWrite: 40 } });
    const start = json(await events(await anthropic(body)))[0];
    expect(start.message.usage).toMatchObject({ input_tokens: 10, cache_read_input_tokens: 30, cache_creation_input_tokens: 40 });
    // The request was still cached: the next one reads it.
    expect(await anthropicUsage(body)).toMatchObject({ read: promptTokens("anthropic", body), write: 0 });
  });
});

describe("OpenAI automatic caching", () => {
  // The serialized messages around a system prompt: {"role":"system","content":"…"}{"role":"user","content":"…
  const framing = '{"role":"system","content":""}{"role":"user","content":"'.length;

  test("cached_tokens is the common prefix with an earlier prompt, from 1024 tokens on, in steps of 128", async () => {
    const system = { role: "system", content: "s".repeat(12000 - framing) }; // shared prefix: exactly 12,000 bytes = 3,000 tokens
    const first = chat([system, { role: "user", content: "A".repeat(400) }]);
    const second = chat([system, { role: "user", content: "B".repeat(400) }]);
    expect(await openaiUsage(first)).toMatchObject({ prompt_tokens: promptTokens("openai", first), prompt_tokens_details: { cached_tokens: 0 } });
    const usage = await openaiUsage(second);
    expect(usage).toMatchObject({ prompt_tokens: promptTokens("openai", second), prompt_tokens_details: { cached_tokens: 2944 } }); // 1024 + 15 * 128
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    // Another model has its own cache.
    expect(await openaiUsage({ ...second, model: "gpt-5" })).toMatchObject({ prompt_tokens_details: { cached_tokens: 0 } });
    // Under 1024 shared tokens: nothing.
    const small = { role: "system", content: "t".repeat(4000) };
    await openaiUsage(chat([small, { role: "user", content: "A" }]));
    expect(await openaiUsage(chat([small, { role: "user", content: "B" }]))).toMatchObject({ prompt_tokens_details: { cached_tokens: 0 } });
  });

  test("the minimum is configurable for small test windows", async () => {
    await restart({ minCacheableTokens: 100, contextWindow: 1000 });
    const system = { role: "system", content: "s".repeat(2000 - framing) }; // 500 shared tokens
    await openaiUsage(chat([system, { role: "user", content: "A" }]));
    expect(await openaiUsage(chat([system, { role: "user", content: "B" }]))).toMatchObject({ prompt_tokens_details: { cached_tokens: 484 } }); // 100 + 3 * 128
  });
});

describe("thinking across a tool loop, as Anthropic's extended-thinking docs state it", () => {
  const thinkingOn = { thinking: { type: "enabled", budget_tokens: 2048 } };
  /** A tool loop of two calls: the turn's first message thinks (or not), the second never does. */
  async function loop(firstThinks: boolean) {
    const { id, assistant } = await anthropicToolTurn();
    const first = firstThinks ? assistant : { ...assistant, content: [assistant.content[1]] };
    const second = { role: "assistant", content: [{ type: "tool_use", id: "toolu_second", name: "read", input: { path: "b" } }] };
    const result = (toolId: string) => ({ role: "user", content: [{ type: "tool_result", tool_use_id: toolId, content: "x" }] });
    return { first, second, result, id };
  }

  test("a tool loop is one turn: it must start with thinking, and its later messages need not", async () => {
    const { first, second, result, id } = await loop(true);
    server.reply({});
    const ok = await anthropic(ask([{ role: "user", content: "hi" }, first, result(id), second, result("toolu_second")], thinkingOn));
    expect(ok.status).toBe(200);
  });

  test("a turn whose first message does not think is refused, pointing at that first message, however far back", async () => {
    const { first, second, result, id } = await loop(false);
    const refused = await anthropic(ask([{ role: "user", content: "hi" }, first, result(id), second, result("toolu_second")], thinkingOn));
    expect(refused.status).toBe(400);
    expect((await bodyOf(refused)).error.message).toMatch(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\. When `thinking` is enabled, a final `assistant` message must start with a thinking block/);
    // A new prompt starts a new turn: the old one is no longer held to it.
    server.reply({});
    const next = await anthropic(ask([{ role: "user", content: "hi" }, first, result(id), { role: "assistant", content: [{ type: "text", text: "done" }] }, { role: "user", content: "next" }], thinkingOn));
    expect(next.status).toBe(200);
  });

  test("without interleaved thinking the model thinks once, at the start of the turn: a reply inside the loop comes without its thinking", async () => {
    const { first, result, id } = await loop(true);
    const scripted = { blocks: [{ type: "thinking" as const, thinking: "between calls" }, { type: "text" as const, text: "done" }] };
    const types = async (model: string, headers: Record<string, string>) => {
      server.reply(scripted);
      const response = await anthropic(ask([{ role: "user", content: "hi" }, first, result(id)], { ...thinkingOn, model }), headers);
      expect(response.status).toBe(200);
      return json(await events(response)).filter((e: any) => e.type === "content_block_start").map((e: any) => e.content_block.type);
    };
    const beta = { "anthropic-beta": "interleaved-thinking-2025-05-14" };
    expect(await types("claude-sonnet-4-5", {})).toEqual(["text"]);
    expect(await types("claude-sonnet-4-5", beta)).toEqual(["thinking", "text"]); // Claude 4 with the beta thinks between calls
    expect(await types("claude-3-7-sonnet-20250219", beta)).toEqual(["text"]); // the beta has no effect on other models
  });

  test("with interleaved thinking the budget may pass max_tokens (it is the whole turn's); without it, it may not", async () => {
    const body = ask([{ role: "user", content: "hi" }], { max_tokens: 2000, thinking: { type: "enabled", budget_tokens: 8000 } });
    server.reply({});
    expect((await anthropic(body, { "anthropic-beta": "interleaved-thinking-2025-05-14" })).status).toBe(200);
    expect((await bodyOf(anthropic(body))).error.message).toMatch(/`max_tokens` must be greater than `thinking.budget_tokens`/);
  });

  test("an anthropic-beta value the API does not know is refused with its wording; known ones (from the SDK's list) pass", async () => {
    const refused = await anthropic(ask([{ role: "user", content: "hi" }]), { "anthropic-beta": "interleaved-thinking-2025-04-14, context-1m-2025-08-07" });
    expect(refused.status).toBe(400);
    expect((await bodyOf(refused)).error).toEqual({
      type: "invalid_request_error",
      message: "Unexpected value(s) `interleaved-thinking-2025-04-14` for the `anthropic-beta` header. Please consult our documentation at docs.anthropic.com or try again without the header.",
    });
    server.reply({});
    expect((await anthropic(ask([{ role: "user", content: "hi" }]), { "anthropic-beta": "interleaved-thinking-2025-05-14,context-1m-2025-08-07" })).status).toBe(200);
  });
});

describe("the stream shapes awl used to misread", () => {
  test("OpenAI streams a refusal in delta.refusal, opened by a chunk with content null, and ends with finish_reason stop", async () => {
    server.reply({ blocks: [{ type: "refusal", refusal: "I can't help." }], chunk: 7 });
    const chunks = json(await events(await openai(chat([{ role: "user", content: "x" }]))));
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: null, refusal: "" });
    expect(chunks.slice(1, 4).map((c: any) => c.choices[0].delta)).toEqual([{ refusal: "I can't" }, { refusal: " help." }, {}]);
    expect(chunks[3].choices[0].finish_reason).toBe("stop");
    // Non-streaming: the message's refusal field.
    server.reply({ blocks: [{ type: "refusal", refusal: "No." }] });
    const whole = await bodyOf(openai({ model: "gpt-5-mini", messages: [{ role: "user", content: "x" }] }));
    expect(whole.choices[0]).toMatchObject({ message: { content: null, refusal: "No." }, finish_reason: "stop" });
    // Anthropic has no refusal field: the text, and stop_reason "refusal".
    server.reply({ blocks: [{ type: "refusal", refusal: "No." }] });
    const claude = json(await events(await anthropic(ask([{ role: "user", content: "x" }]))));
    expect(claude.find((e: any) => e.type === "message_delta").delta.stop_reason).toBe("refusal");
  });

  test("a named `event: error` with whatever data the script gives (wrapped, bare, null), then the end", async () => {
    for (const data of [{ error: { message: "boom", type: "server_error" } }, { message: "boom", type: "server_error" }, null]) {
      server.reply({ fault: { midStream: "errorEvent", afterEvents: 1, data } });
      const got = await events(await openai(chat([{ role: "user", content: "x" }])));
      expect(got).toHaveLength(2);
      expect(got[1]).toEqual({ event: "error", data: JSON.stringify(data) });
    }
  });

  test("a 200 that is not an event stream: the protocol's whole JSON answer, or any body with its content type", async () => {
    server.reply({ nonStream: "json", blocks: [{ type: "text", text: "whole" }] });
    const whole = await openai(chat([{ role: "user", content: "x" }]));
    expect([whole.status, whole.headers.get("content-type")]).toEqual([200, "application/json;charset=utf-8"]);
    expect(((await whole.json()) as any).choices[0].message.content).toBe("whole");
    server.reply({ nonStream: { contentType: "text/html", body: "<html>login</html>" } });
    const page = await anthropic(ask([{ role: "user", content: "x" }]));
    expect([page.status, page.headers.get("content-type"), await page.text()]).toEqual([200, "text/html", "<html>login</html>"]);
  });
});

describe("thinking, per model", () => {
  const user = (text: string) => ({ role: "user", content: [{ type: "text", text }] });
  const refusal = async (body: object) => {
    const response = await anthropic(body);
    return [response.status, (await bodyOf(response)).error?.message];
  };

  test("each model's form: adaptive-only refuses a budget, budget-only refuses adaptive, always-on refuses disabled; levels per model", async () => {
    expect(await refusal(ask([user("hi")], { model: "claude-opus-4-7", thinking: { type: "enabled", budget_tokens: 2048 } }))).toEqual([
      400,
      '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.',
    ]);
    expect(await refusal(ask([user("hi")], { model: "claude-haiku-4-5", thinking: { type: "adaptive" } }))).toEqual([400, "adaptive thinking is not supported on this model"]);
    expect((await refusal(ask([user("hi")], { model: "claude-fable-5", thinking: { type: "disabled" } })))[0]).toBe(400);
    expect((await refusal(ask([user("hi")], { model: "claude-sonnet-4-6", output_config: { effort: "xhigh" } })))[0]).toBe(400);
    expect((await refusal(ask([user("hi")], { model: "claude-sonnet-4-5", output_config: { effort: "low" } })))[0]).toBe(400);
    server.reply({}, {});
    expect((await anthropic(ask([user("hi")], { model: "claude-sonnet-4-6", thinking: { type: "enabled", budget_tokens: 2048 } }))).status).toBe(200);
    expect((await anthropic(ask([user("hi")], { model: "claude-opus-4-7", thinking: { type: "adaptive" }, output_config: { effort: "xhigh" } }))).status).toBe(200);
  });

  test("preserved thinking: a replayed block is refused once anything before it changed", async () => {
    const model = "claude-opus-5-5";
    const thinking = { type: "adaptive", display: "summarized" }; // its thinking text is otherwise omitted
    server.reply({ blocks: [{ type: "thinking", thinking: "bound" }, { type: "text", text: "a" }] });
    const first = json(await events(await anthropic(ask([user("one")], { model, system: "s", thinking }))));
    const signature = first.find((e: any) => e.delta?.type === "signature_delta").delta.signature;
    const history = [user("one"), { role: "assistant", content: [{ type: "thinking", thinking: "bound", signature }, { type: "text", text: "a" }] }, user("two")];
    server.reply({});
    expect((await anthropic(ask(history, { model, system: "s", thinking }))).status).toBe(200);
    const [status, message] = await refusal(ask(history, { model, system: "changed", thinking }));
    expect(status).toBe(400);
    expect(message).toContain("messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation.");
    expect((await refusal(ask([user("a summary instead"), ...history.slice(1)], { model, system: "s", thinking })))[0]).toBe(400);
  });
});

test("a cache entry serves only requests of the same thinking configuration", async () => {
  const long = { role: "user", content: [{ type: "text", text: "x".repeat(8000), cache_control: { type: "ephemeral" } }] };
  const body = (thinking?: object) => ask([long], { model: "claude-sonnet-4-6", ...(thinking ? { thinking } : {}) });
  expect((await anthropicUsage(body())).read).toBe(0);
  expect((await anthropicUsage(body())).read).toBeGreaterThan(0);
  expect((await anthropicUsage(body({ type: "adaptive" }))).read).toBe(0);
  expect((await anthropicUsage(body({ type: "adaptive" }))).read).toBeGreaterThan(0);
});
