// The APIs' own rules, each against the strict test server (issue 11, items
// 15-17): thinking across a tool loop, tool-call arguments that are not JSON,
// and the OpenAI stream events awl used to misread.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Message } from "../../src/conversation";
import type { ProviderName } from "../../src/providers/provider";
import { serverFixture, user } from "./fixture";

let fx: Awaited<ReturnType<typeof serverFixture>>;
beforeAll(async () => (fx = await serverFixture()));
afterAll(() => fx.stop());


const results = (message: Message): Message => ({
  role: "user",
  content: message.content.flatMap((b) => (b.type === "toolUse" ? [{ type: "toolResult" as const, toolUseId: b.id, content: `ran ${b.name}` }] : [])),
});

/** Runs a tool loop of `replies.length` requests, thinking on; returns every request's message and what was sent. */
async function toolLoop(model: string, ...replies: Parameters<typeof fx.server.reply>) {
  fx.server.reply(...replies);
  const history: Message[] = [user("fix the build")];
  const messages: Message[] = [];
  const { requests } = await fx.requestsDuring(async () => {
    for (let i = 0; i < replies.length; i++) {
      const { end, message } = await fx.ask("anthropic", history, { thinking: true, model });
      expect(end.errorMessage).toBeUndefined();
      messages.push(message);
      history.push(message);
      if (end.stopReason === "toolUse") history.push(results(message));
    }
  });
  return { messages, requests };
}

const read = (path: string) => ({ type: "toolUse" as const, name: "read", input: { path } });

describe("thinking across a tool loop (Anthropic)", () => {
  test("the whole loop is one turn: thinking stays on from its third request on, decided by the turn's first message", async () => {
    // Claude 3.7 has no interleaved thinking: it thinks once, at the start of the turn.
    const { requests } = await toolLoop(
      "claude-3-7-sonnet-20250219",
      { blocks: [{ type: "thinking", thinking: "plan: read a, then b" }, read("a")] },
      { blocks: [read("b")] },
      { blocks: [read("c")] },
      { blocks: [{ type: "text", text: "fixed" }] },
    );
    expect(requests.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(requests.map((r) => r.body.thinking?.type)).toEqual(["enabled", "enabled", "enabled", "enabled"]);
    // No beta header for a model that has no interleaved thinking (Bedrock and Vertex refuse it).
    expect(requests.map((r) => r.headers["anthropic-beta"])).toEqual([undefined, undefined, undefined, undefined]);
    // The turn's first assistant message, with its signed thinking, goes back every time.
    expect(requests[3]!.body.messages[1].content[0]).toMatchObject({ type: "thinking", thinking: "plan: read a, then b" });
  });

  test("Claude 4 models get the interleaved-thinking beta and think between tool calls; the thinking comes back signed", async () => {
    const { messages, requests } = await toolLoop(
      "claude-sonnet-4-5",
      { blocks: [{ type: "thinking", thinking: "start with a" }, read("a")] },
      { blocks: [{ type: "thinking", thinking: "a says look at b" }, read("b")] },
      { blocks: [{ type: "thinking", thinking: "b settles it" }, { type: "text", text: "fixed" }] },
    );
    expect(requests.map((r) => [r.status, r.headers["anthropic-beta"], r.body.thinking?.type])).toEqual([
      [200, "interleaved-thinking-2025-05-14", "enabled"],
      [200, "interleaved-thinking-2025-05-14", "enabled"],
      [200, "interleaved-thinking-2025-05-14", "enabled"],
    ]);
    expect(messages.map((m) => m.content[0])).toMatchObject([
      { type: "thinking", thinking: "start with a" },
      { type: "thinking", thinking: "a says look at b" },
      { type: "thinking", thinking: "b settles it" },
    ]);
    expect(requests[2]!.body.messages[3].content[0]).toMatchObject({ type: "thinking", thinking: "a says look at b" });
  });

  test("without thinking there is no beta header; a loop that began without thinking (another provider's) goes without it", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "hi" }] });
    const { requests: plain } = await fx.requestsDuring(() => fx.ask("anthropic", [user("hi")], { model: "claude-opus-4-1" }));
    expect([plain[0]!.headers["anthropic-beta"], plain[0]!.body.thinking]).toEqual([undefined, undefined]);

    const foreign: Message = { role: "assistant", content: [{ type: "toolUse", id: "call_1", name: "read", input: '{"path":"a"}' }] };
    const history = [user("go"), foreign, results(foreign), { role: "assistant", content: [{ type: "toolUse", id: "toolu_2", name: "read", input: '{"path":"b"}' }] } as Message];
    fx.server.reply({ blocks: [{ type: "text", text: "done" }] });
    const { result, requests } = await fx.requestsDuring(() => fx.ask("anthropic", [...history, results(history[3]!)], { thinking: true }));
    expect([result.end.stopReason, requests[0]!.status, requests[0]!.body.thinking]).toEqual(["stop", 200, undefined]);
  });
});

