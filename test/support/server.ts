// The faithful provider server all of awl's tests use instead of the network.
// One Bun.serve on 127.0.0.1 speaks Anthropic Messages (POST /v1/messages),
// OpenAI Chat Completions (POST /v1/chat/completions) and OpenAI's Responses
// API (POST /v1/responses). A test scripts the
// answers (one Reply per request, whatever the endpoint); the server records
// every request and rejects, with the real status and error text, what the
// real API would reject. It also plays each model's context window (refusing
// an overflow as the API does) and prompt cache (reporting cache reads and
// writes in the usage as the API would), both counted in promptTokens().
//
//   const server = await startTestServer();
//   server.reply({ blocks: [{ type: "text", text: "hi" }] });
//   // ANTHROPIC_BASE_URL=server.anthropicUrl  OPENAI_BASE_URL=server.openaiUrl
//   expect(server.requests[0]!.status).toBe(200);
//   await server.stop();

import { anthropicErrorBody, anthropicErrorType, checkAnthropicAuth, checkAnthropicBetas, continuesTurn, interleaved, validateAnthropic } from "./anthropic-protocol";
import { ANTHROPIC_OVERLOADED_EVENT, anthropicMessage, renderAnthropic } from "./anthropic-stream";
import { asDisplayed, checkThinkingForm, ThinkingBinding } from "./anthropic-thinking";
import { type AnthropicOverflowStyle, type OpenAIOverflowStyle, type ResponsesOverflowStyle, anthropicOverflow, forModel, openaiOverflow, responsesOverflow } from "./context-window";
import { OPENAI_MIDSTREAM_ERROR, checkOpenAIAuth, openaiCompletion, openaiErrorBody, openaiFault, renderOpenAI, validateOpenAI } from "./openai-protocol";
import { ReasoningSealer, cacheKeyOf, renderResponses, validateResponses, type ResponsesFailure } from "./responses-protocol";
import { AnthropicPromptCache, OPENAI_MIN_CACHED_TOKENS, OpenAIPromptCache, anthropicMinCacheableTokens } from "./prompt-cache";
import { type Reply, Signer, blocksOf, isHttpFault, randomId, usageOf } from "./script";
import { SSE_HEADERS, sseBody } from "./sse";
import { answerModels, type ModelsOptions } from "./models-endpoint";

export type { Fault, Reply, ReplyBlock, StopKind } from "./script";
export type { AnthropicOverflowStyle, OpenAIOverflowStyle, ResponsesOverflowStyle } from "./context-window";
export { RETIRED_ANTHROPIC, TODAYS_ANTHROPIC, type ServedModel } from "./models-endpoint";
export { promptTokens } from "./prompt";
export { LOOKBACK_BLOCKS, anthropicMinCacheableTokens, openaiCachedTokens } from "./prompt-cache";

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body (undefined if it did not parse). */
  body: any;
  rawBody: string;
  /** Date.now() when it arrived. */
  time: number;
  /** performance.now() when its headers arrived, before its body was read (benchmarks time the client with it). */
  headersAt: number;
  /** performance.now() when its body had been read whole (the upload's end), before it was parsed. */
  bodyAt: number;
  /** 200 when accepted (a stream or JSON answer followed); the error status otherwise. */
  status?: number;
  /** The error body sent, when rejected. */
  error?: string;
}

export interface TestServerOptions {
  anthropicKey?: string;
  openaiKey?: string;
  /** More OpenAI keys the server takes (another account: encrypted reasoning issued to one is refused from the other). */
  otherOpenaiKeys?: string[];
  /** When set, other model names get the provider's 404 "model not found". */
  knownModels?: string[];
  /** Models that think always beyond those the docs name (anthropic-thinking.ts): a model newer than awl's own table. */
  alwaysThinking?: string[];
  /** Ids the API no longer serves: a request naming one gets the provider's 404 (Anthropic: not_found_error "model: <id>"). */
  retiredModels?: string[];
  /**
   * The models endpoints' lists (models-endpoint.ts). Absent for a protocol:
   * it has no models endpoint (404), as a compatible server may not.
   */
  models?: ModelsOptions;
  /** Reject what the real APIs reject (default true). Auth is always checked. */
  strict?: boolean;
  /**
   * Each model's context window in tokens (as promptTokens() counts them): one
   * number for every model, or by model id (models not listed have none).
   * Default: none. A request over it is refused as `overflowStyle` says.
   */
  contextWindow?: number | Record<string, number>;
  /** How an overflow is answered, per protocol (defaults: "prompt_too_long", "context_length_exceeded"). */
  overflowStyle?: { anthropic?: AnthropicOverflowStyle; openai?: OpenAIOverflowStyle; responses?: ResponsesOverflowStyle };
  /**
   * The shortest prompt prefix a cache keeps, in tokens: one number for every
   * model of both protocols, or by model id. Default: Anthropic's per-model
   * minimum (anthropicMinCacheableTokens) and OpenAI's 1024.
   */
  minCacheableTokens?: number | Record<string, number>;
}

