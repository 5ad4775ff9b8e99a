// toWire fed the histories real logs hold: each must come out
// valid for its API, and the conversation itself must stay untouched.
import { describe, expect, test } from "bun:test";
import { Conversation, type Message } from "../../src/conversation";
import { toWire as anthropicWire, requestBody as anthropicBody, toolInput } from "../../src/providers/anthropic-wire";
import { NOT_RUN_RESULT } from "../../src/providers/history";
import { toWire as openaiWire } from "../../src/providers/openai-wire";
import { requestBody as responsesBody } from "../../src/providers/responses-wire";
import { ReasoningSealer, validateResponses } from "../support/responses-protocol";
import { normalizeToolId } from "../../src/providers/tool-ids";

/** The Anthropic account the requests go to. */
const here = { api: "anthropic-messages", fingerprint: "0123456789ab" };
/** The OpenAI account of the Responses requests, and reasoning it issued. */
const responsesHere = { api: "openai-responses", fingerprint: "fedcba987654" };
const sealer = new ReasoningSealer();
const sealed = sealer.seal("sk-test", "gpt-5", "reasoned");
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const call = (id: string, name = "read", input = '{"path":"a"}') => ({ type: "toolUse" as const, id, name, input });
const result = (toolUseId: string, content = "ok", isError?: boolean) => ({
  type: "toolResult" as const, toolUseId, content, ...(isError ? { isError } : {}),
});

const foreignId = "functions.read:0.with-a-very-long-suffix-from-some-compatible-server-xyz";
const hostile = (): Message[] => [
  { role: "system", content: [{ type: "text", text: "sys" }] },
  { role: "assistant", content: [{ type: "text", text: "an assistant cannot open" }] },
  user("first"),
  user("second in a row"),
  { role: "assistant", content: [] },
  { role: "assistant", content: [{ type: "thinking", thinking: "unsigned" }, { type: "text", text: "" }] },
  { role: "assistant", model: "gpt-5", content: [
    { type: "thinking", thinking: "signed ü", signature: "sig/abc==" },
    { type: "thinking", thinking: "", signature: "redacted-data", redacted: true },
    { type: "thinking", thinking: "reasoned", signature: sealed, origin: responsesHere },
    { type: "text", text: "calling", phase: "commentary" },
    call("toolu_dangling"),
    call(foreignId, "bash", '{"command":"ls"}'),
  ] },
  // The first call is never answered; an orphan result for a call that does not exist.
  { role: "user", content: [{ type: "text", text: "but first" }, result(foreignId, "files", true), result("ghost")] },
  { role: "assistant", content: [call("call_late", "read", "{not json")] },
  { role: "assistant", content: [{ type: "text", text: "two assistants in a row" }] },
  user("last"),
];

/** The rules both APIs enforce on message order and tool pairing. */
function expectAlternatingAndPaired(messages: { role: string }[]) {
  expect(messages[0]!.role).toBe("user");
  for (let i = 1; i < messages.length; i++) expect(messages[i]!.role).not.toBe(messages[i - 1]!.role);
}

