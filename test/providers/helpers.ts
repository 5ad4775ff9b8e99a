// Shared helpers for provider tests: feed recorded SSE bytes, split anywhere,
// through the real reader and a parser; collect a provider stream.
import type { StreamParser } from "../../src/providers/http-stream";
import type { StreamEvent } from "../../src/providers/provider";
import { sseBatches } from "../../src/providers/sse";

/** A body that delivers `bytes` in pieces of `size` bytes (cutting UTF-8 characters and lines anywhere). */
export function chunkedBody(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

/** Runs recorded SSE text through the reader and a parser; returns the events and the end. */
export async function parseRecorded(text: string, parser: StreamParser, size = 7): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const batch of sseBatches(chunkedBody(text, size))) {
    for (const event of batch) parser.event(event, out);
    if (parser.done) break;
  }
  out.push(parser.finish());
  return out;
}

export async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export function endOf(events: StreamEvent[]): Extract<StreamEvent, { type: "end" }> {
  const end = events.at(-1);
  if (end?.type !== "end") throw new Error(`stream did not end with an end event: ${JSON.stringify(end)}`);
  return end;
}
