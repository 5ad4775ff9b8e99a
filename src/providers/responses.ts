// OpenAI's Responses API, streaming: `POST {base}/responses`, where the base
// ends in /v1. The stream is typed events (`response.output_item.added`,
// `response.output_text.delta`, `response.completed`, ...), each output item
// (a message, a reasoning item, a function call) becoming one block. The
// request body is built by responses-wire.ts.

import type { ResponseUsage } from "openai/resources/responses/responses";
import type { ContentBlock, ThinkingOrigin } from "../conversation";
import { describeStreamError, parseApiError, RETRYABLE_STREAM_ERROR, StreamFailure, type ApiErrorInfo, type ApiIdentity } from "./api-errors";
import { streamWithRetries, type StreamParser } from "./http-stream";
import { jsonBody } from "./json-body";
import type { StopReason, StreamEvent, StreamRequest, Usage } from "./provider";
import { requestBody, type ModelLimits } from "./responses-wire";
import type { SseEvent } from "./sse";

type End = Extract<StreamEvent, { type: "end" }>;
/** An output item, read loosely: awl keeps three kinds (message, reasoning, function_call) and skips the rest (server tools). */
interface OutputItem {
  type: string;
  id?: string;
  phase?: string | null;
  call_id?: string;
  name?: string;
  arguments?: string;
  encrypted_content?: string | null;
  summary?: { text?: string }[];
  content?: { type: string; text?: string; refusal?: string }[];
}
/** The events as read (ResponseStreamEvent's fields): every one optional, since servers that speak the API leave some out. */
interface WireEvent {
  type?: string;
  item?: OutputItem;
  item_id?: string;
  output_index?: number;
  delta?: string;
  summary_index?: number;
  arguments?: string;
  response?: { usage?: ResponseUsage | null; incomplete_details?: { reason?: string } | null; error?: unknown };
}


interface Item {
  /** awl's block index. */
  index: number;
  kind: ContentBlock["type"];
  /** Whether any delta arrived: if none did, the item's `done` carries the whole of it. */
  streamed: boolean;
  /** The reasoning summary part last appended to (parts are separated by a blank line). */
  summaryPart: number;
  stopped: boolean;
}

export class ResponsesStreamParser implements StreamParser {
  done = false;
  usage: Usage | undefined;
  #api: ApiIdentity;
  #origin: ThinkingOrigin;
  #next = 0;
  #byId = new Map<string, Item>();
  #byOutput: Item[] = [];
  /** Every item, in order: the terminal event closes those still open. */
  #items: Item[] = [];
  /** "completed" or "incomplete", once the terminal event arrived. */
  #status: string | undefined;
  #incompleteReason: string | undefined;
  #calls = 0;
  #refused = false;

  constructor(api: ApiIdentity, origin: ThinkingOrigin) {
    this.#api = api;
    this.#origin = origin;
  }

