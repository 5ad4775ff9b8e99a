// Anthropic prompt caching: where the cache_control breakpoints land.
// At most 4, never on a block the API refuses them on, placed so that
// each request reads back the prefix the previous one wrote, and the
// conversation itself is never touched.
import { describe, expect, test } from "bun:test";
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import { Conversation, type Message } from "../../src/conversation";
import { markCacheBreakpoints, MAX_CACHE_BREAKPOINTS, requestBody } from "../../src/providers/anthropic-wire";
import type { ToolDefinition } from "../../src/providers/provider";

const EPHEMERAL = { type: "ephemeral" } as const;
const tools: ToolDefinition[] = [
  { name: "read", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
  { name: "bash", description: "Run a command", inputSchema: { type: "object", properties: { command: { type: "string" } } } },
];
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const said = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });
const calls = (id: string, text?: string): Message => ({
  role: "assistant",
  content: [...(text ? [{ type: "text" as const, text }] : []), { type: "toolUse", id, name: "read", input: '{"path":"a"}' }],
});
const results = (id: string, content = "file text"): Message => ({ role: "user", content: [{ type: "toolResult", toolUseId: id, content }] });

const here = { api: "anthropic-messages", fingerprint: "0123456789ab" };

function body(messages: Message[], options: { system?: string; tools?: ToolDefinition[]; thinking?: boolean } = {}) {
  return requestBody({
    model: "claude-sonnet-4-5",
    system: options.system ?? "You are awl.",
    conversation: new Conversation(messages),
    tools: options.tools ?? tools,
    maxTokens: 8000,
    thinking: options.thinking ? { form: "budget", budget: 4000 } : undefined,
    signal: new AbortController().signal,
  }, here);
}

/** Every marked place as "tools.N", "system.N" or "messages.I.J". */
function markers(b: MessageCreateParamsStreaming): string[] {
  const found: string[] = [];
  b.tools?.forEach((tool, i) => "cache_control" in tool && tool.cache_control && found.push(`tools.${i}`));
  if (Array.isArray(b.system)) b.system.forEach((block, i) => block.cache_control && found.push(`system.${i}`));
  b.messages.forEach((message, i) => {
    if (Array.isArray(message.content))
      message.content.forEach((block, j) => "cache_control" in block && block.cache_control && found.push(`messages.${i}.${j}`));
  });
  // Nothing marked anywhere else (a marker the walk above missed would be counted here).
  expect(JSON.stringify(b).split('"cache_control"').length - 1).toBe(found.length);
  return found;
}

