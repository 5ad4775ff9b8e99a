import { describe, expect, test } from "bun:test";
import { AnthropicStreamParser } from "../../src/providers/anthropic";
import type { ApiIdentity } from "../../src/providers/api-errors";
import { StreamFailure } from "../../src/providers/api-errors";
import { parseRecorded } from "./helpers";

const api: ApiIdentity = { label: "Anthropic", keyVariable: "ANTHROPIC_API_KEY", baseUrlVariable: "ANTHROPIC_BASE_URL", secrets: [] };
const origin = { api: "anthropic-messages", fingerprint: "0123456789ab" };
const sse = (event: string, data: object) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const start = sse("message_start", {
  type: "message_start",
  message: { id: "msg_1", type: "message", role: "assistant", content: [], model: "claude-sonnet-4-5", stop_reason: null,
    usage: { input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 1 } },
});
const stop = (reason: string, output = 42) =>
  sse("message_delta", { type: "message_delta", delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: output } }) +
  sse("message_stop", { type: "message_stop" });
const block = (index: number, content_block: object) => sse("content_block_start", { type: "content_block_start", index, content_block });
const delta = (index: number, d: object) => sse("content_block_delta", { type: "content_block_delta", index, delta: d });
const blockStop = (index: number) => sse("content_block_stop", { type: "content_block_stop", index });