  event({ event: name, data }: SseEvent, out: StreamEvent[]): void {
    let event: WireEvent | null;
    try {
      event = JSON.parse(data) as WireEvent | null;
    } catch {
      // A named error event is the API's error whatever its data (some servers send plain text).
      if (name === "error") throw this.#failure(errorOf(data));
      throw new StreamFailure(`${this.#api.label} sent a malformed stream event`, true);
    }
    if (name === "error" && event?.type !== "error") throw this.#failure(errorOf(event));
    if (!event || typeof event !== "object") return;
    switch (event.type) {
      case "response.output_text.delta":
      case "response.function_call_arguments.delta":
        return this.#delta(event, event.delta, out);
      case "response.reasoning_summary_text.delta": {
        const item = this.#item(event);
        if (item && item.summaryPart !== (event.summary_index ?? 0)) {
          if (item.streamed) this.#push(item, "\n\n", out);
          item.summaryPart = event.summary_index ?? 0;
        }
        return this.#delta(event, event.delta, out);
      }
      case "response.refusal.delta":
        this.#refused = true;
        return this.#delta(event, event.delta, out);
      case "response.output_item.added":
        return this.#added(event, out);
      case "response.output_item.done":
        return this.#itemDone(event, out);
      case "response.function_call_arguments.done": {
        // Some servers send the arguments only whole, here.
        const item = this.#item(event);
        if (item && !item.streamed && event.arguments) this.#push(item, event.arguments, out);
        return;
      }
      case "response.completed":
      case "response.incomplete":
        this.#status = event.type === "response.completed" ? "completed" : "incomplete";
        this.#incompleteReason = event.response?.incomplete_details?.reason;
        this.usage = readUsage(event.response?.usage);
        this.done = true;
        for (const item of this.#items) if (!item.stopped) this.#stop(item, out);
        return;
      case "response.failed":
        throw this.#failure(parseApiError(event.response ?? {}));
      case "error":
        throw this.#failure(errorOf(event));
      // Every other event (created, in_progress, content parts, the `.done`
      // events that repeat what the deltas said) adds nothing; unknown ones
      // are ignored, as the API adds new kinds over time.
    }
  }

  finish(): End {
    if (!this.#status) throw new StreamFailure(`${this.#api.label} closed the stream before the response finished`, true);
    const end: End = { type: "end", stopReason: this.#stopReason(), usage: this.usage };
    if (this.#incompleteReason === "content_filter") end.errorMessage = `${this.#api.label}'s content filter stopped the response`;
    if (this.#refused) end.errorMessage = "The model declined to answer (refusal)";
    return end;
  }

  #stopReason(): StopReason {
    if (this.#refused || this.#incompleteReason === "content_filter") return "error";
    // An incomplete response is cut off: a function call in it is never run.
    if (this.#status === "incomplete") return "length";
    return this.#calls > 0 ? "toolUse" : "stop";
  }

  #failure(info: ApiErrorInfo): StreamFailure {
    return new StreamFailure(describeStreamError(this.#api, info), RETRYABLE_STREAM_ERROR.test(`${info.code} ${info.type}`), info);
  }

  #item(event: WireEvent): Item | undefined {
    return (event.item_id !== undefined ? this.#byId.get(event.item_id) : undefined) ?? (event.output_index !== undefined ? this.#byOutput[event.output_index] : undefined);
  }

  #delta(event: WireEvent, text: string | undefined, out: StreamEvent[]): void {
    const item = this.#item(event);
    if (item && text) this.#push(item, text, out);
  }

  #push(item: Item, text: string, out: StreamEvent[]): void {
    item.streamed = true;
    out.push({ type: "delta", index: item.index, text });
  }

  #added(event: WireEvent, out: StreamEvent[]): void {
    const wire = event.item;
    let block: ContentBlock;
    if (wire?.type === "message") {
      block = { type: "text", text: "" };
      if (wire.phase) block.phase = wire.phase;
    } else if (wire?.type === "reasoning") block = { type: "thinking", thinking: "" };
    else if (wire?.type === "function_call") {
      block = { type: "toolUse", id: wire.call_id || `call_${this.#next}`, name: wire.name ?? "", input: "" };
      this.#calls++;
    } else return;
    const item: Item = { index: this.#next++, kind: block.type, streamed: false, summaryPart: 0, stopped: false };
    this.#items.push(item);
    if (wire.id) this.#byId.set(wire.id, item);
    if (event.output_index !== undefined) this.#byOutput[event.output_index] = item;
    out.push({ type: "blockStart", index: item.index, block });
    if (wire.type === "function_call" && wire.arguments) this.#push(item, wire.arguments, out);
  }

  /** The whole item: what its deltas did not carry (all of it, from a server that sends none), and reasoning's encrypted content. */
  #itemDone(event: WireEvent, out: StreamEvent[]): void {
    const wire = event.item;
    const item = this.#item({ item_id: wire?.id, output_index: event.output_index });
    if (!wire || !item || item.stopped) return;
    if (!item.streamed) {
      const whole =
        item.kind === "text" ? wire.content?.map((part) => part.text ?? part.refusal ?? "").join("")
        : item.kind === "thinking" ? wire.summary?.map((part) => part.text ?? "").join("\n\n")
        : wire.arguments;
      if (whole) this.#push(item, whole, out);
    }
    if (item.kind === "thinking" && wire.encrypted_content) out.push({ type: "signature", index: item.index, signature: wire.encrypted_content, origin: this.#origin });
    this.#stop(item, out);
  }

  #stop(item: Item, out: StreamEvent[]): void {
    item.stopped = true;
    out.push({ type: "blockStop", index: item.index });
  }
}

/** The `error` event's error: flat ({type: "error", code, message}) as the document has it, or nested under `error` as servers send it. */
function errorOf(event: unknown): ApiErrorInfo {
  const info = parseApiError(event);
  return info.type === "error" ? { ...info, type: undefined } : info;
}

/**
 * The usage in awl's terms: `input_tokens` counts the whole prompt, so the
 * cached part is taken out of it; reasoning tokens are part of the output.
 */
function readUsage(wire: ResponseUsage | null | undefined): Usage | undefined {
  if (!wire) return undefined;
  const count = (value: unknown) => (typeof value === "number" && value >= 0 ? value : 0);
  const cached = count(wire.input_tokens_details?.cached_tokens);
  const usage: Usage = { input: Math.max(0, count(wire.input_tokens) - cached), output: count(wire.output_tokens) };
  if (wire.input_tokens_details) usage.cacheRead = cached;
  const reasoning = count(wire.output_tokens_details?.reasoning_tokens);
  if (reasoning) usage.reasoning = reasoning;
  return usage;
}

/**
 * Refusals awl can answer by asking again without something, each at most
 * once per request: the reasoning sent back (not this caller's, or no longer
 * decryptable: a key or account switch the fingerprint could not tell), the
 * reasoning parameters (a model awl's table took for a reasoning one), and
 * `max_output_tokens` (a model that does not take it). The last two are
 * remembered for the model.
 */
const REFUSALS = [
  { kind: "reasoningItems", pattern: /invalid_encrypted_content|not issued to this caller|encrypted content .*could not be (?:verified|decrypted)/i },
  { kind: "notReasoning", pattern: /(?:'reasoning[.\w]*'|encrypted content) (?:is )?not supported with this model/i },
  { kind: "noMaxOutputTokens", pattern: /'max_output_tokens' is not supported|unsupported parameter: 'max_output_tokens'/i },
] as const;
type Refusal = (typeof REFUSALS)[number]["kind"];

export interface ResponsesStreamOptions {
  api: ApiIdentity;
  origin: ThinkingOrigin;
  url: string;
  headers: Record<string, string>;
  env: Record<string, string | undefined>;
  /** What the API said models do not take, kept by the provider for later requests. */
  limits: ModelLimits;
}

/** One request through the Responses API, asked again after each refusal it can answer (see REFUSALS). */
export async function* streamResponses(request: StreamRequest, options: ResponsesStreamOptions): AsyncGenerator<StreamEvent> {
  const answered = new Set<Refusal>();
  for (;;) {
    const refusal = yield* attempt(request, options, !answered.has("reasoningItems"), answered);
    if (!refusal) return;
    answered.add(refusal);
    if (refusal === "reasoningItems") yield { type: "notice", text: `${options.api.label} refused the reasoning carried over from earlier in the session; asked again without it` };
    else options.limits[refusal].add(request.model);
  }
}

/** Streams one request; returns what the API refused, having yielded no end, when it is a refusal still to answer. */
async function* attempt(request: StreamRequest, options: ResponsesStreamOptions, reasoning: boolean, answered: Set<Refusal>): AsyncGenerator<StreamEvent, Refusal | undefined> {
  const body = requestBody(request, { origin: options.origin, reasoning }, options.limits);
  const sent: Record<Refusal, boolean> = {
    reasoningItems: body.input.some((item) => item.type === "reasoning"),
    notReasoning: body.include !== undefined || body.reasoning !== undefined,
    noMaxOutputTokens: body.max_output_tokens !== undefined,
  };
  let shown = false;
  for await (const event of streamWithRetries({
    api: options.api,
    url: options.url,
    headers: options.headers,
    body: jsonBody(body, "input"),
    model: request.model,
    signal: request.signal,
    env: options.env,
    createParser: () => new ResponsesStreamParser(options.api, options.origin),
  })) {
    if (event.type === "end" && event.stopReason === "error" && !event.aborted && !shown) {
      const refusal = REFUSALS.find(({ kind, pattern }) => sent[kind] && !answered.has(kind) && pattern.test(event.errorMessage ?? ""));
      if (refusal) return refusal.kind;
    }
    if (event.type !== "retry") shown = true;
    yield event;
  }
  return undefined;
}
