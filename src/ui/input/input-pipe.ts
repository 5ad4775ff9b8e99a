// readLine without a terminal on both ends (`echo hi | awl`): no editing, one line
// per call. What was read past the line stays buffered for the next call, so
// consecutive calls see consecutive lines.

export type LineResult = { kind: "line"; text: string } | { kind: "quit" };

interface Pending {
  text: string;
  ended: boolean;
  utf8: TextDecoder;
}

const pendingByStream = new WeakMap<NodeJS.ReadableStream, Pending>();

export async function readPipedLine(input: NodeJS.ReadableStream): Promise<LineResult> {
  let pending = pendingByStream.get(input);
  if (!pending) {
    pending = { text: "", ended: false, utf8: new TextDecoder("utf-8") };
    pendingByStream.set(input, pending);
  }
  for (;;) {
    const newline = pending.text.indexOf("\n");
    if (newline !== -1) {
      const text = pending.text.slice(0, newline).replace(/\r$/, "");
      pending.text = pending.text.slice(newline + 1);
      return { kind: "line", text };
    }
    if (pending.ended || (input as { readableEnded?: boolean }).readableEnded) {
      // A last line without its newline still counts; after it, end of input means quit.
      pending.ended = true;
      if (pending.text === "") return { kind: "quit" };
      const text = pending.text;
      pending.text = "";
      return { kind: "line", text };
    }
    await readMore(input, pending);
  }
}

/** Waits for the next chunk (or the end), then pauses the stream so nothing is read while no one asks. */
function readMore(input: NodeJS.ReadableStream, pending: Pending): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      input.off("data", onData);
      input.off("end", onEnd);
      input.off("error", onError);
      input.pause();
    };
    const onData = (chunk: Buffer | string) => {
      pending.text += typeof chunk === "string" ? chunk : pending.utf8.decode(chunk, { stream: true });
      done();
      resolve();
    };
    const onEnd = () => {
      pending.ended = true;
      pending.text += pending.utf8.decode();
      done();
      resolve();
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    input.on("data", onData);
    input.on("end", onEnd);
    input.on("error", onError);
    input.resume();
  });
}
