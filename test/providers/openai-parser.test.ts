import { describe, expect, test } from "bun:test";
import type { ApiIdentity } from "../../src/providers/api-errors";
import { StreamFailure } from "../../src/providers/api-errors";
import { OpenAIStreamParser } from "../../src/providers/openai";
import { parseRecorded } from "./helpers";

const api: ApiIdentity = { label: "OpenAI", keyVariable: "OPENAI_API_KEY", baseUrlVariable: "OPENAI_BASE_URL", secrets: [] };
const chunk = (delta: object, finish_reason: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason }] })}\n\n`;
const usage = `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } })}\n\n`;
const done = "data: [DONE]\n\n";

describe("OpenAI stream parser", () => {
  test("text, then parallel tool calls whose arguments arrive in fragments, with usage", async () => {
    const recorded =
      chunk({ role: "assistant", content: "" }) +
      chunk({ content: "Hé" }) +
      chunk({ content: "llo" }) +
      chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "read", arguments: "" } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path"' } }] }) +
      chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "bash", arguments: '{"com' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: ':"x"}' } }] }) +
      chunk({ tool_calls: [{ index: 1, function: { arguments: 'mand":"ls"}' } }] }) +
      chunk({}, "tool_calls") +
      usage +
      done;
    const events = await parseRecorded(recorded, new OpenAIStreamParser(api), 3);
    expect(events).toEqual([
      { type: "blockStart", index: 0, block: { type: "text", text: "" } },
      { type: "delta", index: 0, text: "Hé" },
      { type: "delta", index: 0, text: "llo" },
      { type: "blockStop", index: 0 },
      { type: "blockStart", index: 1, block: { type: "toolUse", id: "call_a", name: "read", input: "" } },
      { type: "delta", index: 1, text: '{"path"' },
      { type: "blockStart", index: 2, block: { type: "toolUse", id: "call_b", name: "bash", input: "" } },
      { type: "delta", index: 2, text: '{"com' },
      { type: "delta", index: 1, text: ':"x"}' },
      { type: "delta", index: 2, text: 'mand":"ls"}' },
      { type: "blockStop", index: 1 },
      { type: "blockStop", index: 2 },
      { type: "end", stopReason: "toolUse", usage: { input: 7, output: 3 } },
    ]);
  });

  test("compatible-server quirks: no index, arguments as an object, 'stop' with tool calls, reasoning, comments, no [DONE]", async () => {
    const recorded =
      ": OPENROUTER PROCESSING\n\n" +
      chunk({ reasoning_content: "hmm " }) +
      chunk({ reasoning: "ok" }) +
      chunk({ tool_calls: [{ id: "call_1", function: { name: "read", arguments: { path: "a" } } }] }) +
      chunk({ tool_calls: [{ id: "call_2", function: { name: "read", arguments: '{"path":' } }] }) +
      chunk({ tool_calls: [{ function: { arguments: '"b"}' } }] }) +
      chunk({}, "stop");
    const events = await parseRecorded(recorded, new OpenAIStreamParser(api), 4);
    expect(events).toEqual([
      { type: "blockStart", index: 0, block: { type: "thinking", thinking: "" } },
      { type: "delta", index: 0, text: "hmm " },
      { type: "delta", index: 0, text: "ok" },
      { type: "blockStop", index: 0 },
      { type: "blockStart", index: 1, block: { type: "toolUse", id: "call_1", name: "read", input: "" } },
      { type: "delta", index: 1, text: '{"path":"a"}' },
      { type: "blockStart", index: 2, block: { type: "toolUse", id: "call_2", name: "read", input: "" } },
      { type: "delta", index: 2, text: '{"path":' },
      { type: "delta", index: 2, text: '"b"}' },
      { type: "blockStop", index: 1 },
      { type: "blockStop", index: 2 },
      { type: "end", stopReason: "toolUse", usage: undefined },
    ]);
  });

  test.each([
    ["stop", "stop"],
    ["length", "length"],
    ["tool_calls", "toolUse"],
    ["content_filter", "error"],
  ])("finish reason %s ends as %s", async (wire, mapped) => {
    const events = await parseRecorded(chunk({ content: "x" }) + chunk({}, wire) + done, new OpenAIStreamParser(api));
    expect(events.at(-1)).toMatchObject({ type: "end", stopReason: mapped });
  });

  describe("usage", () => {
    const final = (usage: object) => `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage })}\n\n`;
    const usageOf = async (usage: object) => {
      const end = (await parseRecorded(chunk({ content: "x" }) + chunk({}, "stop") + final(usage) + done, new OpenAIStreamParser(api))).at(-1);
      return end?.type === "end" ? end.usage : undefined;
    };

    test("OpenAI: input is prompt_tokens less the cached tokens, which are counted as cache reads", async () => {
      expect(await usageOf({
        prompt_tokens: 2006, completion_tokens: 300, total_tokens: 2306,
        prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 128, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      })).toEqual({ input: 86, output: 300, cacheRead: 1920 });
      expect(await usageOf({ prompt_tokens: 20, completion_tokens: 3, total_tokens: 23, prompt_tokens_details: { cached_tokens: 0 } })).toEqual({
        input: 20, output: 3, cacheRead: 0,
      });
    });

    test("a compatible server without prompt_tokens_details: input is prompt_tokens, no cache figures", async () => {
      expect(await usageOf({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 })).toEqual({ input: 7, output: 3 });
      expect(await usageOf({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10, prompt_tokens_details: null })).toEqual({ input: 7, output: 3 });
    });

    test("OpenRouter's cache writes and DeepSeek's cache hits are counted apart from the input too", async () => {
      expect(await usageOf({
        prompt_tokens: 194, completion_tokens: 2, total_tokens: 196, cost: 0.95,
        prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 100, audio_tokens: 0 },
      })).toEqual({ input: 94, output: 2, cacheRead: 0, cacheWrite: 100 });
      expect(await usageOf({ prompt_tokens: 1000, completion_tokens: 5, total_tokens: 1005, prompt_cache_hit_tokens: 896, prompt_cache_miss_tokens: 104 })).toEqual({
        input: 104, output: 5, cacheRead: 896,
      });
    });
  });

  test("an error chunk fails the stream; a body cut before the finish reason too", async () => {
    const error = `data: ${JSON.stringify({ error: { message: "upstream overloaded", type: "server_error" } })}\n\n`;
    const failure = await parseRecorded(chunk({ content: "x" }) + error, new OpenAIStreamParser(api)).catch((e) => e);
    expect(failure).toBeInstanceOf(StreamFailure);
    expect(failure.retryable).toBe(true);
    expect(await parseRecorded(chunk({ content: "x" }), new OpenAIStreamParser(api)).catch((e) => e)).toBeInstanceOf(StreamFailure);
  });
});
