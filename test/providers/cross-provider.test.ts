// One conversation hopping Anthropic -> OpenAI -> Anthropic, with thinking and
// tool calls, the way /model switching produces it: the strict server must
// accept every request, each built from the same untouched history.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Message } from "../../src/conversation";
import { serverFixture, user } from "./fixture";

let fx: Awaited<ReturnType<typeof serverFixture>>;
beforeAll(async () => (fx = await serverFixture()));
afterAll(() => fx.stop());

const answer = (message: Message, content = "result"): Message => ({
  role: "user",
  content: message.content.flatMap((b) => (b.type === "toolUse" ? [{ type: "toolResult" as const, toolUseId: b.id, content }] : [])),
});

test("Anthropic thinking + tools, then OpenAI, then Anthropic again: every request accepted", async () => {
  const history: Message[] = [user("start")];
  const turn = async (name: "anthropic" | "openai", thinking: boolean) => {
    const { end, message } = await fx.ask(name, history, { thinking });
    expect(end.errorMessage).toBeUndefined();
    history.push(message);
    return end;
  };

  fx.server.reply({ blocks: [
    { type: "thinking", thinking: "plan" },
    { type: "toolUse", name: "read", input: { path: "a" } },
    { type: "toolUse", name: "bash", input: { command: "ls" } },
  ] });
  expect((await turn("anthropic", true)).stopReason).toBe("toolUse");
  history.push(answer(history.at(-1)!));

  // OpenAI continues the tool loop, with an id shape Anthropic would refuse.
  fx.server.reply({ blocks: [{ type: "thinking", thinking: "hmm" }, { type: "toolUse", id: "functions.read:7", name: "read", input: { path: "b" } }] });
  expect((await turn("openai", true)).stopReason).toBe("toolUse");
  history.push(answer(history.at(-1)!, "second"));

  // Back to Anthropic with thinking on, mid tool loop: its last assistant turn is OpenAI's.
  fx.server.reply({ blocks: [{ type: "thinking", thinking: "again" }, { type: "text", text: "all done" }] });
  expect((await turn("anthropic", true)).stopReason).toBe("stop");

  history.push(user("and one more"));
  fx.server.reply({ blocks: [{ type: "text", text: "sure" }] });
  expect((await turn("openai", false)).stopReason).toBe("stop");
  fx.server.reply({ blocks: [{ type: "text", text: "bye" }] });
  expect((await turn("anthropic", true)).stopReason).toBe("stop");

  expect(fx.server.requests.slice(-5).map((r) => r.status ?? 200)).toEqual([200, 200, 200, 200, 200]);
});

test("Anthropic -> OpenAI Responses -> a compatible Chat Completions server -> Anthropic, thinking and tools in each: every request accepted", async () => {
  const history: Message[] = [user("start")];
  const responses = { AWL_OPENAI_API: "responses" };
  const turn = async (name: "anthropic" | "openai", env: Record<string, string>, blocks: Parameters<typeof fx.server.reply>[0]["blocks"]) => {
    fx.server.reply({ blocks });
    const { end, message } = await fx.ask(name, history, { thinking: true, env, sessionId: "hops" });
    expect(end.errorMessage).toBeUndefined();
    history.push(message, answer(message));
  };
  const before = fx.server.requests.length;
  await turn("anthropic", {}, [{ type: "thinking", thinking: "claude plans" }, { type: "toolUse", name: "read", input: { path: "a" } }]);
  await turn("openai", responses, [{ type: "thinking", thinking: "gpt plans" }, { type: "toolUse", name: "read", input: { path: "b" } }]);
  await turn("openai", { AWL_OPENAI_API: "chat" }, [{ type: "thinking", thinking: "local plans" }, { type: "toolUse", id: "functions.read:3", name: "read", input: { path: "c" } }]);
  await turn("anthropic", {}, [{ type: "thinking", thinking: "claude again" }, { type: "toolUse", name: "read", input: { path: "d" } }]);
  await turn("openai", responses, [{ type: "text", text: "done" }]);
  const sent = fx.server.requests.slice(before);
  expect(sent.map((r) => `${r.path} ${r.status}`)).toEqual([
    "/v1/messages 200", "/v1/responses 200", "/v1/chat/completions 200", "/v1/messages 200", "/v1/responses 200",
  ]);
  // Each signed block went back only to the API that signed it.
  expect(sent[3]!.rawBody).toContain("claude plans");
  expect(sent[3]!.rawBody).not.toContain("gpt plans");
  expect(sent[4]!.body.input.filter((item: any) => item.type === "reasoning").map((item: any) => item.summary[0].text)).toEqual(["gpt plans"]);
});