describe("Anthropic stream parser", () => {
  test("thinking with its signature, redacted thinking, text and a tool call split across deltas", async () => {
    const recorded =
      start +
      block(0, { type: "thinking", thinking: "", signature: "" }) +
      delta(0, { type: "thinking_delta", thinking: "Let me " }) +
      sse("ping", { type: "ping" }) +
      delta(0, { type: "thinking_delta", thinking: "think ü" }) +
      delta(0, { type: "signature_delta", signature: "sig==" }) +
      blockStop(0) +
      block(1, { type: "redacted_thinking", data: "opaque" }) +
      blockStop(1) +
      block(2, { type: "text", text: "" }) +
      delta(2, { type: "text_delta", text: "Hi 🌍" }) +
      blockStop(2) +
      block(3, { type: "tool_use", id: "toolu_1", name: "read", input: {} }) +
      delta(3, { type: "input_json_delta", partial_json: '{"pa' }) +
      delta(3, { type: "input_json_delta", partial_json: 'th":"a"}' }) +
      blockStop(3) +
      sse("some_future_event", { type: "some_future_event" }) +
      stop("tool_use");
    const events = await parseRecorded(recorded, new AnthropicStreamParser(api, origin), 5);
    expect(events).toEqual([
      { type: "blockStart", index: 0, block: { type: "thinking", thinking: "" } },
      { type: "delta", index: 0, text: "Let me " },
      { type: "delta", index: 0, text: "think ü" },
      { type: "signature", index: 0, signature: "sig==", origin },
      { type: "blockStop", index: 0 },
      { type: "blockStart", index: 1, block: { type: "thinking", thinking: "", signature: "opaque", redacted: true, origin } },
      { type: "blockStop", index: 1 },
      { type: "blockStart", index: 2, block: { type: "text", text: "" } },
      { type: "delta", index: 2, text: "Hi 🌍" },
      { type: "blockStop", index: 2 },
      { type: "blockStart", index: 3, block: { type: "toolUse", id: "toolu_1", name: "read", input: "" } },
      { type: "delta", index: 3, text: '{"pa' },
      { type: "delta", index: 3, text: 'th":"a"}' },
      { type: "blockStop", index: 3 },
      { type: "end", stopReason: "toolUse", usage: { input: 10, output: 42, cacheRead: 100, cacheWrite: 5 } },
    ]);
  });

  test.each([
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["tool_use", "toolUse"],
    ["max_tokens", "length"],
    ["model_context_window_exceeded", "length"],
    ["refusal", "error"],
  ])("stop reason %s ends as %s", async (wire, mapped) => {
    const events = await parseRecorded(start + stop(wire), new AnthropicStreamParser(api, origin));
    const end = events.at(-1)!;
    expect(end).toMatchObject({ type: "end", stopReason: mapped });
    if (wire === "refusal") expect(end).toHaveProperty("errorMessage");
  });

  test("blocks awl does not keep (server tools) are skipped without shifting indexes", async () => {
    const recorded =
      start +
      block(0, { type: "server_tool_use", id: "srv", name: "web_search", input: {} }) +
      delta(0, { type: "input_json_delta", partial_json: "{}" }) +
      blockStop(0) +
      block(1, { type: "text", text: "" }) +
      delta(1, { type: "text_delta", text: "ok" }) +
      blockStop(1) +
      stop("end_turn");
    const events = await parseRecorded(recorded, new AnthropicStreamParser(api, origin));
    expect(events.filter((e) => e.type !== "end")).toEqual([
      { type: "blockStart", index: 0, block: { type: "text", text: "" } },
      { type: "delta", index: 0, text: "ok" },
      { type: "blockStop", index: 0 },
    ]);
  });

  test("an error event fails the stream, retryable when the API is overloaded", async () => {
    const overloaded = start + sse("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
    const failure = await parseRecorded(overloaded, new AnthropicStreamParser(api, origin)).catch((e) => e);
    expect(failure).toBeInstanceOf(StreamFailure);
    expect(failure.retryable).toBe(true);
    expect(failure.message).toBe("Anthropic stream error (overloaded_error): Overloaded");
    const invalid = start + sse("error", { type: "error", error: { type: "invalid_request_error", message: "bad" } });
    expect((await parseRecorded(invalid, new AnthropicStreamParser(api, origin)).catch((e) => e)).retryable).toBe(false);
  });

  describe("usage", () => {
    const text = block(0, { type: "text", text: "" }) + delta(0, { type: "text_delta", text: "ok" }) + blockStop(0);
    const startWith = (usage: object) =>
      sse("message_start", {
        type: "message_start",
        message: { id: "msg_2", type: "message", role: "assistant", content: [], model: "claude-sonnet-4-5", stop_reason: null, stop_sequence: null, usage },
      });
    const end = async (recorded: string) => (await parseRecorded(recorded, new AnthropicStreamParser(api, origin))).at(-1);

    test("input is the uncached part; the cache reads and writes are counted beside it", async () => {
      const usage = {
        input_tokens: 12, cache_creation_input_tokens: 2048, cache_read_input_tokens: 30720,
        cache_creation: { ephemeral_5m_input_tokens: 2048, ephemeral_1h_input_tokens: 0 }, output_tokens: 1, service_tier: "standard",
      };
      expect(await end(startWith(usage) + text + stop("end_turn", 311))).toEqual({
        type: "end", stopReason: "stop", usage: { input: 12, output: 311, cacheRead: 30720, cacheWrite: 2048 },
      });
    });

    test("a message_delta that restates the figures wins over message_start's", async () => {
      const restated = sse("message_delta", {
        type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { input_tokens: 14, cache_creation_input_tokens: 0, cache_read_input_tokens: 32768, output_tokens: 7, server_tool_use: null },
      }) + sse("message_stop", { type: "message_stop" });
      const usage = { input_tokens: 14, cache_creation_input_tokens: 1, cache_read_input_tokens: 2, output_tokens: 1 };
      expect(await end(startWith(usage) + text + restated)).toEqual({
        type: "end", stopReason: "stop", usage: { input: 14, output: 7, cacheRead: 32768, cacheWrite: 0 },
      });
    });

    test("cache figures the API leaves out or sends as null are absent, not zero", async () => {
      const withNulls = { input_tokens: 9, cache_creation_input_tokens: null, cache_read_input_tokens: null, output_tokens: 1 };
      const restatedNull = sse("message_delta", {
        type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { input_tokens: null, cache_creation_input_tokens: null, cache_read_input_tokens: null, output_tokens: 4 },
      }) + sse("message_stop", { type: "message_stop" });
      expect(await end(startWith(withNulls) + text + restatedNull)).toEqual({ type: "end", stopReason: "stop", usage: { input: 9, output: 4 } });
      expect(await end(startWith({ input_tokens: 9, output_tokens: 1 }) + text + stop("end_turn", 4))).toEqual({
        type: "end", stopReason: "stop", usage: { input: 9, output: 4 },
      });
    });
  });

  test("a body that ends before the stop reason is a failure, not a quiet stop", async () => {
    const cut = start + block(0, { type: "text", text: "" }) + delta(0, { type: "text_delta", text: "par" });
    expect(await parseRecorded(cut, new AnthropicStreamParser(api, origin)).catch((e) => e)).toBeInstanceOf(StreamFailure);
  });
});