export interface TestServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** ANTHROPIC_BASE_URL: the host; clients add /v1/messages. */
  anthropicUrl: string;
  /** OPENAI_BASE_URL: ends in /v1; clients add /chat/completions. */
  openaiUrl: string;
  anthropicKey: string;
  openaiKey: string;
  /** Queue replies; each request (either endpoint) that passes validation takes the next one. */
  reply(...replies: Reply[]): void;
  /** Every request, accepted or not, in arrival order (the models endpoints' apart, in modelRequests). */
  requests: RecordedRequest[];
  /** Every GET of a models endpoint, in arrival order. */
  modelRequests: { path: string; search: string; headers: Record<string, string>; status: number }[];
  /** Runs before auth, validation and the reply; if it throws, the request gets a 500 carrying the message. */
  onRequest?: (request: RecordedRequest) => void | Promise<void>;
  /** Answers a request that passed validation when no scripted reply is queued: a model that reacts to what it is sent. */
  respond?: (request: RecordedRequest) => Reply;
  /** Replies not yet consumed. */
  pending(): number;
  stop(): Promise<void>;
}

type Protocol = "anthropic" | "openai" | "responses";
const PATHS: Record<string, Protocol> = { "/v1/messages": "anthropic", "/v1/chat/completions": "openai", "/v1/responses": "responses" };

