// Self-tests of the test server's Responses API with raw fetch: the events of
// a streamed answer, the request checks the real API makes, the encrypted
// reasoning it issues and verifies per key, its prompt cache by
// prompt_cache_key, and the three shapes of an overflow.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { type TestServer, type TestServerOptions, startTestServer } from "./server";

const OTHER_KEY = "sk-test-other-account";
let server: TestServer;
const start = async (options: TestServerOptions = {}) => (server = await startTestServer({ otherOpenaiKeys: [OTHER_KEY], ...options }));
beforeEach(() => start());
afterEach(() => server.stop());

function responses(body: unknown, key = server.openaiKey) {
  return fetch(`${server.openaiUrl}/responses`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
}
const create = (input: unknown[], extra: object = {}) => ({ model: "gpt-5-mini", stream: true, store: false, include: ["reasoning.encrypted_content"], input, ...extra });
const said = (text: string) => ({ type: "message", role: "user", content: text });
/** The stream's events, parsed: each frame's `event:` name must match its data's type. */
async function events(response: Response): Promise<any[]> {
  const frames = (await response.text()).split("\n\n").filter(Boolean);
  return frames.map((frame) => {
    const data = JSON.parse(frame.match(/^data: (.*)$/m)![1]!);
    expect(frame.match(/^event: (.*)$/m)![1]).toBe(data.type);
    return data;
  });
}
const refusal = async (response: Response) => ({ status: response.status, ...((await response.json()) as { error: object }).error });

describe("the stream", () => {
  test("reasoning, commentary, a function call: every event kind in order, numbered, ending in response.completed with usage", async () => {
    server.reply({ blocks: [{ type: "thinking", thinking: "plan" }, { type: "text", text: "Looking." }, { type: "toolUse", id: "call_1", name: "read", input: { path: "a" } }] });
    const list = await events(await responses(create([said("go")], { reasoning: { summary: "auto" } })));
    expect(list.map((e) => e.sequence_number)).toEqual(list.map((_, i) => i));
    const kinds = [...new Set(list.map((e) => e.type))];
    expect(kinds).toEqual([
      "response.created", "response.in_progress", "response.output_item.added", "response.reasoning_summary_part.added", "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done", "response.reasoning_summary_part.done", "response.output_item.done", "response.content_part.added",
      "response.output_text.delta", "response.output_text.done", "response.content_part.done", "response.function_call_arguments.delta",
      "response.function_call_arguments.done", "response.completed",
    ]);
    const items = list.filter((e) => e.type === "response.output_item.done").map((e) => e.item);
    expect(items[0]).toMatchObject({ type: "reasoning", summary: [{ type: "summary_text", text: "plan" }], encrypted_content: expect.stringMatching(/^gAAAAA/) });
    expect(items[1]).toMatchObject({ type: "message", phase: "commentary", content: [{ type: "output_text", text: "Looking." }] });
    expect(items[2]).toMatchObject({ type: "function_call", call_id: "call_1", arguments: '{"path":"a"}' });
    expect(list.at(-1).response.usage).toMatchObject({ input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 1 } });
  });

  test("stop length ends in response.incomplete (max_output_tokens), the last item left cut off", async () => {
    server.reply({ blocks: [{ type: "toolUse", name: "bash", input: '{"command":"l' }], stop: "length" });
    const list = await events(await responses(create([said("go")])));
    expect(list.at(-1)).toMatchObject({ type: "response.incomplete", response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } } });
    expect(list.some((e) => e.type === "response.function_call_arguments.done")).toBe(false);
  });
});

