// Anthropic Messages API, streaming: `POST {base}/v1/messages`. The stream is
// named SSE events (message_start, content_block_start/delta/stop,
// message_delta, message_stop, ping, error); this file turns them into
// StreamEvents. The request body is built by anthropic-wire.ts.

import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ThinkingOrigin } from "../conversation";
import type { ApiIdentity } from "./api-errors";
import { describeStreamError, identityOf, parseApiError, StreamFailure } from "./api-errors";
import { INTERLEAVED_THINKING_BETA, interleavesThinking, requestBody } from "./anthropic-wire";
import { jsonBody } from "./json-body";
import { streamWithRetries, type StreamParser } from "./http-stream";
import { originOf } from "./origins";
import type { Connection, Provider, StopReason, StreamEvent, StreamRequest, Usage } from "./provider";
import type { SseEvent } from "./sse";
import { USER_AGENT } from "./user-agent";

export const ANTHROPIC_VERSION = "2023-06-01";

type End = Extract<StreamEvent, { type: "end" }>;
/** A content block start, read loosely: awl keeps four kinds and skips the rest. */
type WireBlock = { type: string } & Record<string, unknown>;

/** Anthropic's stop reasons in awl's terms; refusal is an error with a message. */
const STOP_REASONS: Record<string, StopReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  tool_use: "toolUse",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  refusal: "error",
};

/** Error types worth another try when they arrive in the stream. */
const RETRYABLE_STREAM_ERRORS = new Set(["overloaded_error", "api_error", "rate_limit_error", "timeout_error"]);

export class AnthropicStreamParser implements StreamParser {
  done = false;
  usage: Usage | undefined;
  #api: ApiIdentity;
  /** Anthropic block index -> awl block index; -1 for blocks awl does not keep (server tools). */
  #indexes: number[] = [];
  #next = 0;
  #stopReason: string | undefined;
  /** Stamped on every signed block, so it goes back only to this API and key. */
  #origin: ThinkingOrigin;

  constructor(api: ApiIdentity, origin: ThinkingOrigin) {
    this.#api = api;
    this.#origin = origin;
  }

