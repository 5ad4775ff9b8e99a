// Turning what an API says when it fails into one line a person can act on.
// Both APIs wrap errors as `{ error: { type?, code?, message } }` (Anthropic
// adds an outer `type: "error"`), in an HTTP error body or as a stream event;
// older vLLM sends the fields at the top level, LM Studio a bare string.
// Keys never reach a message: servers sometimes echo them back.

import type { Connection, ContextOverflow, Remedy } from "./provider";

/** Who is being talked to, for messages. */
export interface ApiIdentity {
  /** The provider's label, from its row ("Anthropic"). */
  label: string;
  keyVariable: string;
  baseUrlVariable: string;
  /** Strings that must never appear in a message (the API key). */
  secrets: string[];
}

/** A connection as its messages name it: the key is the one secret. */
export function identityOf(connection: Connection): ApiIdentity {
  const { label, keyVariable, baseUrlVariable, apiKey } = connection;
  return { label, keyVariable, baseUrlVariable, secrets: apiKey ? [apiKey] : [] };
}

export interface ApiErrorInfo {
  type?: string;
  code?: string;
  message?: string;
  /** A context size the error states in a field of its own (llama.cpp's `n_ctx`). */
  contextSize?: number;
}

/** Error kinds in an OpenAI-style stream that mean "try again" (the service's overloads, and OpenRouter's and vLLM's forwarded ones). */
export const RETRYABLE_STREAM_ERROR = /overload|server_error|rate_limit|timeout|unavailable/i;

/** A failure the stream driver decides to retry or surface. */
export class StreamFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The API's own error, when the failure is an error event in the stream. */
    readonly info?: ApiErrorInfo,
  ) {
    super(message);
  }
}

export function parseApiError(body: unknown): ApiErrorInfo {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return { message: body.trim() || undefined };
    }
  }
  if (!value || typeof value !== "object") return {};
  const outer = value as Record<string, unknown>;
  const error = "error" in outer ? outer.error : typeof outer.message === "string" ? outer : undefined;
  if (typeof error === "string") return { message: error };
  if (!error || typeof error !== "object") return {};
  // `code` is a number on vLLM, llama.cpp and OpenRouter (the HTTP status): not a kind worth naming.
  const { type, code, message, n_ctx } = error as Record<string, unknown>;
  return {
    type: typeof type === "string" ? type : undefined,
    code: typeof code === "string" ? code : undefined,
    message: typeof message === "string" ? message : undefined,
    contextSize: typeof n_ctx === "number" && n_ctx > 0 ? n_ctx : undefined,
  };
}

/** Error kinds that mean "the prompt does not fit": OpenAI (and Groq, vLLM's newer builds), llama.cpp, Anthropic's 413. */
const OVERFLOW_KINDS = new Set(["context_length_exceeded", "exceed_context_size_error", "request_too_large"]);

/**
 * How APIs word "the prompt does not fit", each seen in the wild:
 * Anthropic "prompt is too long: N tokens > M maximum", "input length and
 * `max_tokens` exceed context limit: N + X > M"; OpenAI "This model's maximum
 * context length is M tokens", "Your input exceeds the context window of this
 * model", "Input tokens exceed the configured limit of M tokens" (gpt-5);
 * vLLM and DeepSeek as OpenAI; OpenRouter "This endpoint's maximum context
 * length is M tokens"; llama.cpp "the request exceeds the available context
 * size"; llama-cpp-python "Requested tokens (N) exceed context window of M";
 * LM Studio "... loaded with context length of only M tokens", "(n_keep: N >=
 * n_ctx: M)", "Cannot truncate prompt with n_keep (N) >= n_ctx (M)", "Context
 * size has been exceeded"; Mistral "too large for model with M maximum context
 * length"; Hugging Face TGI "`inputs` tokens + `max_new_tokens` must be <= M".
 * Not overflows, and not matched: a max_tokens above the model's output cap,
 * a tokens-per-minute rate limit ("Request too large for gpt-4o ... (TPM)").
 */
const OVERFLOW_WORDING =
  /prompt is too long|exceeds? (?:the )?(?:available )?context (?:limit|window|size|length)|maximum context length|configured limit of \d|context length of only|context size has been exceeded|n_keep\b.*\bn_ctx|`inputs` tokens \+ `max_new_tokens` must be/i;

/** Where each wording states the limit M (the first group). */
const STATED_LIMIT = [
  /tokens? > ([\d,]+) maximum/i,
  /\d \+ [\d,]+ > ([\d,]+)/,
  /maximum context length is ([\d,]+)/i,
  /configured limit of ([\d,]+)/i,
  /context length of only ([\d,]+)/i,
  /context window of ([\d,]+)/i,
  /n_ctx\W{1,3}([\d,]+)/i,
  /([\d,]+) maximum context length/i,
  /must be <= ([\d,]+)/i,
];

/** Where a wording states the prompt's own tokens N (the first group): Anthropic's two, vLLM's. */
const STATED_INPUT = [/([\d,]+) \+ [\d,]+ > [\d,]+/, /([\d,]+) tokens > [\d,]+ maximum/i, /\(([\d,]+) in the messages, [\d,]+ in the completion\)/i];

/**
 * Whether a failed request failed because the prompt is too long for the
 * model, and the window the error states (absent when it states none, as a
 * 413 or "exceeds the context window" does). `status` is undefined for an
 * error that arrived inside a stream. Pure; never retried by the caller.
 */
