// Both providers against the strict test server: what a person sees stream in
// must be what the assembled message holds, for every kind of content.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ProviderName } from "../../src/providers/provider";
import { serverFixture, user } from "./fixture";

let fx: Awaited<ReturnType<typeof serverFixture>>;
beforeAll(async () => (fx = await serverFixture()));
afterAll(() => fx.stop());

describe.each(["anthropic", "openai"] as ProviderName[])("%s", (name) => {
  test("streams text, cut anywhere in the bytes, into the message", async () => {
    const text = "Hello, wörld 🌍: ünïcödé 日本語 text that spans many deltas.";
    fx.server.reply({ blocks: [{ type: "text", text }], splitBytes: true, chunk: 2 });
    const { end, message, events } = await fx.ask(name, [user("hi")]);
    expect(end).toMatchObject({ type: "end", stopReason: "stop" });
    expect(message.content).toEqual([{ type: "text", text }]);
    expect(events.filter((e) => e.type === "delta").length).toBeGreaterThan(10);
  });

  test("parallel tool calls whose input arrives one character at a time", async () => {
    fx.server.reply({
      blocks: [
        { type: "text", text: "Reading both." },
        { type: "toolUse", name: "read", input: { path: "src/a.ts" } },
        { type: "toolUse", name: "bash", input: { command: "ls -la 'dir with spaces'" } },
      ],
      chunk: 1,
      splitBytes: true,
    });
    const { end, message } = await fx.ask(name, [user("read")]);
    expect(end.stopReason).toBe("toolUse");
    const calls = message.content.filter((b) => b.type === "toolUse");
    expect(calls.map((c) => [c.name, JSON.parse(c.input)])).toEqual([
      ["read", { path: "src/a.ts" }],
      ["bash", { command: "ls -la 'dir with spaces'" }],
    ]);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
  });

  test("the usage the server reports", async () => {
    fx.server.reply({ usage: { input: 1234, output: 56 } });
    // The cache figures are the parsers' tests' business (anthropic-parser, openai-parser).
    expect((await fx.ask(name, [user("hi")])).end.usage).toMatchObject({ input: 1234, output: 56 });
  });

  test.each([
    ["stop", "stop"],
    ["toolUse", "toolUse"],
    ["length", "length"],
    ["context_window", "length"],
    ["refusal", "error"],
  ] as const)("stop kind %s ends as %s", async (stop, expected) => {
    const blocks = stop === "toolUse" ? [{ type: "toolUse" as const, name: "read", input: { path: "a" } }] : undefined;
    fx.server.reply({ stop, ...(blocks ? { blocks } : {}) });
    const { end } = await fx.ask(name, [user("hi")]);
    expect(end.stopReason).toBe(expected);
    if (expected === "error") expect(end.errorMessage).toBeTruthy();
  });

  test("aborting mid-stream ends with the partial content already shown", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "x".repeat(200) }], chunk: 1, delayMs: 5 });
    const controller = new AbortController();
    let deltas = 0;
    const { end, message } = await fx.ask(name, [user("hi")], {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === "delta" && ++deltas === 3) controller.abort();
      },
    });
    expect(end).toMatchObject({ stopReason: "error", aborted: true, errorMessage: "Interrupted" });
    const text = message.content[0];
    expect(text?.type === "text" && text.text.length).toBeGreaterThanOrEqual(3);
    expect(text?.type === "text" && text.text.length).toBeLessThan(200);
  });

  test("sends the system prompt, the tools and streaming options as the API expects", async () => {
    fx.server.reply({});
    await fx.ask(name, [user("hi")], { system: "Be brief." });
    const body = fx.server.requests.at(-1)!.body as any;
    expect(body.stream).toBe(true);
    if (name === "anthropic") {
      expect(body.system).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
      expect(body.tools[0]).toMatchObject({ name: "read", input_schema: { type: "object" } });
    } else {
      expect(body.messages[0]).toEqual({ role: "system", content: "Be brief." });
      expect(body.stream_options).toEqual({ include_usage: true });
      expect(body.tools[0]).toMatchObject({ type: "function", function: { name: "read" } });
    }
  });
});
