import { describe, expect, test } from "bun:test";
import { appendToBlock, Conversation, textMessage, type ContentBlock } from "../../src/conversation";

describe("content blocks grow while streaming", () => {
  test("text, thinking and tool input accumulate their deltas in order", () => {
    const blocks: ContentBlock[] = [
      { type: "text", text: "" },
      { type: "thinking", thinking: "" },
      { type: "toolUse", id: "t1", name: "bash", input: "" },
    ];
    for (const block of blocks) for (const piece of ["a", "ß", "{}"]) appendToBlock(block, piece);
    expect(blocks).toEqual([
      { type: "text", text: "aß{}" },
      { type: "thinking", thinking: "aß{}" },
      { type: "toolUse", id: "t1", name: "bash", input: "aß{}" },
    ]);
  });
});

describe("Conversation", () => {
  test("exposes the system prompt only when the first message is a system message", () => {
    expect(new Conversation([textMessage("system", "be brief")]).systemPrompt).toBe("be brief");
    expect(new Conversation([textMessage("user", "hi")]).systemPrompt).toBeUndefined();
  });

  test("finds the tool calls of the last assistant message that no result answers", () => {
    const conversation = new Conversation([
      textMessage("user", "go"),
      {
        role: "assistant",
        content: [
          { type: "toolUse", id: "a", name: "bash", input: "{}" },
          { type: "toolUse", id: "b", name: "read", input: "{}" },
        ],
      },
      { role: "user", content: [{ type: "toolResult", toolUseId: "a", content: "ok" }] },
    ]);
    expect(conversation.danglingToolUses().map((u) => u.id)).toEqual(["b"]);
  });
});