export function contextOverflow(status: number | undefined, info: ApiErrorInfo): ContextOverflow | undefined {
  const message = info.message ?? "";
  const worded = (status === undefined || (status >= 400 && status < 500)) && OVERFLOW_WORDING.test(message);
  const kind = OVERFLOW_KINDS.has(info.code ?? "") || OVERFLOW_KINDS.has(info.type ?? "");
  if (!worded && !kind && status !== 413) return undefined;
  const input = STATED_INPUT.map((pattern) => tokens(pattern.exec(message)?.[1])).find((n) => n !== undefined);
  const stated = input === undefined ? {} : { input };
  for (const pattern of STATED_LIMIT) {
    const limit = tokens(pattern.exec(message)?.[1]);
    if (limit) return { limit, ...stated };
  }
  return info.contextSize ? { limit: info.contextSize, ...stated } : stated;
}

function tokens(text: string | undefined): number | undefined {
  const value = Number(text?.replaceAll(",", ""));
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * The one line for an overflow. It says what happened and what the API said,
 * not what to do: the agent compacts, and says more only when that cannot help.
 */
export function describeOverflow(api: ApiIdentity, model: string, info: ApiErrorInfo, status?: number): string {
  const said = info.message?.trim().replace(/\.$/, "") || `${api.label} ${status ?? "stream error"}${info.type ? ` ${info.type}` : ""}`;
  return clean(`The conversation is too long for ${model} (${said})`, api.secrets);
}

/** A 404 that names the model: the API does not know it. */
function unknownModel(status: number, info: ApiErrorInfo): boolean {
  return status === 404 && /model/i.test(info.message ?? "");
}

/** What the person can do about an HTTP error, beyond what its line says (worded by whoever shows it: see Remedy). */
export function httpErrorRemedy(status: number, info: ApiErrorInfo, model: string): Remedy | undefined {
  return unknownModel(status, info) && !contextOverflow(status, info) ? { kind: "model", model } : undefined;
}

/** The one line for an HTTP error status: what happened; httpErrorRemedy gives what to do about it, when that is a choice of awl's. */
export function describeHttpError(api: ApiIdentity, status: number, info: ApiErrorInfo, model: string, url: string): string {
  if (contextOverflow(status, info)) return describeOverflow(api, model, info, status);
  const said = info.message ? `: ${info.message}` : "";
  const kind = info.code ?? info.type;
  let line: string;
  if (status === 401) line = `${api.label} rejected the API key (401): check ${api.keyVariable}`;
  else if (status === 403) line = `${api.label} refused the request (403${kind ? ` ${kind}` : ""})${said}`;
  else if (unknownModel(status, info)) line = `${api.label} does not serve the model "${model}" (404: retired, or never an id)`;
  else if (status === 404) line = `${api.label} answered 404 Not Found for ${url}: check ${api.baseUrlVariable}`;
  else if (kind === "insufficient_quota")
    line = `${api.label} quota exhausted (429 insufficient_quota): check your plan and billing`;
  else line = `${api.label} API error ${status}${kind ? ` ${kind}` : ""}${said}`;
  return clean(line, api.secrets);
}

/** The one line for an error the API reported inside the stream. */
export function describeStreamError(api: ApiIdentity, info: ApiErrorInfo): string {
  const kind = info.code ?? info.type;
  return clean(`${api.label} stream error${kind ? ` (${kind})` : ""}: ${info.message ?? "no details"}`, api.secrets);
}

/**
 * A content type that is certainly not `text/event-stream`: JSON, HTML or
 * XML. Anything else (none at all, text/plain) is read as SSE all the same:
 * some compatible servers label their streams loosely.
 */
export function notAnEventStream(contentType: string): boolean {
  return /\b(?:json|html|xml)\b/i.test(contentType);
}

/**
 * The one line for a 200 that is not an event stream: the API's error when
 * the body is one (some proxies answer errors with 200), else what came
 * instead, so the person can tell a login page from a server that does not
 * stream.
 */
export function describeNotAStream(api: ApiIdentity, contentType: string, body: string, url: string): string {
  const origin = URL.canParse(url) ? new URL(url).origin : url;
  const type = contentType.split(";")[0]!.trim();
  if (/json/i.test(type)) {
    const info = parseApiError(body);
    const kind = info.code ?? info.type;
    if (kind || info.message) return clean(`${api.label} answered 200 with an error instead of a stream${kind ? ` (${kind})` : ""}: ${info.message ?? "no details"}`, api.secrets);
    return clean(`${api.label} (${origin}) answered with JSON instead of an event stream: the server does not stream (it ignored "stream": true)`, api.secrets);
  }
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
  const page = /html/i.test(type) ? `an HTML page${title ? ` ("${title.slice(0, 80)}")` : ""}` : type;
  return clean(`${api.label} (${origin}) answered with ${page}, not an event stream: check ${api.baseUrlVariable}`, api.secrets);
}

/** One line, bounded, with every secret and anything shaped like a key removed. */
export function clean(text: string, secrets: readonly string[]): string {
  let line = text.replace(/\s+/g, " ").trim();
  for (const secret of secrets) if (secret.length >= 4) line = line.split(secret).join("[redacted]");
  line = line.replace(/\b(sk-[A-Za-z0-9]{0,4})[A-Za-z0-9_*-]{8,}/g, "$1…");
  return line.length > 400 ? `${line.slice(0, 399)}…` : line;
}