/** The Messages API's request size limit (its docs: 32 MB, answered 413 request_too_large). */
export const ANTHROPIC_MAX_REQUEST_BYTES = 32 * 1024 * 1024;

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const anthropicKey = options.anthropicKey ?? "test-anthropic-key";
  const openaiKey = options.openaiKey ?? "test-openai-key";
  const strict = options.strict ?? true;
  const signer = new Signer();
  const binding = new ThinkingBinding(signer);
  const minimum = (fallback: (model: string) => number) => (model: string) => forModel(options.minCacheableTokens, model) ?? fallback(model);
  const anthropicCache = new AnthropicPromptCache(minimum(anthropicMinCacheableTokens));
  const openaiCache = new OpenAIPromptCache(minimum(() => OPENAI_MIN_CACHED_TOKENS));
  const sealer = new ReasoningSealer();
  const queue: Reply[] = [];
  let stopServer!: () => void;
  const stopped = new Promise<void>((resolve) => (stopServer = resolve));

  const errorBody = (protocol: Protocol, status: number, message: string | undefined, type?: string, code?: string) =>
    protocol === "anthropic"
      ? anthropicErrorBody(type ?? anthropicErrorType(status), message ?? "Internal server error")
      : openaiErrorBody({ ...openaiFault(status, code, message), ...(type ? { type } : {}) });

  async function handle(request: Request): Promise<Response> {
    const headersAt = performance.now();
    const path = new URL(request.url).pathname;
    // Anthropic's edge refuses a Messages request over 32 MB by its length, before reading it.
    if (strict && path === "/v1/messages" && Number(request.headers.get("content-length")) > ANTHROPIC_MAX_REQUEST_BYTES) {
      const error = anthropicErrorBody("request_too_large", defaultFaultMessage("anthropic", 413, undefined)!);
      handleApi.requests.push({ method: request.method, path, headers: Object.fromEntries(request.headers), body: undefined, rawBody: "", time: Date.now(), headersAt, bodyAt: headersAt, status: 413, error });
      return new Response(error, { status: 413, headers: { "content-type": "application/json" } });
    }
    const models = answerModels(request, path, { models: options.models, anthropicKey, openaiKey });
    if (models) {
      handleApi.modelRequests.push({ path, search: new URL(request.url).search, headers: Object.fromEntries(request.headers), status: models.status });
      return models;
    }
    const rawBody = await request.text();
    const bodyAt = performance.now();
    let body: any;
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    const record: RecordedRequest = { method: request.method, path, headers: Object.fromEntries(request.headers), body, rawBody, time: Date.now(), headersAt, bodyAt };
    handleApi.requests.push(record);

    const protocol: Protocol | null = PATHS[path] ?? null;
    // Each API names its request id header differently; clients may log it.
    const idHeader = protocol !== "anthropic" ? { "x-request-id": "req_" + randomId(32) } : { "request-id": "req_011C" + randomId(20) };
    const reject = (status: number, text: string, headers: Record<string, string> = {}) => {
      record.status = status;
      record.error = text;
      return new Response(text, { status, headers: { "content-type": "application/json", ...idHeader, ...headers } });
    };
    if (!protocol || request.method !== "POST") {
      const message = `test server: no such endpoint ${request.method} ${path} (expected POST /v1/messages, /v1/chat/completions or /v1/responses)`;
      return reject(404, anthropicErrorBody("not_found_error", message));
    }

    try {
      await handleApi.onRequest?.(record);
    } catch (error) {
      return reject(500, errorBody(protocol, 500, `test server: onRequest threw: ${error instanceof Error ? error.message : String(error)}`));
    }

    let betas: string[] = [];
    if (protocol === "anthropic") {
      const problem = checkAnthropicAuth(request.headers, anthropicKey);
      if (problem) return reject(problem.status, anthropicErrorBody(problem.type, problem.message));
      const beta = checkAnthropicBetas(request.headers);
      if ("status" in beta) return reject(beta.status, anthropicErrorBody(beta.type, beta.message));
      betas = beta.betas;
      if (body === undefined) return reject(400, anthropicErrorBody("invalid_request_error", "There was an error parsing the body of your request as JSON."));
      const invalid = strict ? (validateAnthropic(body, { signer, knownModels: options.knownModels, betas }) ?? checkThinkingForm(body, options.alwaysThinking) ?? binding.check(body)) : null;
      if (invalid) return reject(invalid.status, anthropicErrorBody(invalid.type, invalid.message));
    } else {
      const key = openaiKeyOf(request.headers);
      const problem = checkOpenAIAuth(request.headers, key) ?? (body === undefined ? validateOpenAI(body) : null);
      if (problem) return reject(problem.status, openaiErrorBody(problem));
      const invalid = !strict ? null : protocol === "openai" ? validateOpenAI(body, options.knownModels) : validateResponses(body, { key, sealer, knownModels: options.knownModels });
      if (invalid) return reject(invalid.status, openaiErrorBody(invalid));
    }

    const model = typeof body?.model === "string" ? body.model : "unknown";
    if (options.retiredModels?.includes(model)) {
      const message = protocol === "anthropic" ? `model: ${model}` : `The model \`${model}\` does not exist or you do not have access to it.`;
      return reject(404, errorBody(protocol, 404, message, protocol === "anthropic" ? "not_found_error" : "invalid_request_error", "model_not_found"));
    }
    const window = forModel(options.contextWindow, model);
    let streamFailure: ResponsesFailure | undefined;
    if (window !== undefined) {
      if (protocol === "responses") {
        const overflow = responsesOverflow(body, window, options.overflowStyle?.responses);
        if (overflow && "status" in overflow) return reject(overflow.status, overflow.body);
        streamFailure = overflow ?? undefined;
      } else {
        const overflow = protocol === "anthropic" ? anthropicOverflow(body, window, options.overflowStyle?.anthropic) : openaiOverflow(body, window, options.overflowStyle?.openai);
        if (overflow) return reject(overflow.status, overflow.body);
      }
    }

    // An overflow the stream reports still opens a stream: it needs no script.
    const scripted = streamFailure ? {} : (queue.shift() ?? handleApi.respond?.(record));
    if (!scripted) {
      const message = `test server: no scripted reply for request #${handleApi.requests.length} (POST ${path}); call server.reply(...) first`;
      return reject(500, errorBody(protocol, 500, message));
    }
    const reply = protocol === "anthropic" ? asDisplayed(asTheModelThinks(scripted, body, betas), body) : scripted;

    const fault = reply.fault;
    if (isHttpFault(fault)) {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
      if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
      const message = fault.message ?? defaultFaultMessage(protocol, fault.status, body?.model);
      return reject(fault.status, errorBody(protocol, fault.status, message, fault.errorType, fault.code), headers);
    }

    record.status = 200;
    if (protocol === "anthropic") binding.record(body, reply);
    // The request is processed: the caches see it, whatever usage the reply scripts.
    const usage = usageOf(reply, protocol === "anthropic" ? anthropicCache.account(body, model) : protocol === "responses" ? openaiCache.account(body, model, "responses", cacheKeyOf(body, model)) : openaiCache.account(body, model));
    if (body?.stream !== true || reply.nonStream === "json") {
      const answer =
        protocol === "anthropic" ? anthropicMessage(reply, model, usage, signer)
        : protocol === "openai" ? openaiCompletion(reply, model, usage)
        : { id: "resp_" + randomId(40), object: "response", status: "completed", model, output: [] };
      return Response.json(answer, { headers: idHeader });
    }
    if (reply.nonStream) return new Response(reply.nonStream.body, { headers: { "content-type": reply.nonStream.contentType, ...idHeader } });
    const frames = reply.raw !== undefined
      ? [reply.raw]
      : protocol === "anthropic"
        ? renderAnthropic(reply, model, usage, signer)
        : protocol === "openai"
          ? renderOpenAI(reply, model, usage, body?.stream_options?.include_usage === true)
          : renderResponses(reply, model, usage, body, (reasoning) => sealer.seal(openaiKeyOf(request.headers), model, reasoning), streamFailure);
    const errorFrame = (f: Extract<Reply["fault"], { midStream: string }>) =>
      f.midStream === "errorEvent" ? `event: error\ndata: ${JSON.stringify(f.data)}\n\n` : protocol === "anthropic" ? ANTHROPIC_OVERLOADED_EVENT : protocol === "openai" ? OPENAI_MIDSTREAM_ERROR : RESPONSES_MIDSTREAM_ERROR;
    const midStream = fault && "midStream" in fault ? { action: fault.midStream, afterEvents: fault.afterEvents, errorFrame: errorFrame(fault) } : undefined;
    const stream = sseBody({ frames, delayMs: reply.delayMs, splitBytes: reply.splitBytes, midStream, signal: request.signal, stopped });
    return new Response(stream, { headers: { ...SSE_HEADERS, ...idHeader } });
  }

  /** The key a request is answered for: the one it gave, when the server takes it, else the server's own (so auth refuses it). */
  function openaiKeyOf(headers: Headers): string {
    const given = headers.get("authorization")?.match(/^Bearer (.*)$/)?.[1];
    return given && options.otherOpenaiKeys?.includes(given) ? given : openaiKey;
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // A stalled stream must stay open until the client gives up, not until
    // Bun's default 10 s idle timeout closes it.
    idleTimeout: 0,
    fetch: handle,
  });

  const url = `http://127.0.0.1:${server.port}`;
  const handleApi: TestServer = {
    url,
    anthropicUrl: url,
    openaiUrl: `${url}/v1`,
    anthropicKey,
    openaiKey,
    requests: [],
    modelRequests: [],
    reply(...replies) {
      queue.push(...replies);
    },
    pending: () => queue.length,
    async stop() {
      stopServer();
      await server.stop(true);
    },
  };
  return handleApi;
}

