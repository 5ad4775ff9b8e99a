// OpenAI Chat Completions, streaming: `POST {base}/chat/completions`, where
// the base already ends in /v1 (as the official SDK has it). The stream is `data:` chunks and
// a final `[DONE]`; the same parser serves the compatible servers (Ollama,
// llama.cpp, vLLM, LM Studio, OpenRouter), so it is lenient about their known
// deviations, each noted where it is handled.

import type { ChatCompletionChunk } from "openai/resources/chat/completions/completions";
import type { CompletionUsage } from "openai/resources/completions";
import type { ApiErrorInfo, ApiIdentity } from "./api-errors";
import { describeStreamError, identityOf, parseApiError, RETRYABLE_STREAM_ERROR, StreamFailure } from "./api-errors";
import { jsonBody } from "./json-body";
import { streamWithRetries, type StreamParser } from "./http-stream";
import { requestBody } from "./openai-wire";
import { originOf } from "./origins";
import type { Connection, Provider, StopReason, StreamEvent, StreamRequest, Usage, WireApi } from "./provider";
import { streamResponses } from "./responses";
import { noLimits } from "./responses-wire";
import type { SseEvent } from "./sse";
import { USER_AGENT } from "./user-agent";

type End = Extract<StreamEvent, { type: "end" }>;
type WireDelta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string | null; reasoning?: string | null };
type WireToolCall = { index?: number; id?: string; function?: { name?: string; arguments?: unknown } };
type WireChunk = Partial<ChatCompletionChunk> & { error?: unknown };
/** CompletionUsage as the compatible servers send it too: OpenRouter adds cache writes, DeepSeek names its cache hits apart. */
type WireUsage = Partial<CompletionUsage> & {
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  prompt_cache_hit_tokens?: number;
};


export class OpenAIStreamParser implements StreamParser {
  done = false;
  usage: Usage | undefined;
  #api: ApiIdentity;
  #next = 0;
  /** The open text or thinking block: a different kind of delta closes it. */
  #open: { kind: "text" | "thinking"; index: number } | undefined;
  /** Tool calls by their key (wire index, else id) -> awl block index. */
  #tools = new Map<string | number, number>();
  #lastTool = -1;
  /** Blocks started and not yet stopped. */
  #unstopped: number[] = [];
  #finishReason: string | undefined;
  /** A `delta.refusal` arrived: the model declined, and its words are the answer's text. */
  #refused = false;

  constructor(api: ApiIdentity) {
    this.#api = api;
  }

  event({ event, data }: SseEvent, out: StreamEvent[]): void {
    if (data === "[DONE]") {
      this.done = true;
      return;
    }
    // Chat Completions reports a failure as a data chunk holding `error`; some
    // servers send a named `event: error` instead, its data the error wrapped,
    // bare ({message, type, code}), not JSON, or even `null` (the SDK reads
    // all of them as the API's error). Any of them is the API's error, never a
    // dropped connection to retry.
    if (event === "error") throw this.#failure(parseApiError(data));
    let chunk: WireChunk | null;
    try {
      chunk = JSON.parse(data) as WireChunk | null;
    } catch {
      throw new StreamFailure(`${this.#api.label} sent a malformed stream chunk`, true);
    }
    if (!chunk || typeof chunk !== "object") return; // `null` or a bare value: nothing in it
    if (chunk.error) throw this.#failure(parseApiError(chunk));
    if (chunk.usage) this.usage = readUsage(chunk.usage as WireUsage);
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta as WireDelta | undefined;
    if (delta) {
      // llama.cpp and vLLM send `reasoning_content`, Ollama and OpenRouter `reasoning`.
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) this.#text("thinking", reasoning, out);
      if (delta.content) this.#text("text", delta.content, out);
      // A refusal streams in its own field. It is what the model said, so it is
      // shown and kept as the answer's text, and the response ends as a refusal.
      if (delta.refusal) {
        this.#refused = true;
        this.#text("text", delta.refusal, out);
      }
      if (delta.tool_calls) for (const call of delta.tool_calls as WireToolCall[]) this.#toolCall(call, out);
    }
    if (choice.finish_reason && !this.#finishReason) {
      this.#finishReason = choice.finish_reason;
      for (const index of this.#unstopped) out.push({ type: "blockStop", index });
      this.#unstopped = [];
    }
  }