describe("tool-call arguments that are not JSON never poison a session", () => {
  const cut: Message = { role: "assistant", content: [{ type: "text", text: "writing it" }, { type: "toolUse", id: "call_cut", name: "write", input: '{"path":"a.ts","content":"export const' }] };

  test.each([
    ["cut off by the output limit", cut],
    ["not JSON at all", { role: "assistant", content: [{ type: "toolUse", id: "call_bad", name: "bash", input: "ls -la" }] } as Message],
    ["JSON but not an object", { role: "assistant", content: [{ type: "toolUse", id: "call_arr", name: "bash", input: '["ls"]' }] } as Message],
  ])("a call %s is replayed to OpenAI as valid JSON, and every later request is accepted", async (_, call) => {
    const id = (call.content.find((b) => b.type === "toolUse") as { id: string }).id;
    const raw = (call.content.find((b) => b.type === "toolUse") as { input: string }).input;
    const history: Message[] = [user("write a.ts"), call, { role: "user", content: [{ type: "toolResult", toolUseId: id, content: "invalid input", isError: true }, { type: "text", text: "try again" }] }];
    fx.server.reply({ blocks: [{ type: "text", text: "ok" }] }, { blocks: [{ type: "text", text: "still ok" }] });
    const { result, requests } = await fx.requestsDuring(() => fx.ask("openai", history));
    expect([result.end.stopReason, requests[0]!.status]).toEqual(["stop", 200]);
    const sent = requests[0]!.body.messages[2].tool_calls[0].function.arguments;
    expect(JSON.parse(sent)).toEqual({ invalid_json_input: raw });
    expect((await fx.ask("openai", [...history, result.message, user("and again")])).end.stopReason).toBe("stop");
  });

  test("a call Anthropic's stream cut at max_tokens goes to OpenAI after a switch, accepted", async () => {
    fx.server.reply({ blocks: [{ type: "toolUse", name: "bash", input: '{"command":"echo hel' }], stop: "length" });
    const first = await fx.ask("anthropic", [user("say hello")]);
    expect(first.end.stopReason).toBe("length");
    const call = first.message.content.find((b) => b.type === "toolUse")!;
    expect(call).toMatchObject({ input: '{"command":"echo hel' }); // the log keeps the raw text
    fx.server.reply({ blocks: [{ type: "text", text: "hello" }] });
    const { result, requests } = await fx.requestsDuring(() => fx.ask("openai", [user("say hello"), first.message, user("go on")]));
    expect([result.end.stopReason, requests[0]!.status]).toEqual(["stop", 200]);
  });

  test("the server refuses such arguments as OpenAI does, so the test above would catch a regression", async () => {
    const body = { model: "gpt-5-mini", messages: [{ role: "user", content: "x" }, { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "bash", arguments: '{"command":"ec' } }] }, { role: "tool", tool_call_id: "c", content: "r" }] };
    const response = await fetch(`${fx.server.openaiUrl}/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${fx.server.openaiKey}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error).toEqual({
      message: "Invalid 'messages[1].tool_calls[0].function.arguments': arguments not a JSON string.",
      type: "invalid_request_error",
      param: "messages[1].tool_calls[0].function.arguments",
      code: "invalid_value",
    });
  });
});

describe("OpenAI stream events", () => {
  test("a delta.refusal is the answer's text, and the response ends as a refusal: an error that is not retried", async () => {
    fx.server.reply({ blocks: [{ type: "refusal", refusal: "I can't help with that request." }] });
    const { result, requests } = await fx.requestsDuring(() => fx.ask("openai", [user("something bad")]));
    expect(requests).toHaveLength(1);
    expect(result.message.content).toEqual([{ type: "text", text: "I can't help with that request." }]);
    expect(result.end).toMatchObject({ stopReason: "error", errorMessage: "The model declined to answer (refusal)" });
  });

  test.each([
    ["wrapped", { error: { message: "The model produced invalid content.", type: "invalid_request_error", param: null, code: "invalid_prompt" } }, "OpenAI stream error (invalid_prompt): The model produced invalid content."],
    ["bare", { message: "The model produced invalid content.", type: "invalid_request_error", code: "invalid_prompt" }, "OpenAI stream error (invalid_prompt): The model produced invalid content."],
    ["null", null, "OpenAI stream error: no details"],
  ])("an SSE `event: error` (%s data) is the API's error: one line, not retried as a dropped connection", async (_, data, line) => {
    fx.server.reply({ blocks: [{ type: "text", text: "partial" }], fault: { midStream: "errorEvent", afterEvents: 0, data } });
    const { result, requests } = await fx.requestsDuring(() => fx.ask("openai", [user("hi")]));
    expect(requests).toHaveLength(1);
    expect(result.retries).toEqual([]);
    expect(result.end).toMatchObject({ stopReason: "error", errorMessage: line });
  });

  test("an `event: error` that says the server is overloaded is retried, as the same error in a data chunk is", async () => {
    fx.server.reply(
      { fault: { midStream: "errorEvent", afterEvents: 1, data: { message: "The server is overloaded or not ready yet.", type: "server_error", code: null } } },
      { blocks: [{ type: "text", text: "fine" }] },
    );
    const { result, requests } = await fx.requestsDuring(() => fx.ask("openai", [user("hi")]));
    expect([requests.length, result.end.stopReason, result.retries.length]).toEqual([2, "stop", 1]);
  });

  test("Anthropic's `event: error` with null data is one line too, not a TypeError", async () => {
    fx.server.reply({ fault: { midStream: "errorEvent", afterEvents: 1, data: null } });
    const { result, requests } = await fx.requestsDuring(() => fx.ask("anthropic", [user("hi")]));
    expect(requests).toHaveLength(1);
    expect(result.end).toMatchObject({ stopReason: "error", errorMessage: "Anthropic stream error: no details" });
  });
});

describe.each(["anthropic", "openai"] as ProviderName[])("a 200 that is not an event stream (%s)", (name) => {
  const variable = name === "anthropic" ? "ANTHROPIC_BASE_URL" : "OPENAI_BASE_URL";
  const label = name === "anthropic" ? "Anthropic" : "OpenAI";

  test("an HTML page says so, with its title, and is not retried", async () => {
    const page = "<!DOCTYPE html><html><head><title>Sign in to the Wi-Fi</title></head><body>Log in first</body></html>";
    fx.server.reply({ nonStream: { contentType: "text/html; charset=utf-8", body: page } });
    const { result, requests } = await fx.requestsDuring(() => fx.ask(name, [user("hi")]));
    expect(requests).toHaveLength(1);
    expect(result.end.stopReason).toBe("error");
    expect(result.end.errorMessage).toBe(`${label} (${fx.server.url}) answered with an HTML page ("Sign in to the Wi-Fi"), not an event stream: check ${variable}`);
  });

  test("a JSON answer (a server that ignores stream: true) says so and is not retried", async () => {
    fx.server.reply({ nonStream: "json", blocks: [{ type: "text", text: "whole answer" }] });
    const { result, requests } = await fx.requestsDuring(() => fx.ask(name, [user("hi")]));
    expect(requests).toHaveLength(1);
    expect(result.end.errorMessage).toBe(`${label} (${fx.server.url}) answered with JSON instead of an event stream: the server does not stream (it ignored "stream": true)`);
  });

  test("a JSON error with status 200 (some proxies answer so) is read as the API's error", async () => {
    fx.server.reply({ nonStream: { contentType: "application/json", body: JSON.stringify({ error: { message: "upstream quota exhausted", type: "insufficient_quota" } }) } });
    const { result, requests } = await fx.requestsDuring(() => fx.ask(name, [user("hi")]));
    expect(requests).toHaveLength(1);
    expect(result.end.errorMessage).toBe(`${label} answered 200 with an error instead of a stream (insufficient_quota): upstream quota exhausted`);
  });
});
