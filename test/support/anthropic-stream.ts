// Anthropic Messages API answers as the real service streams them: named SSE
// events (message_start, content_block_*, ping, message_delta, message_stop).
// The SDK's types keep the event shapes honest.

import type {
  Message,
  RawContentBlockDeltaEvent,
  RawContentBlockStartEvent,
  RawContentBlockStopEvent,
  RawMessageDeltaEvent,
  RawMessageStopEvent,
} from "@anthropic-ai/sdk/resources/messages";
import { type Reply, type Signer, type TokenUsage, blocksOf, inputJson, pieces, randomId, stopOf } from "./script";

/** The mid-stream error event the real API sends when it is overloaded part-way. */
export const ANTHROPIC_OVERLOADED_EVENT = `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })}\n\n`;

const STOP = { stop: "end_turn", toolUse: "tool_use", length: "max_tokens", refusal: "refusal", context_window: "model_context_window_exceeded" } as const;

/** The complete streamed answer, one string per SSE event. */
export function renderAnthropic(reply: Reply, model: string, usage: TokenUsage, signer: Signer): string[] {
  const frames: string[] = [];
  const emit = <E extends { type: string }>(event: E): void => {
    frames.push(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  };
  const size = reply.chunk ?? 3;
  emit({
    type: "message_start",
    message: {
      id: "msg_01" + randomId(22),
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      // The real API reports a small provisional output count here; the
      // message_delta carries the cumulative total.
      usage: { ...inputUsage(usage), output_tokens: Math.min(1, usage.output), service_tier: "standard" },
    } satisfies Omit<Message, "container" | "diagnostics" | "stop_details" | "usage"> & { usage: Partial<Message["usage"]> },
  });
  // Anthropic has no refusal block: a refusal is the model's text and stop_reason "refusal".
  const blocks = blocksOf(reply).map((b) => (b.type === "refusal" ? { type: "text" as const, text: b.refusal } : b));
  if (blocks.length === 0) emit({ type: "ping" });
  blocks.forEach((block, index) => {
    const delta = (d: RawContentBlockDeltaEvent["delta"]) => emit({ type: "content_block_delta", index, delta: d } satisfies RawContentBlockDeltaEvent);
    const start = (content_block: unknown) => emit({ type: "content_block_start", index, content_block } as RawContentBlockStartEvent);
    if (block.type === "text") {
      start({ type: "text", text: "" });
      if (index === 0) emit({ type: "ping" });
      for (const text of pieces(block.text, size)) delta({ type: "text_delta", text });
    } else if (block.type === "thinking") {
      start({ type: "thinking", thinking: "", signature: "" });
      if (index === 0) emit({ type: "ping" });
      for (const thinking of pieces(block.thinking, size)) delta({ type: "thinking_delta", thinking });
      delta({ type: "signature_delta", signature: signer.sign(block.thinking) });
    } else if (block.type === "redactedThinking") {
      start({ type: "redacted_thinking", data: signer.redacted(block.data) });
      if (index === 0) emit({ type: "ping" });
    } else {
      start({ type: "tool_use", id: block.id ?? "toolu_01" + randomId(22), name: block.name, input: {} });
      if (index === 0) emit({ type: "ping" });
      for (const partial_json of pieces(inputJson(block.input), size)) delta({ type: "input_json_delta", partial_json });
    }
    emit({ type: "content_block_stop", index } satisfies RawContentBlockStopEvent);
  });
  emit({
    type: "message_delta",
    delta: { stop_reason: STOP[stopOf(reply)], stop_sequence: null },
    usage: { output_tokens: usage.output },
  } satisfies Pick<RawMessageDeltaEvent, "type"> & { delta: Partial<RawMessageDeltaEvent["delta"]>; usage: { output_tokens: number } });
  emit({ type: "message_stop" } satisfies RawMessageStopEvent);
  return frames;
}

/** A non-streaming answer: the same Message the stream would assemble. */
export function anthropicMessage(reply: Reply, model: string, usage: TokenUsage, signer: Signer): unknown {
  const content = blocksOf(reply).map((b) =>
    b.type === "text" || b.type === "refusal"
      ? { type: "text", text: b.type === "text" ? b.text : b.refusal }
      : b.type === "thinking"
        ? { type: "thinking", thinking: b.thinking, signature: signer.sign(b.thinking) }
        : b.type === "redactedThinking"
          ? { type: "redacted_thinking", data: signer.redacted(b.data) }
          : { type: "tool_use", id: b.id ?? "toolu_01" + randomId(22), name: b.name, input: typeof b.input === "string" ? JSON.parse(b.input) : b.input },
  );
  return {
    id: "msg_01" + randomId(22),
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: STOP[stopOf(reply)],
    stop_sequence: null,
    usage: { ...inputUsage(usage), output_tokens: usage.output, service_tier: "standard" },
  };
}

/** The input side of Usage as the real API reports it: uncached input, cache writes (by TTL) and reads. */
function inputUsage(usage: TokenUsage) {
  return {
    input_tokens: usage.input,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: usage.cacheWrite - usage.cacheWrite1h, ephemeral_1h_input_tokens: usage.cacheWrite1h },
  } satisfies Partial<Message["usage"]>;
}
