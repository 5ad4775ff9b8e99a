import { expect, test } from "bun:test";
import { jsonBody } from "../../src/providers/json-body";

const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));

test("a body serialized message by message is the same JSON, non-ASCII text included", () => {
  const body = { model: "m", stream: true, messages: [{ role: "user", content: "plain" }, { role: "assistant", content: "dash — tick ✓ \u0000 \"quoted\"\n" }] };
  expect(decode(jsonBody(body, "messages"))).toEqual(body);
  expect(Buffer.from(jsonBody(body, "messages")).toString()).toBe(JSON.stringify({ model: "m", stream: true, messages: body.messages }));
});

test("an empty list, a list alone, and a body without the list", () => {
  expect(decode(jsonBody({ model: "m", messages: [] }, "messages"))).toEqual({ model: "m", messages: [] });
  expect(decode(jsonBody({ messages: [1, 2] }, "messages"))).toEqual({ messages: [1, 2] });
  expect(decode(jsonBody({ model: "m" }, "messages"))).toEqual({ model: "m" });
});