describe("Anthropic cache breakpoints", () => {
  test("a first prompt: the last tool, the system prompt (sent as one text block) and the prompt", () => {
    const b = body([user("which test fails?")]);
    expect(markers(b)).toEqual(["tools.1", "system.0", "messages.0.0"]);
    expect(b.system).toEqual([{ type: "text", text: "You are awl.", cache_control: EPHEMERAL }]);
    expect(b.tools![1]).toMatchObject({ name: "bash", cache_control: EPHEMERAL });
    expect(b.tools![0]).not.toHaveProperty("cache_control");
  });

  test("the next prompt reads back what the previous request wrote: its prompt stays marked", () => {
    const first = body([user("one")]);
    const second = body([user("one"), said("done"), user("two")]);
    expect(markers(first)).toContain("messages.0.0");
    expect(markers(second)).toEqual(["tools.1", "system.0", "messages.0.0", "messages.2.0"]);
  });

  test("inside a tool loop the markers move along: each request marks where the previous one wrote", () => {
    const history: Message[] = [user("fix it")];
    const requests = [body(history)];
    for (const id of ["toolu_1", "toolu_2", "toolu_3"]) {
      history.push(calls(id, id === "toolu_1" ? "Looking." : undefined), results(id));
      requests.push(body(history));
    }
    const messageMarkers = requests.map((b) => markers(b).filter((m) => m.startsWith("messages.")));
    expect(messageMarkers).toEqual([
      ["messages.0.0"],
      ["messages.0.0", "messages.2.0"],
      ["messages.2.0", "messages.4.0"],
      ["messages.4.0", "messages.6.0"],
    ]);
    // Each request's written prefix (its last marker) is the next one's read point (its first).
    for (let i = 1; i < messageMarkers.length; i++) expect(messageMarkers[i]![0]).toBe(messageMarkers[i - 1]!.at(-1)!);
    const last = requests.at(-1)!.messages;
    expect(last[6]!.content).toEqual([{ type: "tool_result", tool_use_id: "toolu_3", content: "file text", cache_control: EPHEMERAL }]);
  });

  test("a single message with no tools and no system: one marker, on that message", () => {
    const b = body([user("hi")], { system: "", tools: [] });
    expect(markers(b)).toEqual(["messages.0.0"]);
    expect(b.system).toBeUndefined();
    expect(b.tools).toBeUndefined();
  });

  test("thinking blocks are never marked, and stay byte-identical", () => {
    const thinking = { type: "thinking" as const, thinking: "Let me look.", signature: "c2lnbmVk" };
    const b = body([user("q"), { role: "assistant", content: [thinking, { type: "toolUse", id: "toolu_1", name: "read", input: "{}" }] }, results("toolu_1")], {
      thinking: true,
    });
    expect(markers(b)).toEqual(["tools.1", "system.0", "messages.0.0", "messages.2.0"]);
    expect(b.messages[1]!.content).toEqual([
      { type: "thinking", thinking: "Let me look.", signature: "c2lnbmVk" },
      { type: "tool_use", id: "toolu_1", name: "read", input: {} },
    ]);
  });

  test("a breakpoint that would land on a thinking, redacted thinking or empty text block is left out", () => {
    const base = { model: "m", max_tokens: 100, stream: true as const };
    const endsInThinking: MessageCreateParamsStreaming = {
      ...base,
      messages: [
        { role: "user", content: [{ type: "text", text: "q" }] },
        { role: "assistant", content: [{ type: "text", text: "a" }, { type: "thinking", thinking: "t", signature: "s" }] },
      ],
    };
    expect(markers(markCacheBreakpoints(endsInThinking))).toEqual(["messages.0.0"]);
    const endsInRedacted: MessageCreateParamsStreaming = {
      ...base,
      messages: [
        { role: "user", content: [{ type: "text", text: "" }] },
        { role: "assistant", content: [{ type: "redacted_thinking", data: "opaque" }] },
      ],
    };
    expect(markers(markCacheBreakpoints(endsInRedacted))).toEqual([]);
    expect(markCacheBreakpoints(endsInRedacted).messages).toBe(endsInRedacted.messages);
  });

  test("string content and a system given as blocks are marked on their last block", () => {
    const b = markCacheBreakpoints({
      model: "m", max_tokens: 100, stream: true,
      system: [{ type: "text", text: "one" }, { type: "text", text: "two" }],
      messages: [{ role: "user", content: "hi" }],
    });
    expect(b.system).toEqual([{ type: "text", text: "one" }, { type: "text", text: "two", cache_control: EPHEMERAL }]);
    expect(b.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hi", cache_control: EPHEMERAL }] }]);
  });

  test("never more than 4, whatever the history", () => {
    const shapes: Message[][] = [
      [user("a")],
      [user("a"), said("b"), user("c")],
      [user("a"), calls("t1"), results("t1"), calls("t2", "more"), results("t2"), said("done"), user("next")],
      [user("a"), user("b"), said("c"), said("d"), user("e"), user("f")],
      [said("opening"), user("a")],
      [user("a"), calls("t1")], // an unanswered call: toWire answers it
      Array.from({ length: 60 }, (_, i) => (i % 2 ? said(`r${i}`) : user(`p${i}`))),
    ];
    for (const messages of shapes) {
      for (const options of [{}, { system: "" }, { tools: [] }, { thinking: true }]) {
        const found = markers(body(messages, options));
        expect(found.length).toBeGreaterThan(0);
        expect(found.length).toBeLessThanOrEqual(MAX_CACHE_BREAKPOINTS);
      }
    }
  });

  test("the conversation and the body given are left untouched", () => {
    const messages: Message[] = [user("fix it"), calls("toolu_1", "Looking."), results("toolu_1"), said("Fixed."), user("thanks")];
    const before = structuredClone(messages);
    const conversation = new Conversation(messages);
    const sent = requestBody({
      model: "claude-sonnet-4-5", system: "s", conversation, tools, maxTokens: 8000, signal: new AbortController().signal,
    }, here);
    expect(markers(sent)).toHaveLength(4);
    expect(conversation.messages).toEqual(before);
    expect(JSON.stringify(conversation.messages)).not.toContain("cache_control");
    const unmarked: MessageCreateParamsStreaming = { model: "m", max_tokens: 10, stream: true, system: "s", tools: sent.tools!.map(({ cache_control, ...t }: any) => t), messages: [
      { role: "user", content: [{ type: "text", text: "a" }] },
      { role: "assistant", content: [{ type: "text", text: "b" }] },
      { role: "user", content: [{ type: "text", text: "c" }] },
      { role: "assistant", content: [{ type: "text", text: "d" }] },
      { role: "user", content: [{ type: "text", text: "e" }] },
    ] };
    const copy = structuredClone(unmarked);
    const marked = markCacheBreakpoints(unmarked);
    expect(unmarked).toEqual(copy);
    expect(marked.messages[0]).toBe(unmarked.messages[0]!); // unmarked messages are shared, not copied
    expect(markers(marked)).toEqual(["tools.1", "system.0", "messages.2.0", "messages.4.0"]);
    expect(markCacheBreakpoints(unmarked)).toEqual(marked); // a pure function of the body
  });
});