describe("Anthropic toWire", () => {
  test("repairs a hostile history without touching the conversation", () => {
    const conversation = new Conversation(hostile());
    const before = structuredClone(conversation.messages);
    const wire = anthropicWire(conversation, here);
    expect(conversation.messages).toEqual(before);
    expectAlternatingAndPaired(wire);
    const mappedId = normalizeToolId(foreignId, 64);
    expect(mappedId).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(wire).toEqual([
      { role: "user", content: [{ type: "text", text: "first" }, { type: "text", text: "second in a row" }] },
      { role: "assistant", content: [
        { type: "thinking", thinking: "signed ü", signature: "sig/abc==" },
        { type: "redacted_thinking", data: "redacted-data" },
        { type: "text", text: "calling" },
        { type: "tool_use", id: "toolu_dangling", name: "read", input: { path: "a" } },
        { type: "tool_use", id: mappedId, name: "bash", input: { command: "ls" } },
      ] },
      { role: "user", content: [
        { type: "tool_result", tool_use_id: "toolu_dangling", content: NOT_RUN_RESULT, is_error: true },
        { type: "tool_result", tool_use_id: mappedId, content: "files", is_error: true },
        { type: "text", text: "but first" },
      ] },
      { role: "assistant", content: [{ type: "tool_use", id: "call_late", name: "read", input: { invalid_json_input: "{not json" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_late", content: NOT_RUN_RESULT, is_error: true }] },
      { role: "assistant", content: [{ type: "text", text: "two assistants in a row" }] },
      { role: "user", content: [{ type: "text", text: "last" }] },
    ]);
  });

  test("a conversation ending in unanswered calls gets their results", () => {
    const wire = anthropicWire(new Conversation([user("go"), { role: "assistant", content: [call("a"), call("b")] }]), here);
    expect(wire.at(-1)).toEqual({ role: "user", content: [
      { type: "tool_result", tool_use_id: "a", content: NOT_RUN_RESULT, is_error: true },
      { type: "tool_result", tool_use_id: "b", content: NOT_RUN_RESULT, is_error: true },
    ] });
  });

  test("thinking is requested unless the tool loop being continued started without it", () => {
    const base = { model: "claude-sonnet-4-5", system: "s", tools: [], maxTokens: 8000, thinking: { form: "budget" as const, budget: 4000 }, signal: new AbortController().signal };
    const plain = anthropicBody({ ...base, conversation: new Conversation([user("hi")]) }, here);
    expect(plain.thinking).toEqual({ type: "enabled", budget_tokens: 4000 });
    expect(plain.system).toEqual([{ type: "text", text: "s", cache_control: { type: "ephemeral" } }]);
    const foreignLoop = new Conversation([user("hi"), { role: "assistant", content: [call("call_1")] }, { role: "user", content: [result("call_1")] }]);
    expect(anthropicBody({ ...base, conversation: foreignLoop }, here).thinking).toBeUndefined();
  });

  test("tool input: raw JSON text becomes the object; empty becomes {}", () => {
    expect(toolInput('{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(toolInput("")).toEqual({});
    expect(toolInput("[1]")).toEqual({ invalid_json_input: "[1]" });
  });
});

describe("OpenAI toWire", () => {
  test("repairs a hostile history: system first, tool messages right after their calls, thinking dropped", () => {
    const conversation = new Conversation(hostile());
    const before = structuredClone(conversation.messages);
    const wire = openaiWire("sys", conversation);
    expect(conversation.messages).toEqual(before);
    const mappedId = normalizeToolId(foreignId, 40);
    expect(mappedId).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    expect(wire).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "first\n\nsecond in a row" },
      { role: "assistant", content: "calling", tool_calls: [
        { id: "toolu_dangling", type: "function", function: { name: "read", arguments: '{"path":"a"}' } },
        { id: mappedId, type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
      ] },
      { role: "tool", tool_call_id: "toolu_dangling", content: `Error: ${NOT_RUN_RESULT}` },
      { role: "tool", tool_call_id: mappedId, content: "Error: files" },
      { role: "user", content: "but first" },
      // Arguments that are not JSON go back wrapped as JSON (OpenAI refuses them raw); the log keeps "{not json".
      { role: "assistant", content: null, tool_calls: [{ id: "call_late", type: "function", function: { name: "read", arguments: '{"invalid_json_input":"{not json"}' } }] },
      { role: "tool", tool_call_id: "call_late", content: `Error: ${NOT_RUN_RESULT}` },
      { role: "assistant", content: "two assistants in a row" },
      { role: "user", content: "last" },
    ]);
  });

  test("an assistant message holding only thinking is not sent", () => {
    const wire = openaiWire("", new Conversation([
      user("a"),
      { role: "assistant", content: [{ type: "thinking", thinking: "t", signature: "s" }] },
      user("b"),
    ]));
    expect(wire).toEqual([{ role: "user", content: "a\n\nb" }]);
  });
});

describe("Responses toWire", () => {
  test("repairs a hostile history into items the API takes: only its own reasoning, without ids, before what followed it", () => {
    const conversation = new Conversation(hostile());
    const before = structuredClone(conversation.messages);
    const request = { model: "gpt-5", system: "sys", conversation, tools: [], maxTokens: 8000, sessionId: "s1", signal: new AbortController().signal };
    const body = responsesBody(request, { origin: responsesHere, reasoning: true });
    expect(conversation.messages).toEqual(before);
    expect(validateResponses(body, { key: "sk-test", sealer })).toBeNull();
    const mappedId = normalizeToolId(foreignId, 40);
    expect(body.instructions).toBe("sys");
    expect(body.input).toEqual([
      { type: "message", role: "user", content: "first\n\nsecond in a row" },
      { type: "reasoning", summary: [{ type: "summary_text", text: "reasoned" }], encrypted_content: sealed },
      { type: "message", role: "assistant", content: "calling", phase: "commentary" },
      { type: "function_call", call_id: "toolu_dangling", name: "read", arguments: '{"path":"a"}' },
      { type: "function_call", call_id: mappedId, name: "bash", arguments: '{"command":"ls"}' },
      { type: "function_call_output", call_id: "toolu_dangling", output: `Error: ${NOT_RUN_RESULT}` },
      { type: "function_call_output", call_id: mappedId, output: "Error: files" },
      { type: "message", role: "user", content: "but first" },
      { type: "function_call", call_id: "call_late", name: "read", arguments: '{"invalid_json_input":"{not json"}' },
      { type: "function_call_output", call_id: "call_late", output: `Error: ${NOT_RUN_RESULT}` },
      { type: "message", role: "assistant", content: "two assistants in a row" },
      { type: "message", role: "user", content: "last" },
    ]);
  });

  test("reasoning that ends a response (cut off while reasoning) is not sent: the API wants the item it led to after it", () => {
    const reasoning = { type: "thinking" as const, thinking: "", signature: sealed, origin: responsesHere };
    const conversation = new Conversation([
      user("a"),
      { role: "assistant", model: "gpt-5", content: [reasoning] },
      user("b"),
      { role: "assistant", model: "gpt-5", content: [reasoning, { type: "text", text: "partly" }, reasoning] },
      user("c"),
    ]);
    const body = responsesBody({ model: "gpt-5", system: "", conversation, tools: [], maxTokens: 8000, signal: new AbortController().signal }, { origin: responsesHere, reasoning: true });
    expect(body.input.map((item) => item.type)).toEqual(["message", "message", "reasoning", "message", "message"]);
    expect(validateResponses(body, { key: "sk-test", sealer })).toBeNull();
  });

  test("the same history to another key, or to a model that does not reason, carries no reasoning", () => {
    const request = { model: "gpt-5", system: "", conversation: new Conversation(hostile()), tools: [], maxTokens: 8000, signal: new AbortController().signal };
    const otherKey = responsesBody(request, { origin: { ...responsesHere, fingerprint: "000000000000" }, reasoning: true });
    const plainModel = responsesBody({ ...request, model: "gpt-4.1" }, { origin: responsesHere, reasoning: true });
    for (const body of [otherKey, plainModel]) {
      expect(body.input.some((item) => item.type === "reasoning")).toBe(false);
      expect(validateResponses(body, { key: "sk-other", sealer })).toBeNull();
    }
    expect(plainModel.include).toBeUndefined();
  });
});

describe("tool id normalisation", () => {
  test("valid ids are kept; others get a stable, distinct, valid replacement", () => {
    expect(normalizeToolId("toolu_01AbC-d", 40)).toBe("toolu_01AbC-d");
    const a = normalizeToolId("call.1", 40);
    expect(a).toBe(normalizeToolId("call.1", 40));
    expect(a).not.toBe(normalizeToolId("call:1", 40));
    expect(a).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    expect(normalizeToolId("x".repeat(64), 40)).toHaveLength(40);
    expect(normalizeToolId("", 40)).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
  });
});
