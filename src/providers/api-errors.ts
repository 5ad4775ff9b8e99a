// Turning what an API says when it fails into one line a person can act on.
// Both APIs wrap errors as `{ error: { type?, code?, message } }` (Anthropic
// adds an outer `type: "error"`), in an HTTP error body or as a stream event.
// Keys never reach a message: servers sometimes echo them back.

/** Who is being talked to, for messages. */
export interface ApiIdentity {
  /** "Anthropic", "OpenAI". */
  label: string;
  keyVariable: string;
  baseUrlVariable: string;
  /** Strings that must never appear in a message (the API key). */
  secrets: string[];
}

export interface ApiErrorInfo {
  type?: string;
  code?: string;
  message?: string;
}

/** A failure the stream driver decides to retry or surface. */
export class StreamFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
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
  const error = (value as { error?: unknown } | null)?.error;
  if (typeof error === "string") return { message: error };
  if (!error || typeof error !== "object") return {};
  const { type, code, message } = error as Record<string, unknown>;
  return {
    type: typeof type === "string" ? type : undefined,
    code: typeof code === "string" ? code : undefined,
    message: typeof message === "string" ? message : undefined,
  };
}

const CONTEXT_OVERFLOW = /context.length|context window|prompt is too long|too many tokens|maximum context/i;

/** The one line for an HTTP error status. */
export function describeHttpError(api: ApiIdentity, status: number, info: ApiErrorInfo, model: string, url: string): string {
  const said = info.message ? `: ${info.message}` : "";
  const kind = info.code ?? info.type;
  let line: string;
  if (status === 401) line = `${api.label} rejected the API key (401): check ${api.keyVariable}`;
  else if (status === 403) line = `${api.label} refused the request (403${kind ? ` ${kind}` : ""})${said}`;
  else if (status === 404 && /model/i.test(info.message ?? ""))
    line = `${api.label} does not know the model "${model}" (404): choose another with --model or /model`;
  else if (status === 404) line = `${api.label} answered 404 Not Found for ${url}: check ${api.baseUrlVariable}`;
  else if (kind === "insufficient_quota")
    line = `${api.label} quota exhausted (429 insufficient_quota): check your plan and billing`;
  else if (info.code === "context_length_exceeded" || (status === 400 && CONTEXT_OVERFLOW.test(info.message ?? "")))
    line = `The conversation is too long for ${model}${said}: start a new session or choose a model with a larger context window`;
  else if (status === 413) line = `The request is too large for ${api.label} (413)${said}${said.endsWith(".") ? "" : "."} This conversation is too long to send: start a new session.`;
  else line = `${api.label} API error ${status}${kind ? ` ${kind}` : ""}${said}`;
  return clean(line, api.secrets);
}

/** The one line for an error the API reported inside the stream. */
export function describeStreamError(api: ApiIdentity, info: ApiErrorInfo): string {
  const kind = info.code ?? info.type;
  return clean(`${api.label} stream error${kind ? ` (${kind})` : ""}: ${info.message ?? "no details"}`, api.secrets);
}

/** One line, bounded, with every secret and anything shaped like a key removed. */
export function clean(text: string, secrets: readonly string[]): string {
  let line = text.replace(/\s+/g, " ").trim();
  for (const secret of secrets) if (secret.length >= 4) line = line.split(secret).join("[redacted]");
  line = line.replace(/\b(sk-[A-Za-z0-9]{0,4})[A-Za-z0-9_*-]{8,}/g, "$1…");
  return line.length > 400 ? `${line.slice(0, 399)}…` : line;
}
