// A request body as UTF-8 JSON whose exact size is known before any of it is
// serialized, so a large one can be serialized while it uploads.
//
// Why: a resumed session sends its whole history, 100 MB or more. Built whole
// first, that text existed as JSON strings (UTF-16 from the first non-ASCII
// character: twice the bytes), as their UTF-8 bytes, and as fetch's copy of
// those; fresh memory costs ~3.7 ms per MB in page faults on this machine, so
// the copies were most of the time. Now the size is counted from the values
// (jsonByteLength: no allocation), the request goes out with that
// Content-Length (not chunked: some OpenAI-compatible servers refuse chunked
// uploads with 411), and the body is stringified message by message into
// 1 MB chunks as fetch asks for them. test/bench/scale.bench.ts has the whole
// resume.
import { jsonByteLength } from "../json";

export interface JsonBody {
  readonly size: number;
  /** The bytes, serialized as they are read; every call starts over (a retry sends them again). */
  chunks(): Generator<Uint8Array>;
}

/** Bodies up to this size go to fetch as one buffer, the way small requests always have. */
export const STREAM_ABOVE_BYTES = 1 << 20;
/** Fetch writes a streamed body a chunk at a time: one per message made 95 MB take 1.7 s longer. */
const CHUNK_BYTES = 1 << 20;
const encoder = new TextEncoder();

/** `body` as JSON; `listKey` names the array serialized item by item. */
export function jsonBody(body: object, listKey: string): JsonBody {
  const { [listKey]: list, ...rest } = body as Record<string, unknown>;
  if (!Array.isArray(list)) return fromTexts(jsonByteLength(body), function* () {
    yield JSON.stringify(body);
  });
  const head = JSON.stringify(rest);
  const open = `${head === "{}" ? "{" : `${head.slice(0, -1)},`}${JSON.stringify(listKey)}:[`;
  const close = "]}";
  let size = Buffer.byteLength(open) + Math.max(0, list.length - 1) + close.length;
  for (const item of list) size += jsonByteLength(item);
  return fromTexts(size, function* () {
    yield open;
    for (let i = 0; i < list.length; i++) {
      if (i) yield ",";
      yield JSON.stringify(list[i]);
    }
    yield close;
  });
}

/** What to give fetch: `body`, and the headers it needs beside the caller's. */
export function fetchBody(body: JsonBody): { body: Uint8Array | ReadableStream<Uint8Array>; headers: Record<string, string> } {
  if (body.size <= STREAM_ABOVE_BYTES) {
    const chunks = [...body.chunks()]; // one, unless the count were wrong
    return { body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), headers: {} };
  }
  const chunks = body.chunks();
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (!next.done) sent += next.value.byteLength;
      // A wrong count would send a request cut short or run into the next one: fail it instead.
      if (sent > body.size || (next.done && sent !== body.size)) {
        controller.error(new Error(`awl counted a request body of ${body.size} bytes but serialized ${sent}${next.done ? "" : " or more"}`));
      } else if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  // Without a length fetch would send the stream chunked.
  return { body: stream, headers: { "content-length": String(body.size) } };
}

/** A body of `size` bytes whose text is `texts`, encoded into chunks of CHUNK_BYTES as they are read. */
function fromTexts(size: number, texts: () => Iterable<string>): JsonBody {
  return {
    size,
    *chunks() {
      let chunk = Buffer.allocUnsafe(Math.min(size, CHUNK_BYTES));
      let used = 0;
      for (let text of texts()) {
        for (;;) {
          const { read, written } = encoder.encodeInto(text, chunk.subarray(used));
          used += written;
          if (read === text.length) break;
          // Full (encodeInto never splits a character): the rest goes to the next chunk.
          text = text.slice(read);
          yield chunk.subarray(0, used);
          chunk = Buffer.allocUnsafe(CHUNK_BYTES);
          used = 0;
        }
      }
      if (used) yield chunk.subarray(0, used);
    },
  };
}