/**
 * The reply as the model would give it. With thinking on and no interleaved
 * thinking, the model thinks once, at the start of the turn (Anthropic's
 * extended-thinking docs): a request that continues a tool loop gets its
 * answer without the thinking a script may hold. With interleaved thinking
 * (the beta header, a Claude 4 model) it thinks after tool results too.
 */
function asTheModelThinks(reply: Reply, body: any, betas: string[]): Reply {
  const thinking = body?.thinking?.type === "enabled" || body?.thinking?.type === "adaptive";
  const interleaves = body?.thinking?.type === "adaptive" || interleaved(String(body?.model), betas);
  if (!thinking || interleaves || !continuesTurn(body)) return reply;
  return { ...reply, blocks: blocksOf(reply).filter((b) => b.type !== "thinking" && b.type !== "redactedThinking") };
}

/** What the Responses API sends part-way through a stream when it is overloaded: the `error` event, nested as the servers send it. */
const RESPONSES_MIDSTREAM_ERROR = `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "server_error", code: "server_error", message: "The server is overloaded or not ready yet.", param: null }, sequence_number: 2 })}\n\n`;

function defaultFaultMessage(protocol: Protocol, status: number, model: unknown): string | undefined {
  if (protocol !== "anthropic") return undefined; // openaiFault has the real wording per status
  const messages: Record<number, string> = {
    400: "Invalid request",
    401: "invalid x-api-key",
    403: "Your API key does not have permission to use the specified resource.",
    404: `model: ${String(model)}`,
    413: "Request exceeds the maximum allowed number of bytes.",
    429: "This request would exceed the rate limit for your organization. Please try again later.",
    500: "Internal server error",
    529: "Overloaded",
  };
  return messages[status] ?? "Internal server error";
}
