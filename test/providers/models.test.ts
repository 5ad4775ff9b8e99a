import { describe, expect, test } from "bun:test";
import { Conversation, type Message } from "../../src/conversation";
import { UserError } from "../../src/errors";
import { createProvider } from "../../src/providers";
import { applyStreamEvent, finalizeMessage } from "../../src/providers/assemble";
import { DEFAULT_MODELS, defaultModel, parseModelSpec } from "../../src/providers/models";
import type { StreamEvent } from "../../src/providers/provider";

describe("model specs", () => {
  test("provider/model, bare ids inferred from well-known prefixes, others left to the current provider", () => {
    expect(parseModelSpec("openai/gpt-4o")).toEqual({ provider: "openai", model: "gpt-4o" });
    expect(parseModelSpec("anthropic/claude-opus-4-5")).toEqual({ provider: "anthropic", model: "claude-opus-4-5" });
    expect(parseModelSpec("claude-sonnet-4-5")).toEqual({ provider: "anthropic", model: "claude-sonnet-4-5" });
    for (const m of ["gpt-5-mini", "o1", "o3-mini", "o4-mini"]) expect(parseModelSpec(m)).toEqual({ provider: "openai", model: m });
    expect(parseModelSpec("llama3.2")).toEqual({ model: "llama3.2" });
    expect(parseModelSpec("meta-llama/Llama-3.1-8B")).toEqual({ model: "meta-llama/Llama-3.1-8B" });
  });

  test("each provider has a default; AWL_MODEL overrides it for its own provider", () => {
    expect(defaultModel("openai")).toBe(DEFAULT_MODELS.openai);
    expect(defaultModel("anthropic", { AWL_MODEL: "claude-opus-4-5" })).toBe("claude-opus-4-5");
    expect(defaultModel("openai", { AWL_MODEL: "claude-opus-4-5" })).toBe(DEFAULT_MODELS.openai);
  });
});

describe("createProvider", () => {
  test("a missing key is a clear user error; a local OpenAI-compatible server needs none", () => {
    expect(() => createProvider("anthropic", {})).toThrow(
      new UserError("ANTHROPIC_API_KEY is not set: export it, or choose another provider with --provider openai"),
    );
    expect(() => createProvider("openai", {})).toThrow(UserError);
    expect(createProvider("openai", { OPENAI_BASE_URL: "http://localhost:11434/v1" }).name).toBe("openai");
  });
});

describe("assembling a message from stream events", () => {
  const events: StreamEvent[] = [
    { type: "blockStart", index: 0, block: { type: "thinking", thinking: "" } },
    { type: "delta", index: 0, text: "hm" },
    { type: "signature", index: 0, signature: "sig" },
    { type: "blockStart", index: 1, block: { type: "text", text: "" } },
    { type: "delta", index: 1, text: "Hello" },
    { type: "blockStart", index: 2, block: { type: "toolUse", id: "a", name: "read", input: "" } },
    { type: "delta", index: 2, text: '{"path":"x"}' },
    { type: "blockStart", index: 3, block: { type: "toolUse", id: "b", name: "ls", input: "" } },
    { type: "blockStart", index: 4, block: { type: "toolUse", id: "c", name: "read", input: "" } },
    { type: "delta", index: 4, text: '{"pa' },
  ];
  const build = () => {
    const message: Message = { role: "assistant", content: [] };
    for (const event of events) applyStreamEvent(message, event);
    return message;
  };

  test("blocks grow in place; a tool call without input gets {}", () => {
    const message = finalizeMessage(build());
    expect(message.content).toEqual([
      { type: "thinking", thinking: "hm", signature: "sig" },
      { type: "text", text: "Hello" },
      { type: "toolUse", id: "a", name: "read", input: '{"path":"x"}' },
      { type: "toolUse", id: "b", name: "ls", input: "{}" },
      { type: "toolUse", id: "c", name: "read", input: '{"pa' },
    ]);
    expect(new Conversation([message]).messages).toHaveLength(1);
  });

  test("after a failure, tool calls whose input is incomplete are dropped", () => {
    const message = finalizeMessage(build(), { dropIncompleteToolUses: true });
    expect(message.content.map((b) => (b.type === "toolUse" ? b.id : b.type))).toEqual(["thinking", "text", "a"]);
  });
});
