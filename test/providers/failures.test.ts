// Every injected failure, per provider: retried (with retry events, and the
// request count to prove it) where a person would want that, surfaced at
// once where retrying cannot help, and never retried after content was shown
// unless the API itself said the answer failed and is worth asking again
// (overloaded mid-stream): that answer starts again.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Conversation, type Message } from "../../src/conversation";
import { createProvider } from "../../src/providers";
import { STREAM_ABOVE_BYTES } from "../../src/providers/json-body";
import type { ProviderName } from "../../src/providers/provider";
import { ANTHROPIC_MAX_REQUEST_BYTES, startTestServer } from "../support/server";
import { serverFixture, user } from "./fixture";
import { collect, endOf } from "./helpers";

let fx: Awaited<ReturnType<typeof serverFixture>>;
beforeAll(async () => (fx = await serverFixture()));
afterAll(() => fx.stop());


describe.each(["anthropic", "openai"] as ProviderName[])("%s", (name) => {
  test.each([429, 500, 503, 529])("HTTP %i is retried, then the answer streams", async (status) => {
    fx.server.reply({ fault: { status, retryAfterMs: 5 } }, { blocks: [{ type: "text", text: "fine" }] });
    const { result, requests: { length: count } } = await fx.requestsDuring(() => fx.ask(name, [user("hi")]));
    expect(count).toBe(2);
    expect(result.retries).toEqual([expect.objectContaining({ type: "retry", attempt: 1, delayMs: 5 })]);
    expect(result.end.stopReason).toBe("stop");
    expect(result.message.content).toEqual([{ type: "text", text: "fine" }]);
  });

  test("a history of megabytes goes out whole with its length declared, and again whole on a retry", async () => {
    const long = Array.from({ length: 3000 }, (_, i) => `line ${i}: const x = "quoted" \\ ${i % 7 ? "" : "— ✓ 日本"}\n`).join("").repeat(12);
    const history: Message[] = [user(long), { role: "assistant", content: [{ type: "text", text: "seen" }] }, user("and now?")];
    fx.server.reply({ fault: { status: 529, retryAfterMs: 5 } }, { blocks: [{ type: "text", text: "fine" }] });
    const { result, requests: { length: count } } = await fx.requestsDuring(() => fx.ask(name, history));
    expect(count).toBe(2);
    expect(result.message.content).toEqual([{ type: "text", text: "fine" }]);
    const [first, second] = fx.server.requests.slice(-2);
    expect(Buffer.byteLength(first!.rawBody)).toBeGreaterThan(STREAM_ABOVE_BYTES); // streamed to fetch, not handed over whole
    for (const request of [first!, second!]) {
      expect(request.headers["transfer-encoding"]).toBeUndefined();
      expect(Number(request.headers["content-length"])).toBe(Buffer.byteLength(request.rawBody));
      const sent = request.body.messages.filter((m: { role: string }) => m.role !== "system");
      const text = (m: { content: string | { text: string }[] }) => (typeof m.content === "string" ? m.content : m.content.map((b) => b.text).join(""));
      expect(sent.map(text)).toEqual([long, "seen", "and now?"]);
    }
    expect(second!.rawBody).toBe(first!.rawBody);
  });

  test("gives up after 6 tries with the last error", async () => {
    fx.server.reply(...Array.from({ length: 6 }, () => ({ fault: { status: 500 } })));
    const { result, requests: { length: count } } = await fx.requestsDuring(() => fx.ask(name, [user("hi")]));
    expect(count).toBe(6);
    expect(result.retries).toHaveLength(5);
    expect(result.end.stopReason).toBe("error");
    expect(result.end.errorMessage).toContain("gave up after 6 tries");
  });

  test.each([400, 401, 403, 404, 413])("HTTP %i is surfaced at once", async (status) => {
    fx.server.reply({ fault: { status, message: `failure ${status}` } });
    const { result, requests: { length: count } } = await fx.requestsDuring(() => fx.ask(name, [user("hi")]));
    expect(count).toBe(1);
    expect(result.retries).toEqual([]);
    expect(result.end.stopReason).toBe("error");
    expect(result.end.errorMessage).toMatch(/\S/);
    expect(result.end.errorMessage).not.toContain("\n");
  });

  test("a rejected key says which variable to check and never shows the key", async () => {
    const key = name === "anthropic" ? fx.server.anthropicKey : fx.server.openaiKey;
    fx.server.reply({ fault: { status: 401, message: `invalid x-api-key ${key}` } });
    const { end } = await fx.ask(name, [user("hi")]);
    const label = name === "anthropic" ? "Anthropic" : "OpenAI";
    expect(end.errorMessage).toBe(`${label} rejected the API key (401): check ${name.toUpperCase()}_API_KEY`);
  });

  test("a server error message echoing the key is cleaned", async () => {
    const key = name === "anthropic" ? fx.server.anthropicKey : fx.server.openaiKey;
    fx.server.reply({ fault: { status: 400, message: `bad request from ${key}` } });
    const { end } = await fx.ask(name, [user("hi")]);
    expect(end.errorMessage).not.toContain(key);
  });

  test("an exhausted quota (429 insufficient_quota) is not retried", async () => {
    fx.server.reply({ fault: { status: 429, code: "insufficient_quota", errorType: "insufficient_quota", message: "You exceeded your current quota" } });
    const { result, requests: { length: count } } = await fx.requestsDuring(() => fx.ask(name, [user("hi")]));
    expect(count).toBe(1);
    expect(result.end.errorMessage).toContain("quota");
  });

  test.each(["overloaded", "drop", "stall"] as const)("%s before any content is retried", async (midStream) => {
    fx.server.reply({ fault: { midStream, afterEvents: 1 } }, { blocks: [{ type: "text", text: "second try" }] });
    const { result, requests: { length: count } } = await fx.requestsDuring(() => fx.ask(name, [user("hi")]));
    expect(count).toBe(2);
    expect(result.retries).toHaveLength(1);
    expect(result.message.content).toEqual([{ type: "text", text: "second try" }]);
  });

  test("overloaded after content was shown: the answer starts again, and only the second is kept", async () => {
    fx.server.reply({ blocks: [{ type: "text", text: "abcdefghijklmnopqrstuvwxyz" }], chunk: 2, delayMs: 5, fault: { midStream: "overloaded", afterEvents: 6 } }, { blocks: [{ type: "text", text: "second try" }] });
    const { result, requests: { length: count } } = await fx.requestsDuring(() => fx.ask(name, [user("hi")]));
    expect(count).toBe(2);
    expect(result.retries).toMatchObject([{ attempt: 1, restart: true }]);
    expect(result.end.stopReason).toBe("stop");
    expect(result.message.content).toEqual([{ type: "text", text: "second try" }]);
  });

  test.each(["drop", "stall"] as const)("%s after content was shown ends in an error with the partial content", async (midStream) => {
    fx.server.reply({ blocks: [{ type: "text", text: "abcdefghijklmnopqrstuvwxyz" }], chunk: 2, delayMs: 5, fault: { midStream, afterEvents: 6 } });
    const { result, requests: { length: count } } = await fx.requestsDuring(() => fx.ask(name, [user("hi")]));
    expect(count).toBe(1);
    expect(result.retries).toEqual([]);
    expect(result.end.stopReason).toBe("error");
    expect(result.end.aborted).toBeUndefined();
    expect(result.end.errorMessage).toMatch(/\S/);
    const text = result.message.content[0];
    expect(text?.type === "text" && text.text.length).toBeGreaterThan(0);
  });

  test("an unknown model is a clear one-line error", async () => {
    const strict = await startTestServer({ knownModels: ["some-other-model"] });
    try {
      const env = name === "anthropic"
        ? { ANTHROPIC_API_KEY: strict.anthropicKey, ANTHROPIC_BASE_URL: strict.anthropicUrl }
        : { OPENAI_API_KEY: strict.openaiKey, OPENAI_BASE_URL: strict.openaiUrl };
      const events = await collect(createProvider(name, env).stream({
        model: "no-such-model", system: "", conversation: new Conversation([user("hi")]), tools: [], maxTokens: 100,
        signal: new AbortController().signal,
      }));
      expect(endOf(events).errorMessage).toContain('does not serve the model "no-such-model" (404: retired, or never an id)');
      // The line states the fact; what to do is a remedy each front end words (--model on the command line, /model in the REPL).
      expect(endOf(events).errorMessage).not.toMatch(/--model|\/model/);
      expect(endOf(events).remedy).toEqual({ kind: "model", model: "no-such-model" });
    } finally {
      await strict.stop();
    }
  });
});

test("a history over Anthropic's 32 MB request limit gets its 413 at once: an overflow with no stated limit, not retried", async () => {
  const huge = "x".repeat(ANTHROPIC_MAX_REQUEST_BYTES + 1000);
  const { result, requests: { length: count } } = await fx.requestsDuring(() => fx.ask("anthropic", [user(huge)]));
  expect(count).toBe(1);
  expect(result.end.stopReason).toBe("error");
  expect(result.end.overflow).toEqual({});
  expect(result.end.errorMessage).toBe("The conversation is too long for claude-sonnet-4-5 (Request exceeds the maximum allowed number of bytes)");
  expect(Number(fx.server.requests.at(-1)!.headers["content-length"])).toBeGreaterThan(ANTHROPIC_MAX_REQUEST_BYTES); // refused by its length
});
