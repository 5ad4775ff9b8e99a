// The Responses stream parser fed recorded event streams, cut into pieces
// anywhere: the shapes the official API sends, and the leaner ones servers
// that speak it send (no deltas, only whole items; no output_index).
import { describe, expect, test } from "bun:test";
import type { ApiIdentity } from "../../src/providers/api-errors";
import { StreamFailure } from "../../src/providers/api-errors";
import { ResponsesStreamParser } from "../../src/providers/responses";
import { parseRecorded } from "./helpers";

const api: ApiIdentity = { label: "OpenAI", keyVariable: "OPENAI_API_KEY", baseUrlVariable: "OPENAI_BASE_URL", secrets: [] };
const origin = { api: "openai-responses", fingerprint: "0123456789ab" };
let sequence = 0;
const sse = (data: { type: string } & Record<string, unknown>) => `event: ${data.type}\ndata: ${JSON.stringify({ ...data, sequence_number: sequence++ })}\n\n`;
const completed = (usage: object) => sse({ type: "response.completed", response: { id: "resp_1", status: "completed", output: [], usage } });
const parse = (text: string) => parseRecorded(text, new ResponsesStreamParser(api, origin), 5);

describe("Responses stream parser", () => {
  test("reasoning summary parts, commentary, a function call: blocks in output order, usage with cache reads and reasoning", async () => {
    const reasoning = { id: "rs_1", type: "reasoning", summary: [] };
    const events = await parse(
      sse({ type: "response.created", response: { id: "resp_1", status: "in_progress" } }) +
        sse({ type: "response.output_item.added", output_index: 0, item: reasoning }) +
        sse({ type: "response.reasoning_summary_text.delta", item_id: "rs_1", output_index: 0, summary_index: 0, delta: "**Plan**" }) +
        sse({ type: "response.reasoning_summary_text.delta", item_id: "rs_1", output_index: 0, summary_index: 1, delta: "Then 🌍" }) +
        sse({ type: "response.output_item.done", output_index: 0, item: { ...reasoning, encrypted_content: "gAAAA-enc" } }) +
        sse({ type: "response.output_item.added", output_index: 1, item: { id: "msg_1", type: "message", role: "assistant", content: [], phase: "commentary" } }) +
        sse({ type: "response.output_text.delta", item_id: "msg_1", output_index: 1, content_index: 0, delta: "Looking." }) +
        sse({ type: "response.output_item.done", output_index: 1, item: { id: "msg_1", type: "message", content: [{ type: "output_text", text: "Looking." }] } }) +
        sse({ type: "response.output_item.added", output_index: 2, item: { id: "fc_1", type: "function_call", call_id: "call_A", name: "read", arguments: "" } }) +
        sse({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 2, delta: '{"path"' }) +
        sse({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 2, delta: ':"a"}' }) +
        sse({ type: "response.function_call_arguments.done", item_id: "fc_1", output_index: 2, arguments: '{"path":"a"}' }) +
        sse({ type: "response.output_item.done", output_index: 2, item: { id: "fc_1", type: "function_call", call_id: "call_A", name: "read", arguments: '{"path":"a"}' } }) +
        sse({ type: "response.some_future_event", output_index: 3 }) +
        completed({ input_tokens: 1200, input_tokens_details: { cached_tokens: 1024 }, output_tokens: 90, output_tokens_details: { reasoning_tokens: 64 }, total_tokens: 1290 }),
    );
    expect(events).toEqual([
      { type: "blockStart", index: 0, block: { type: "thinking", thinking: "" } },
      { type: "delta", index: 0, text: "**Plan**" },
      { type: "delta", index: 0, text: "\n\n" },
      { type: "delta", index: 0, text: "Then 🌍" },
      { type: "signature", index: 0, signature: "gAAAA-enc", origin },
      { type: "blockStop", index: 0 },
      { type: "blockStart", index: 1, block: { type: "text", text: "", phase: "commentary" } },
      { type: "delta", index: 1, text: "Looking." },
      { type: "blockStop", index: 1 },
      { type: "blockStart", index: 2, block: { type: "toolUse", id: "call_A", name: "read", input: "" } },
      { type: "delta", index: 2, text: '{"path"' },
      { type: "delta", index: 2, text: ':"a"}' },
      { type: "blockStop", index: 2 },
      { type: "end", stopReason: "toolUse", usage: { input: 176, output: 90, cacheRead: 1024, reasoning: 64 } },
    ]);
  });

  test("a server that streams no deltas: each item arrives whole in its done event", async () => {
    const events = await parse(
      sse({ type: "response.output_item.added", output_index: 0, item: { id: "fc_9", type: "function_call", call_id: "call_9", name: "bash" } }) +
        sse({ type: "response.output_item.done", output_index: 0, item: { id: "fc_9", type: "function_call", call_id: "call_9", name: "bash", arguments: '{"command":"ls"}' } }) +
        sse({ type: "response.output_item.added", output_index: 1, item: { type: "message", content: [] } }) +
        sse({ type: "response.output_item.done", output_index: 1, item: { type: "message", content: [{ type: "output_text", text: "whole" }] } }) +
        completed({ input_tokens: 10, output_tokens: 5 }),
    );
    expect(events.filter((e) => e.type === "delta")).toEqual([
      { type: "delta", index: 0, text: '{"command":"ls"}' },
      { type: "delta", index: 1, text: "whole" },
    ]);
    expect(events.at(-1)).toEqual({ type: "end", stopReason: "toolUse", usage: { input: 10, output: 5 } });
  });

  test("response.incomplete for the output limit ends as length, closing what was open; for the content filter, as an error", async () => {
    const start = sse({ type: "response.output_item.added", output_index: 0, item: { id: "fc_1", type: "function_call", call_id: "call_1", name: "bash", arguments: "" } }) +
      sse({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '{"comm' });
    const incomplete = (reason: string) => sse({ type: "response.incomplete", response: { status: "incomplete", incomplete_details: { reason }, usage: { input_tokens: 5, output_tokens: 16 } } });
    const cut = await parse(start + incomplete("max_output_tokens"));
    expect(cut.slice(-2)).toEqual([{ type: "blockStop", index: 0 }, { type: "end", stopReason: "length", usage: { input: 5, output: 16 } }]);
    const filtered = (await parse(start + incomplete("content_filter"))).at(-1);
    expect(filtered).toMatchObject({ type: "end", stopReason: "error", errorMessage: "OpenAI's content filter stopped the response" });
  });

  test("a stream that ends before its terminal event is a dropped connection (retried); a refusal is the model's answer, ended as an error", async () => {
    const cut = await parse(sse({ type: "response.output_item.added", output_index: 0, item: { id: "msg_1", type: "message" } })).catch((e) => e);
    expect(cut).toBeInstanceOf(StreamFailure);
    expect(cut.retryable).toBe(true);
    const refused = await parse(
      sse({ type: "response.output_item.added", output_index: 0, item: { id: "msg_1", type: "message" } }) +
        sse({ type: "response.refusal.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "I can't help with that." }) +
        completed({ input_tokens: 5, output_tokens: 6 }),
    );
    expect(refused.find((e) => e.type === "delta")).toEqual({ type: "delta", index: 0, text: "I can't help with that." });
    expect(refused.at(-1)).toMatchObject({ stopReason: "error", errorMessage: "The model declined to answer (refusal)" });
  });

  test("a named error event is the API's error whatever its data: plain text, null, or an error object without a type", async () => {
    for (const data of ["upstream exploded", "null", JSON.stringify({ error: { message: "wrapped", code: "server_busy" } })]) {
      const failure = await parse(`event: error\ndata: ${data}\n\n`).catch((e) => e);
      expect(failure).toBeInstanceOf(StreamFailure);
    }
    const wrapped = await parse(`event: error\ndata: ${JSON.stringify({ error: { message: "wrapped", code: "invalid_thing" } })}\n\n`).catch((e) => e);
    expect([wrapped.message, wrapped.retryable]).toEqual(["OpenAI stream error (invalid_thing): wrapped", false]);
  });
});