  finish(): End {
    // Some compatible servers end the body without `[DONE]`: a finish reason is enough.
    if (!this.#finishReason) {
      throw new StreamFailure(`${this.#api.label} closed the stream before the response finished`, true);
    }
    const out: End = { type: "end", stopReason: this.#stopReason(this.#finishReason), usage: this.usage };
    if (this.#finishReason === "content_filter") out.errorMessage = `${this.#api.label}'s content filter stopped the response`;
    if (this.#refused) {
      out.stopReason = "error";
      out.errorMessage = "The model declined to answer (refusal)";
    }
    return out;
  }

  #failure(info: ApiErrorInfo): StreamFailure {
    return new StreamFailure(describeStreamError(this.#api, info), RETRYABLE_STREAM_ERROR.test(`${info.code} ${info.type} ${info.message}`), info);
  }

  #stopReason(reason: string): StopReason {
    if (reason === "length") return "length";
    if (reason === "content_filter") return "error";
    // Ollama and others say "stop" even when the answer is tool calls.
    if (reason === "tool_calls" || reason === "function_call" || this.#tools.size > 0) return "toolUse";
    return "stop";
  }

  #text(kind: "text" | "thinking", text: string, out: StreamEvent[]): void {
    if (this.#open?.kind !== kind) {
      if (this.#open) this.#stop(this.#open.index, out);
      const index = this.#start();
      this.#open = { kind, index };
      const block = kind === "text" ? { type: "text" as const, text: "" } : { type: "thinking" as const, thinking: "" };
      out.push({ type: "blockStart", index, block });
    }
    out.push({ type: "delta", index: this.#open.index, text });
  }

  #toolCall(call: WireToolCall, out: StreamEvent[]): void {
    // The key: the wire index; servers that omit it are matched by id, and a
    // fragment with neither continues the last call.
    const key = call.index ?? call.id;
    let index = key === undefined ? this.#lastTool : (this.#tools.get(key) ?? -1);
    if (index < 0) {
      if (this.#open) this.#stop(this.#open.index, out);
      this.#open = undefined;
      index = this.#start();
      this.#tools.set(key ?? index, index);
      const id = call.id || `call_${index}`;
      out.push({ type: "blockStart", index, block: { type: "toolUse", id, name: call.function?.name ?? "", input: "" } });
    }
    this.#lastTool = index;
    const args = call.function?.arguments;
    // Some servers send the arguments as an object, whole, instead of string fragments.
    const text = typeof args === "string" ? args : args && typeof args === "object" ? JSON.stringify(args) : "";
    if (text) out.push({ type: "delta", index, text });
  }

  #start(): number {
    const index = this.#next++;
    this.#unstopped.push(index);
    return index;
  }

  #stop(index: number, out: StreamEvent[]): void {
    this.#unstopped = this.#unstopped.filter((i) => i !== index);
    out.push({ type: "blockStop", index });
  }
}

/**
 * The final chunk's usage in awl's terms. `prompt_tokens` counts the whole
 * prompt, cached part included, so `input` (the uncached part) is what is
 * left after the cache reads (and OpenRouter's cache writes). A server that
 * reports no cache figures (most compatible ones) leaves input = prompt_tokens.
 */
function readUsage(wire: WireUsage): Usage {
  const count = (value: unknown) => (typeof value === "number" && value >= 0 ? value : undefined);
  const cacheRead = count(wire.prompt_tokens_details?.cached_tokens) ?? count(wire.prompt_cache_hit_tokens);
  const cacheWrite = count(wire.prompt_tokens_details?.cache_write_tokens);
  const prompt = count(wire.prompt_tokens) ?? 0;
  const usage: Usage = { input: Math.max(0, prompt - (cacheRead ?? 0) - (cacheWrite ?? 0)), output: count(wire.completion_tokens) ?? 0 };
  if (cacheRead !== undefined) usage.cacheRead = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWrite = cacheWrite;
  return usage;
}

/** The headers that authenticate a request (and a catalogue fetch): a bearer key, when there is one. */
export function bearerHeaders(apiKey: string | undefined): Record<string, string> {
  return { "user-agent": USER_AGENT, ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
}

/** The two OpenAI protocols: the Responses API (OpenAI's own) or Chat Completions (what compatible servers speak). */
export type OpenAIApi = Extract<WireApi, "openai-chat" | "openai-responses">;

export class OpenAIProvider implements Provider {
  readonly name: string;
  readonly #api: ApiIdentity;
  /** What the Responses API said this account's models do not take, for the provider's life. */
  readonly #limits = noLimits();

  constructor(
    private readonly connection: Connection,
    readonly api: OpenAIApi,
  ) {
    this.name = connection.provider;
    this.#api = identityOf(connection);
  }

  stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    const { baseUrl, apiKey, env } = this.connection;
    const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream", ...bearerHeaders(apiKey) };
    if (this.api === "openai-responses") {
      const origin = originOf(this.api, baseUrl, apiKey);
      return streamResponses(request, { api: this.#api, origin, url: `${baseUrl}/responses`, headers, env, limits: this.#limits });
    }
    return streamWithRetries({
      api: this.#api,
      url: `${baseUrl}/chat/completions`,
      headers,
      body: jsonBody(requestBody(request), "messages"),
      model: request.model,
      signal: request.signal,
      env,
      createParser: () => new OpenAIStreamParser(this.#api),
    });
  }
}
