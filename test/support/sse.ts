// Writes a list of SSE events as a streaming HTTP body, with the faults a real
// network produces: pauses, bytes cut at arbitrary places (inside an event,
// inside a UTF-8 character), a connection that drops, a stream that stalls.

export interface StreamPlan {
  /** Complete SSE events, each ending in a blank line. */
  frames: string[];
  delayMs?: number;
  splitBytes?: boolean;
  /** After `afterEvents` frames: send `errorFrame` and end (overloaded, errorEvent) / drop the connection / go silent. */
  midStream?: { action: "overloaded" | "errorEvent" | "drop" | "stall"; afterEvents: number; errorFrame: string };
  /** Aborts when the client goes away (ends a stall or a slow stream). */
  signal: AbortSignal;
  /** Resolves when the server stops (ends a stall). */
  stopped: Promise<void>;
}

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
};

const encoder = new TextEncoder();

/** Random piece sizes 1..7 bytes: small enough to land inside most multi-byte characters. */
export function randomCuts(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; ) {
    const size = 1 + Math.floor(Math.random() * 7);
    out.push(bytes.subarray(i, i + size));
    i += size;
  }
  return out;
}

export function sseBody(plan: StreamPlan): ReadableStream {
  let closed = false;
  plan.signal.addEventListener("abort", () => (closed = true), { once: true });

  // A "direct" stream lets us flush each write to the socket, so a piece of an
  // event really arrives as its own read on the client instead of being
  // coalesced with its neighbours.
  return new ReadableStream({
    type: "direct",
    async pull(controller) {
      const write = async (text: string) => {
        const bytes = encoder.encode(text);
        const parts = plan.splitBytes ? randomCuts(bytes) : [bytes];
        for (const part of parts) {
          if (closed) return;
          const written = await controller.write(part);
          if (written === 0) closed = true; // the client went away
          await controller.flush(true);
          // Without a turn of the event loop Bun coalesces the pieces into
          // one socket write and the client never sees the cut.
          if (parts.length > 1) await Bun.sleep(0);
        }
      };
      try {
        for (let i = 0; i <= plan.frames.length; i++) {
          const fault = plan.midStream;
          if (fault && i === fault.afterEvents) {
            if (fault.action === "overloaded" || fault.action === "errorEvent") {
              await write(fault.errorFrame);
              break;
            }
            if (fault.action === "drop") {
              // Let what was written reach the client, then fail the stream:
              // Bun resets the socket and the client sees a truncated chunked
              // body (ECONNRESET), like a dropped connection. Bun logs the
              // reason to stderr; it is expected.
              await Bun.sleep(10);
              controller.close("test server: dropped the connection as scripted (midStream: drop)" as unknown as Error);
              return;
            }
            await Promise.race([plan.stopped, new Promise((resolve) => plan.signal.addEventListener("abort", resolve, { once: true }))]);
            break;
          }
          const frame = plan.frames[i];
          if (frame === undefined || closed) break;
          await write(frame);
          if (plan.delayMs && i < plan.frames.length - 1) await Bun.sleep(plan.delayMs);
        }
      } catch (error) {
        if (!closed) throw error;
      }
      if (!closed) controller.close();
    },
  });
}
