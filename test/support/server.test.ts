// Self-tests of the test server with raw fetch: that it streams each protocol
// as the real API does, rejects what the real API rejects, and injects each
// fault. awl's provider tests are the real coverage; these pin the server.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { type TestServer, startTestServer } from "./server";

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
