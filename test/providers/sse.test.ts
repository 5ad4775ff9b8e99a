import { describe, expect, test } from "bun:test";
import { SseParser, sseBatches, type SseEvent } from "../../src/providers/sse";
import { chunkedBody } from "./helpers";

async function readAll(text: string, size: number): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const batch of sseBatches(chunkedBody(text, size))) events.push(...batch);
  return events;
}

describe("SSE reader", () => {
  const stream =
    "event: message_start\ndata: {\"a\":1}\n\n" +
    ": keep-alive comment\n\n" +
    "data: first line\ndata: second line\n\n" +
    "event: delta\r\ndata: {\"text\":\"héllo 🌍 日本\"}\r\n\r\n" +
    "data:no-space\n\n";
  const expected: SseEvent[] = [
    { event: "message_start", data: '{"a":1}' },
    { event: "", data: "first line\nsecond line" },
    { event: "delta", data: '{"text":"héllo 🌍 日本"}' },
    { event: "", data: "no-space" },
  ];

  test("reads named events, multi-line data, comments and CRLF, however the bytes are split", async () => {
    for (const size of [1, 2, 3, 5, 13, 1000]) expect(await readAll(stream, size)).toEqual(expected);
  });

  test("a last event without its blank line still arrives when the body ends", async () => {
    expect(await readAll("data: [DONE]", 4)).toEqual([{ event: "", data: "[DONE]" }]);
  });

  test("lone CR line endings, even when a CRLF is split across chunks", () => {
    const parser = new SseParser();
    const out: SseEvent[] = [];
    parser.push("event: x\r", out);
    parser.push("\ndata: 1\r\r", out);
    parser.push("data: 2\rdata: 3\r", out);
    parser.push("\n\r\n", out);
    expect(out).toEqual([
      { event: "x", data: "1" },
      { event: "", data: "2\n3" },
    ]);
  });

  test("an event with no data is not dispatched", async () => {
    expect(await readAll("event: ping\n\n: only a comment\n\n", 3)).toEqual([]);
  });
});
