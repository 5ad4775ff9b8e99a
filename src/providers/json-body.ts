// A request body as UTF-8 JSON bytes, serialized message by message.
// Why not one JSON.stringify: a resumed session sends its whole history, and
// one non-ASCII character anywhere turns JavaScriptCore's single result string
// into UTF-16 (twice the bytes), which fetch must then convert to UTF-8 again.
// Per message, most strings stay one byte per character, and they are written
// once into a buffer of the exact size (a Blob of the parts took twice as
// long). The same bytes are re-sent on retries. For 95 MB of history:
// 1.3-1.7 s -> 0.8-1.1 s (test/bench/scale.bench.ts has the whole resume).

/** `body` as JSON bytes; `listKey` names the array serialized item by item. */
export function jsonBody(body: object, listKey: string): Uint8Array {
  const { [listKey]: list, ...rest } = body as Record<string, unknown>;
  if (!Array.isArray(list)) return Buffer.from(JSON.stringify(body));
  const head = JSON.stringify(rest);
  const parts: string[] = [head === "{}" ? "{" : `${head.slice(0, -1)},`, `${JSON.stringify(listKey)}:[`];
  // The comma is a part of its own: prefixing it would make each item a rope
  // that has to be flattened (copied) again before it is measured and written.
  list.forEach((item, i) => (i ? parts.push(",", JSON.stringify(item)) : parts.push(JSON.stringify(item))));
  parts.push("]}");
  let size = 0;
  for (const part of parts) size += Buffer.byteLength(part);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const part of parts) at += bytes.write(part, at);
  return bytes;
}
