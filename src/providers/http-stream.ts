// The HTTP side shared by both providers: POST, read SSE, hand each event to
// the protocol's parser, and handle every way that can fail. Failures before
// anything was shown are retried (with a `retry` event first so the UI can
// say so); after that the caller gets the partial content and an error end,
// unless the API itself said in the stream that the answer failed in a way
// worth another try (overloaded): that answer starts again (`restart`).

import type { ContextOverflow, Remedy, StreamEvent, Usage } from "./provider";
import { clean, contextOverflow, describeHttpError, describeNotAStream, describeOverflow, httpErrorRemedy, notAnEventStream, parseApiError, StreamFailure, type ApiIdentity } from "./api-errors";
import { connectionAttempts, connectionKind, connectionWords } from "./connection-errors";
import { isRetryableStatus, MAX_ATTEMPTS, retryBaseMs, retryDelayMs, sleep } from "./retry";
import { sseBatches, type SseEvent } from "./sse";
import { fetchBody, type JsonBody } from "./json-body";

/** Turns one response's SSE events into stream events; one per attempt. */
export interface StreamParser {
  /** Pushes what the event means onto `out`; throws StreamFailure for an error event. */
  event(event: SseEvent, out: StreamEvent[]): void;
  /** True once the terminal event arrived: the rest of the body is not needed. */
  readonly done: boolean;
  readonly usage: Usage | undefined;
  /** The end event once the body is over; throws StreamFailure if the response was cut short. */
  finish(): Extract<StreamEvent, { type: "end" }>;
}

export interface HttpStreamRequest {
  api: ApiIdentity;
  url: string;
  headers: Record<string, string>;
  /** Sent as it is on every attempt. */
  body: JsonBody;
  model: string;
  signal: AbortSignal;
  env: Record<string, string | undefined>;
  createParser(): StreamParser;
}

const DEFAULT_IDLE_MS = 90_000;

interface Failure {
  message: string;
  retryable: boolean;
  shown: boolean;
  usage?: Usage;
  headers?: Headers;
  /** The prompt did not fit: never retried, and the end event says so. */
  overflow?: ContextOverflow;
  /** What the person can do about it (the end event carries it). */
  remedy?: Remedy;
  /** Tries this failure is worth, when fewer than MAX_ATTEMPTS (a refused local port, an unknown host). */
  attempts?: number;
  /** What to check, said after the last try ("check ANTHROPIC_BASE_URL"). */
  check?: string;
  /** The API itself said, in the stream, that this answer failed and is worth asking again (overloaded): retried even after part of it was shown. */
  restartable?: boolean;
}

export async function* streamWithRetries(request: HttpStreamRequest): AsyncGenerator<StreamEvent> {
  const baseMs = retryBaseMs(request.env);
  for (let attempt = 1; ; attempt++) {
    // The attempt yields whole batches (one per body chunk): one async step per
    // chunk inside, and only this loop pays one per event.
    const run = attemptOnce(request);
    let step: IteratorResult<StreamEvent[], Failure | undefined>;
    while (!(step = await run.next()).done) for (const event of step.value) yield event;
    const failure = step.value;
    if (!failure) return;
    if (request.signal.aborted) return yield interrupted(failure.usage);
    const attempts = failure.attempts ?? MAX_ATTEMPTS;
    const again = failure.retryable && (!failure.shown || failure.restartable);
    if (!again || attempt >= attempts) {
      const tries = again && attempt > 1 ? ` (gave up after ${attempt} tries)` : "";
      const errorMessage = `${failure.message}${tries}${failure.check ? `: ${failure.check}` : ""}`;
      const end: Extract<StreamEvent, { type: "end" }> = { type: "end", stopReason: "error", errorMessage, usage: failure.usage };
      if (failure.overflow) end.overflow = failure.overflow;
      if (failure.remedy) end.remedy = failure.remedy;
      return yield end;
    }
    const delayMs = retryDelayMs(attempt, failure.headers, baseMs);
    yield { type: "retry", attempt, attempts, delayMs, reason: failure.message, ...(failure.shown ? { restart: true as const } : {}) };
    await sleep(delayMs, request.signal);
    if (request.signal.aborted) return yield interrupted(undefined);
  }
}