  event({ event, data }: SseEvent, out: StreamEvent[]): void {
    // Deltas dominate the stream: check them first, by the SSE event name.
    if (event === "ping") return;
    const message = parse(data, this.#api);
    // An `event: error` whose data is `null` (or anything but an object) is
    // still the API's error, reported in one line, not a TypeError.
    if (!message || typeof message !== "object") {
      if (event === "error") throw new StreamFailure(describeStreamError(this.#api, {}), false);
      return;
    }
    switch (message.type) {
      case "content_block_delta": {
        const index = this.#indexes[message.index] ?? -1;
        if (index < 0) return;
        const delta = message.delta;
        if (!delta) return;
        if (delta.type === "text_delta") out.push({ type: "delta", index, text: delta.text });
        else if (delta.type === "input_json_delta") out.push({ type: "delta", index, text: delta.partial_json });
        else if (delta.type === "thinking_delta") out.push({ type: "delta", index, text: delta.thinking });
        else if (delta.type === "signature_delta") out.push({ type: "signature", index, signature: delta.signature, origin: this.#origin });
        return;
      }
      case "content_block_start":
        return this.#blockStart(message.index, message.content_block as unknown as WireBlock, out);
      case "content_block_stop": {
        const index = this.#indexes[message.index] ?? -1;
        if (index >= 0) out.push({ type: "blockStop", index });
        return;
      }
      case "message_start":
        this.usage = { input: 0, output: 0 };
        return readUsage(this.usage, message.message.usage);
      case "message_delta":
        if (message.delta.stop_reason) this.#stopReason = message.delta.stop_reason;
        // Its figures are cumulative: output_tokens always, and newer API versions restate the input ones.
        return readUsage((this.usage ??= { input: 0, output: 0 }), message.usage);
      case "message_stop":
        this.done = true;
        return;
      default:
        if ((message as { type: string }).type === "error") {
          const info = parseApiError(message);
          throw new StreamFailure(describeStreamError(this.#api, info), RETRYABLE_STREAM_ERRORS.has(info.type ?? ""), info);
        }
      // Unknown events are ignored: the API adds new ones over time.
    }
  }

  finish(): End {
    if (!this.done && !this.#stopReason) {
      throw new StreamFailure(`${this.#api.label} closed the stream before the response finished`, true);
    }
    const reason = this.#stopReason ?? "end_turn";
    const stopReason = STOP_REASONS[reason] ?? "stop";
    const end: End = { type: "end", stopReason, usage: this.usage };
    if (reason === "refusal") end.errorMessage = "Claude declined to continue this response (refusal)";
    return end;
  }

  #blockStart(wireIndex: number, block: WireBlock, out: StreamEvent[]): void {
    let index = -1;
    const at = () => (index = this.#next++);
    if (block.type === "text") {
      out.push({ type: "blockStart", index: at(), block: { type: "text", text: "" } });
      if (typeof block.text === "string" && block.text) out.push({ type: "delta", index, text: block.text });
    } else if (block.type === "thinking") {
      out.push({ type: "blockStart", index: at(), block: { type: "thinking", thinking: "" } });
      if (typeof block.thinking === "string" && block.thinking) out.push({ type: "delta", index, text: block.thinking });
      if (typeof block.signature === "string" && block.signature)
        out.push({ type: "signature", index, signature: block.signature, origin: this.#origin });
    } else if (block.type === "redacted_thinking") {
      // The in-memory model keeps the opaque payload in `signature` (conversation/content.ts).
      const block_ = { type: "thinking" as const, thinking: "", signature: String(block.data ?? ""), redacted: true, origin: this.#origin };
      out.push({ type: "blockStart", index: at(), block: block_ });
    } else if (block.type === "tool_use") {
      out.push({ type: "blockStart", index: at(), block: { type: "toolUse", id: String(block.id), name: String(block.name), input: "" } });
      // The start carries `input: {}`; the real input follows as input_json_delta.
      const input = block.input;
      if (input && typeof input === "object" && Object.keys(input).length)
        out.push({ type: "delta", index, text: JSON.stringify(input) });
    }
    this.#indexes[wireIndex] = index;
  }
}

type WireUsage = Partial<Record<"input_tokens" | "output_tokens" | "cache_read_input_tokens" | "cache_creation_input_tokens", number | null>>;

/**
 * Anthropic's usage in awl's terms. `input_tokens` is already the uncached
 * part (the cache reads and writes are counted beside it), so the three add
 * up to the prompt. A figure the event does not carry (absent or null) keeps
 * what an earlier event said.
 */
function readUsage(usage: Usage, wire: WireUsage | undefined): void {
  if (typeof wire?.input_tokens === "number") usage.input = wire.input_tokens;
  if (typeof wire?.output_tokens === "number") usage.output = wire.output_tokens;
  if (typeof wire?.cache_read_input_tokens === "number") usage.cacheRead = wire.cache_read_input_tokens;
  if (typeof wire?.cache_creation_input_tokens === "number") usage.cacheWrite = wire.cache_creation_input_tokens;
}

function parse(data: string, api: ApiIdentity): RawMessageStreamEvent | null {
  try {
    return JSON.parse(data) as RawMessageStreamEvent | null;
  } catch {
    throw new StreamFailure(`${api.label} sent a malformed stream event`, true);
  }
}

/** The headers that authenticate a request (and a catalogue fetch) to the Messages API. */
export function anthropicHeaders(apiKey: string | undefined): Record<string, string> {
  return { "x-api-key": apiKey ?? "", "anthropic-version": ANTHROPIC_VERSION, "user-agent": USER_AGENT };
}

export class AnthropicProvider implements Provider {
  readonly name: string;
  readonly api = "anthropic-messages" as const;
  readonly #api: ApiIdentity;
  readonly #url: string;
  readonly #origin: ThinkingOrigin;

  constructor(private readonly connection: Connection) {
    this.name = connection.provider;
    this.#url = `${connection.baseUrl}/v1/messages`;
    this.#origin = originOf(this.api, connection.baseUrl, connection.apiKey);
    this.#api = identityOf(connection);
  }

  stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    const body = requestBody(request, this.#origin);
    const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream", ...anthropicHeaders(this.connection.apiKey) };
    // Lets the model think after each tool result, not only once per turn.
    if (body.thinking?.type === "enabled" && interleavesThinking(request.model)) headers["anthropic-beta"] = INTERLEAVED_THINKING_BETA;
    return streamWithRetries({
      api: this.#api,
      url: this.#url,
      headers,
      body: jsonBody(body, "messages"),
      model: request.model,
      signal: request.signal,
      env: this.connection.env,
      createParser: () => new AnthropicStreamParser(this.#api, this.#origin),
    });
  }
}
