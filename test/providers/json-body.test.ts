import { expect, test } from "bun:test";
import { fetchBody, jsonBody, STREAM_ABOVE_BYTES, type JsonBody } from "../../src/providers/json-body";

const text = (body: JsonBody) => new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat([...body.chunks()]));

test("a body serialized message by message is the same JSON, non-ASCII text included, and its size is its bytes'", () => {
  const body = { model: "m", stream: true, messages: [{ role: "user", content: "plain" }, { role: "assistant", content: "dash — tick ✓ 🌍 \u0000 \"quoted\"\n" }] };
  const sent = jsonBody(body, "messages");
  expect(text(sent)).toBe(JSON.stringify({ model: "m", stream: true, messages: body.messages }));
  expect(sent.size).toBe(Buffer.byteLength(text(sent)));
});

test("an empty list, a list alone, and a body without the list", () => {
  for (const [body, expected] of [
    [{ model: "m", messages: [] }, '{"model":"m","messages":[]}'],
    [{ messages: [1, 2] }, '{"messages":[1,2]}'],
    [{ model: "m" }, '{"model":"m"}'],
  ] as const) {
    const sent = jsonBody(body, "messages");
    expect(text(sent)).toBe(expected);
    expect(sent.size).toBe(expected.length);
  }
});

test("fetch gets a small body as one buffer, a large one as a stream of the same bytes with its length, as often as asked", async () => {
  const small = jsonBody({ messages: ["x".repeat(1000)] }, "messages");
  const one = fetchBody(small);
  expect(one.body).toBeInstanceOf(Uint8Array);
  expect(Buffer.from(one.body as Uint8Array).toString()).toBe(text(small));
  expect(one.headers).toEqual({});

  // Characters of 1 to 4 bytes, so chunk ends fall inside them.
  const large = jsonBody({ model: "m", messages: Array.from({ length: 900 }, (_, i) => `${i} ${"y".repeat(2000)} é ✓ 🌍 "\\`) }, "messages");
  expect(large.size).toBeGreaterThan(STREAM_ABOVE_BYTES);
  for (let attempt = 0; attempt < 2; attempt++) {
    const streamed = fetchBody(large);
    expect(streamed.body).toBeInstanceOf(ReadableStream);
    expect(streamed.headers).toEqual({ "content-length": String(large.size) });
    const bytes = new Uint8Array(await new Response(streamed.body).arrayBuffer());
    expect(bytes.byteLength).toBe(large.size);
    expect(new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toBe(text(large));
  }
});

test("a body that does not come to the size it announced fails the request instead of sending it", async () => {
  const real = jsonBody({ messages: Array.from({ length: 600 }, () => "z".repeat(2000)) }, "messages");
  for (const size of [real.size - 1, real.size + 1]) {
    const wrong: JsonBody = { size, chunks: () => real.chunks() };
    await expect(new Response(fetchBody(wrong).body).arrayBuffer()).rejects.toThrow(/counted a request body of/);
  }
});