/** One request. Yields what arrives, a batch per chunk; returns a Failure, or nothing when it ended with its `end` event. */
async function* attemptOnce(request: HttpStreamRequest): AsyncGenerator<StreamEvent[], Failure | undefined> {
  const { api, signal } = request;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  signal.addEventListener("abort", onAbort, { once: true });
  const idleMs = idleTimeoutMs(request.env);
  const watchdog = new IdleWatchdog(idleMs, () => controller.abort(new Error("idle")));
  // Silence is judged on the stream alone: a large body taking its time to
  // upload is not the server being silent, so the clock restarts as fetch
  // takes each chunk, and for the last time when the whole body is handed over.
  let shown = false;
  let parser: StreamParser | undefined;
  const fail = (message: string, retryable: boolean, headers?: Headers, overflow?: ContextOverflow): Failure => ({
    message: clean(message, api.secrets),
    retryable: retryable && !overflow,
    shown,
    usage: parser?.usage,
    headers,
    ...(overflow ? { overflow } : {}),
  });
  // An error event in the stream may be an overflow too (LM Studio and compatible servers send them so).
  const failStream = ({ message, retryable, info }: StreamFailure): Failure => {
    const overflow = info && contextOverflow(undefined, info);
    if (info && overflow) return fail(describeOverflow(api, request.model, info), false, undefined, overflow);
    // The API's own error event (overloaded, say) is the same failure as its HTTP 529: worth another try, whatever arrived before it.
    return { ...fail(message, retryable), ...(info && retryable ? { restartable: true } : {}) };
  };
  try {
    const { body, headers } = fetchBody(request.body);
    watchdog.touch();
    const response = await fetch(request.url, {
      method: "POST",
      headers: { ...request.headers, ...headers },
      body: body instanceof ReadableStream ? watchdog.watchUpload(body) : body,
      signal: controller.signal,
    });
    watchdog.uploading = false; // answered (an early refusal may not have taken all of it)
    watchdog.touch();
    if (!response.ok) {
      const info = parseApiError(await response.text().catch(() => ""));
      const message = describeHttpError(api, response.status, info, request.model, request.url);
      const overflow = contextOverflow(response.status, info);
      const remedy = httpErrorRemedy(response.status, info, request.model);
      return { ...fail(message, isRetryableStatus(response.status, info.code ?? info.type), response.headers, overflow), ...(remedy ? { remedy } : {}) };
    }
    // A 200 that is plainly not an event stream (a proxy's HTML page, a server
    // that ignored "stream": true) will not become one if asked again.
    const contentType = response.headers.get("content-type") ?? "";
    if (notAnEventStream(contentType)) return fail(describeNotAStream(api, contentType, await response.text().catch(() => ""), request.url), false);
    if (!response.body) return fail(`${api.label} sent an empty response`, true);
    parser = request.createParser();
    for await (const batch of sseBatches(response.body)) {
      watchdog.touch();
      const out: StreamEvent[] = [];
      let failure: StreamFailure | undefined;
      try {
        for (const event of batch) parser.event(event, out);
      } catch (error) {
        // An event of a shape the parser did not expect is the server's fault, not the connection's.
        failure = error instanceof StreamFailure ? error : new StreamFailure(`${api.label} sent an unexpected stream event: ${String(error)}`, true);
      }
      // Events parsed before a failure in the same chunk are still delivered.
      if (out.length) {
        shown = true;
        yield out;
      }
      if (failure) return failStream(failure);
      if (parser.done) break;
    }
    yield [parser.finish()];
    return undefined;
  } catch (error) {
    if (signal.aborted) return fail("Interrupted", false);
    if (watchdog.fired) {
      const what = watchdog.uploading ? "took none of the request" : "sent nothing";
      return fail(`${api.label} ${what} for ${idleMs < 1000 ? `${idleMs} ms` : `${Math.round(idleMs / 1000)} s`}`, true);
    }
    if (error instanceof StreamFailure) return failStream(error);
    if (!parser) return unreachable(request, error, fail);
    // Bun appends advice for the programmer ("pass `verbose: true` ... to fetch()"): no use to the person reading it.
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s*For more information, pass `verbose: true`.*$/s, "");
    return fail(`The connection to ${api.label} (${new URL(request.url).origin}) failed: ${reason}`, true);
  } finally {
    watchdog.stop();
    signal.removeEventListener("abort", onAbort);
    controller.abort(); // releases the connection if we stopped reading early
  }
}

