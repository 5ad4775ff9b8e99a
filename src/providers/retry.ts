// When and how long to wait before trying a request again. Shared by both
// providers; the decisions follow the official SDKs (retry-after-ms, then
// retry-after as seconds or an HTTP date; 408/409/429/5xx) plus what they do
// not cover: an exhausted quota is not retried, and a capped wait.

export const MAX_ATTEMPTS = 6;
/** A server asking for longer than this is not worth waiting on in an interactive tool. */
export const MAX_DELAY_MS = 60_000;
const DEFAULT_BASE_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

/** Statuses that mean "try again later"; 529 is Anthropic's "overloaded". */
export function isRetryableStatus(status: number, errorCode?: string): boolean {
  if (errorCode === "insufficient_quota") return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The wait before attempt `failedAttempt + 1`: the server's retry-after when
 * it sent one (capped), else exponential backoff from `baseMs` with jitter so
 * that many clients do not retry in step.
 */
export function retryDelayMs(failedAttempt: number, headers: Headers | undefined, baseMs: number, now = Date.now()): number {
  const asked = serverDelayMs(headers, now);
  if (asked !== undefined) return Math.min(asked, MAX_DELAY_MS);
  const backoff = Math.min(baseMs * 2 ** (failedAttempt - 1), MAX_BACKOFF_MS);
  return Math.round(backoff * (0.75 + Math.random() * 0.25));
}

function serverDelayMs(headers: Headers | undefined, now: number): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** AWL_RETRY_BASE_MS (tests set it small), else one second. */
export function retryBaseMs(env: Record<string, string | undefined>): number {
  const value = Number(env.AWL_RETRY_BASE_MS);
  return Number.isFinite(value) && value >= 0 && env.AWL_RETRY_BASE_MS ? value : DEFAULT_BASE_MS;
}

/** Resolves after `ms`, or early when `signal` aborts (the caller checks which). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
