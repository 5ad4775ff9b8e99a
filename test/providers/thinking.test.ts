// Thinking must come back to Anthropic byte-identical with its signature (the
// strict server verifies it), and never go to a provider that cannot verify it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Message } from "../../src/conversation";
import { serverFixture, user } from "./fixture";

let fx: Awaited<ReturnType<typeof serverFixture>>;
beforeAll(async () => (fx = await serverFixture()));
afterAll(() => fx.stop());

test("Anthropic thinking, redacted thinking and a tool call round-trip into the next request byte-identical", async () => {
  const thinking = "Let me think about \"quotes\", ünïcödé and 🌍\nacross lines.";
  fx.server.reply(
    {
      blocks: [
        { type: "thinking", thinking },
        { type: "redactedThinking" },
        { type: "toolUse", name: "read", input: { path: "a.ts" } },
      ],
      splitBytes: true,
    },
    { blocks: [{ type: "text", text: "done" }] },
  );
  const first = await fx.ask("anthropic", [user("go")], { thinking: true });
  expect(first.end.stopReason).toBe("toolUse");
  const [thought, redacted, call] = first.message.content;
  // Plain field checks: Bun's toMatchObject with expect.any() writes the matcher into the received object.
  if (thought?.type !== "thinking" || redacted?.type !== "thinking" || call?.type !== "toolUse") throw new Error("unexpected blocks");
  expect([thought.thinking, typeof thought.signature, thought.redacted]).toEqual([thinking, "string", undefined]);
  expect([redacted.thinking, typeof redacted.signature, redacted.redacted]).toEqual(["", "string", true]);

  const history: Message[] = [
    user("go"),
    first.message,
    { role: "user", content: [{ type: "toolResult", toolUseId: call.id, content: "contents" }] },
  ];
  const second = await fx.ask("anthropic", history, { thinking: true });
  expect(second.end.errorMessage).toBeUndefined();
  expect(second.end.stopReason).toBe("stop");
  const sent = (fx.server.requests.at(-1)!.body as any).messages[1].content;
  expect(sent[0]).toEqual({ type: "thinking", thinking, signature: thought.signature });
  expect(sent[1]).toEqual({ type: "redacted_thinking", data: redacted.signature });
  expect(fx.server.requests.at(-1)!.rawBody).toContain(JSON.stringify(thinking));
});

test("OpenAI-compatible reasoning streams as thinking and is not sent back", async () => {
  fx.server.reply({ blocks: [{ type: "thinking", thinking: "pondering" }, { type: "text", text: "answer" }] }, {});
  const first = await fx.ask("openai", [user("q")], { thinking: true });
  expect(first.message.content).toEqual([
    { type: "thinking", thinking: "pondering" },
    { type: "text", text: "answer" },
  ]);
  await fx.ask("openai", [user("q"), first.message, user("next")]);
  const body = fx.server.requests.at(-1)!.body as any;
  expect(body.messages.map((m: any) => [m.role, m.content])).toEqual([
    ["system", "You are a test."],
    ["user", "q"],
    ["assistant", "answer"],
    ["user", "next"],
  ]);
});