/**
 * No response at all: the host, what kind of failure, and the variable that
 * names the host, which is what a person checks (a typo, a closed port, a
 * local server not started). With the variable unset, the host is the
 * provider's own: the network is the likelier culprit.
 */
function unreachable(request: HttpStreamRequest, error: unknown, fail: (message: string, retryable: boolean) => Failure): Failure {
  const url = new URL(request.url);
  const kind = connectionKind(error);
  const variable = request.api.baseUrlVariable;
  const check = request.env[variable] ? `check ${variable}` : `check the network connection, or ${variable}`;
  const attempts = connectionAttempts(kind, url);
  return { ...fail(`Could not reach ${request.api.label} at ${url.host}: ${connectionWords(kind)}`, attempts > 1), attempts, check };
}

function interrupted(usage: Usage | undefined): StreamEvent {
  return { type: "end", stopReason: "error", errorMessage: "Interrupted", aborted: true, usage };
}

/** AWL_STREAM_IDLE_TIMEOUT_MS (tests set it small), else 90 s. */
function idleTimeoutMs(env: Record<string, string | undefined>): number {
  const value = Number(env.AWL_STREAM_IDLE_TIMEOUT_MS);
  return env.AWL_STREAM_IDLE_TIMEOUT_MS && Number.isFinite(value) && value > 0 ? value : DEFAULT_IDLE_MS;
}

/**
 * Fires when no bytes arrived for `ms`. Touching it per chunk is a clock
 * read, not a timer reset: one timer ticks every quarter period.
 *
 * Silence is counted only while awl runs. A tick that comes much later than
 * asked means awl itself was not running (stopped by Ctrl+Z or SIGSTOP until
 * SIGCONT, or its event loop blocked): it could not have read anything
 * meanwhile, whatever the server sent, so the gap beyond one tick is not
 * counted. Each tick still counts at least its own length, so a watchdog on a
 * machine too loaded to tick on time still fires.
 */
class IdleWatchdog {
  fired = false;
  /** True while fetch is still taking the request body. */
  uploading = false;
  #last = performance.now();
  #lastTick = this.#last;
  readonly #tick: number;
  #timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.#tick = ms / 4;
    this.#timer = setTimeout(this.#check, this.#tick);
  }

  touch(): void {
    this.#last = performance.now();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  /** `body` as fetch reads it: each chunk taken counts as activity, and the silence clock starts again once the last is. */
  watchUpload(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    this.uploading = true;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        this.touch();
        const next = await reader.read().catch((error: unknown) => {
          controller.error(error);
          return undefined;
        });
        if (!next) return;
        this.touch();
        if (next.done) {
          this.uploading = false;
          controller.close();
        } else controller.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
  }

  #check = (): void => {
    const now = performance.now();
    const gap = now - this.#lastTick;
    if (gap > 2 * this.#tick) this.#last = Math.min(now, this.#last + gap - this.#tick);
    this.#lastTick = now;
    const idle = now - this.#last;
    if (idle < this.ms) {
      this.#timer = setTimeout(this.#check, Math.min(this.#tick, this.ms - idle));
      return;
    }
    this.fired = true;
    this.onIdle();
  };
}
