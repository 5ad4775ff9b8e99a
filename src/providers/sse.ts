// A small streaming Server-Sent Events reader. Both providers stream SSE; this
// turns raw body bytes into (event, data) pairs. It yields one batch per body
// chunk (possibly empty) so the caller can note that bytes arrived (idle
// timeout) and pays one async step per chunk, not per event: the hot path of
// a long answer is thousands of tiny events.

export interface SseEvent {
  /** The `event:` field, "" when the server sent none (OpenAI). */
  event: string;
  /** The `data:` lines joined with "\n". */
  data: string;
}

/** Incremental parser: push decoded text, receive complete events. */
export class SseParser {
  #buffer = "";
  #event = "";
  #data: string | undefined;
  /** A chunk ended in "\r": the next chunk's leading "\n" belongs to it. */
  #pendingCr = false;

  push(text: string, out: SseEvent[]): void {
    if (this.#pendingCr) {
      this.#pendingCr = false;
      if (text.startsWith("\n")) text = text.slice(1);
    }
    // Normalise CRLF and lone CR once per chunk; the common case has none.
    if (text.includes("\r")) {
      if (text.endsWith("\r")) this.#pendingCr = true;
      text = text.replace(/\r\n?/g, "\n");
    }
    const buffer = this.#buffer + text;
    let start = 0;
    let newline: number;
    while ((newline = buffer.indexOf("\n", start)) !== -1) {
      this.#line(buffer.slice(start, newline), out);
      start = newline + 1;
    }
    this.#buffer = start === 0 ? buffer : buffer.slice(start);
  }

  /** End of body: a last event without its blank line still counts (lenient servers). */
  end(out: SseEvent[]): void {
    if (this.#buffer) this.#line(this.#buffer, out);
    this.#buffer = "";
    this.#line("", out);
  }

  #line(line: string, out: SseEvent[]): void {
    if (line === "") {
      if (this.#data !== undefined) out.push({ event: this.#event, data: this.#data });
      this.#event = "";
      this.#data = undefined;
      return;
    }
    if (line.charCodeAt(0) === 58 /* ":" comment, e.g. keep-alives */) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "data") this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
    else if (field === "event") this.#event = value;
    // `id` and `retry` are not used by either API; other fields are ignored per the spec.
  }
}

/** Reads a body as SSE; yields the events of each chunk (an empty batch when a chunk completed none). */
export async function* sseBatches(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent[]> {
  // A streaming decoder keeps a UTF-8 character split across chunks intact.
  const decoder = new TextDecoder("utf-8");
  const parser = new SseParser();
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const out: SseEvent[] = [];
      if (done) {
        finished = true;
        parser.push(decoder.decode(), out);
        parser.end(out);
        if (out.length) yield out;
        return;
      }
      parser.push(decoder.decode(value, { stream: true }), out);
      yield out;
    }
  } finally {
    // A consumer that stops early (end event, error) frees the connection.
    if (!finished) reader.cancel().catch(() => {});
  }
}