describe("request checks", () => {
  test("unknown fields, ids under store: false, bad include values and strict tools are refused as the API refuses them", async () => {
    expect(await refusal(await responses(create([said("hi")], { messages: [] })))).toMatchObject({ status: 400, code: "unknown_parameter", param: "messages" });
    expect(await refusal(await responses(create([said("hi")], { include: ["reasoning.everything"] })))).toMatchObject({ status: 400, code: "invalid_value" });
    expect(await refusal(await responses(create([{ ...said("hi"), id: "msg_1" }])))).toMatchObject({ status: 404, message: expect.stringContaining("Item with id 'msg_1' not found") });
    expect(await refusal(await responses(create([said("hi")], { store: "no" })))).toMatchObject({ status: 400, param: "store" });
    const tool = { type: "function", name: "read", parameters: { type: "object", properties: { path: { type: "string" }, limit: { type: "number" } }, required: ["path"] } };
    expect(await refusal(await responses(create([said("hi")], { tools: [tool] })))).toMatchObject({ status: 400, code: "invalid_function_parameters" });
    server.reply({});
    expect((await responses(create([said("hi")], { tools: [{ ...tool, strict: false }] }))).status).toBe(200);
  });

  test("function calls and their outputs must pair up; phase only on assistant messages", async () => {
    const call = { type: "function_call", call_id: "call_1", name: "read", arguments: "{}" };
    expect(await refusal(await responses(create([said("hi"), call])))).toMatchObject({ status: 400, message: "No tool output found for function call call_1." });
    expect(await refusal(await responses(create([said("hi"), { type: "function_call_output", call_id: "call_9", output: "x" }])))).toMatchObject({ message: "No tool call found for function call output with call_id call_9." });
    expect(await refusal(await responses(create([{ ...said("hi"), phase: "commentary" }])))).toMatchObject({ status: 400, param: "input[0].phase" });
  });

  test("reasoning goes back only whole, with the encrypted content issued to this key, before the item that followed it", async () => {
    server.reply({ blocks: [{ type: "thinking", thinking: "plan" }, { type: "text", text: "hi" }] });
    const issued = (await events(await responses(create([said("go")])))).filter((e) => e.type === "response.output_item.done")[0].item;
    const { id: _, ...reasoning } = issued;
    const after = { type: "message", role: "assistant", content: "hi" };
    server.reply({});
    expect((await responses(create([said("go"), reasoning, after, said("more")]))).status).toBe(200);
    expect(await refusal(await responses(create([said("go"), { type: "reasoning", summary: [] }, after])))).toMatchObject({ status: 400, param: "input[1].encrypted_content" });
    expect(await refusal(await responses(create([said("go"), reasoning, after]), OTHER_KEY))).toMatchObject({ status: 400, code: "invalid_encrypted_content" });
    expect(await refusal(await responses(create([said("go"), reasoning, said("more")])))).toMatchObject({ status: 400, message: expect.stringContaining("without its required following item") });
    expect(await refusal(await responses(create([said("go")], { model: "gpt-4.1" })))).toMatchObject({ status: 400, message: "Encrypted content is not supported with this model." });
  });
});

describe("prompt cache and overflow", () => {
  test("requests share a cached prefix only under the same prompt_cache_key", async () => {
    const instructions = "s".repeat(12_000);
    const usage = async (key: string, text: string) => {
      server.reply({});
      const list = await events(await responses(create([said(text)], { instructions, prompt_cache_key: key })));
      return list.at(-1).response.usage.input_tokens_details.cached_tokens;
    };
    expect(await usage("session-a", "first")).toBe(0);
    expect(await usage("session-a", "second")).toBeGreaterThanOrEqual(2944);
    expect(await usage("session-b", "third")).toBe(0);
  });

  test("an overflow is an HTTP 400, an error event or response.failed, as the test picks", async () => {
    const input = [said("x".repeat(400))];
    await server.stop();
    await start({ contextWindow: 50 });
    expect(await refusal(await responses(create(input)))).toMatchObject({ status: 400, code: "context_length_exceeded" });
    for (const style of ["errorEvent", "failed"] as const) {
      await server.stop();
      await start({ contextWindow: 50, overflowStyle: { responses: style } });
      const last = (await events(await responses(create(input)))).at(-1);
      const error = style === "errorEvent" ? last : last.response.error;
      expect([last.type, error.code]).toEqual([style === "errorEvent" ? "error" : "response.failed", "context_length_exceeded"]);
    }
  });
});
