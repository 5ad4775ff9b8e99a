import { describe, expect, test } from "bun:test";
import { clean, describeHttpError, type ApiIdentity } from "../../src/providers/api-errors";
import { isRetryableStatus, MAX_DELAY_MS, retryDelayMs } from "../../src/providers/retry";

describe("retry policy", () => {
  test("retries overload, rate limits, timeouts and server errors; never client errors or an exhausted quota", () => {
    for (const status of [408, 409, 429, 500, 502, 503, 529]) expect(isRetryableStatus(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 413, 422]) expect(isRetryableStatus(status)).toBe(false);
    expect(isRetryableStatus(429, "insufficient_quota")).toBe(false);
  });

  test("honours retry-after-ms, retry-after in seconds or as a date, capped", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryDelayMs(1, new Headers({ "retry-after-ms": "250" }), 1000, now)).toBe(250);
    expect(retryDelayMs(1, new Headers({ "retry-after": "3" }), 1000, now)).toBe(3000);
    expect(retryDelayMs(1, new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:05 GMT" }), 1000, now)).toBe(5000);
    expect(retryDelayMs(1, new Headers({ "retry-after": "3600" }), 1000, now)).toBe(MAX_DELAY_MS);
  });

  test("backs off exponentially with jitter when the server does not say", () => {
    for (const attempt of [1, 2, 3, 4]) {
      const delay = retryDelayMs(attempt, undefined, 100);
      expect(delay).toBeGreaterThanOrEqual(0.75 * 100 * 2 ** (attempt - 1));
      expect(delay).toBeLessThanOrEqual(100 * 2 ** (attempt - 1));
    }
  });
});

describe("error lines", () => {
  const api: ApiIdentity = { label: "OpenAI", keyVariable: "OPENAI_API_KEY", baseUrlVariable: "OPENAI_BASE_URL", secrets: ["sk-secret-key-123456"] };
  const url = "http://x/v1/chat/completions";

  test("each common failure names what to do", () => {
    expect(describeHttpError(api, 401, { message: "Incorrect API key provided: sk-secret-key-123456" }, "m", url)).toBe(
      "OpenAI rejected the API key (401): check OPENAI_API_KEY",
    );
    expect(describeHttpError(api, 404, { message: "The model `gpt-x` does not exist", code: "model_not_found" }, "gpt-x", url)).toContain(
      'does not serve the model "gpt-x"',
    );
    expect(describeHttpError(api, 400, { code: "context_length_exceeded", message: "maximum context length is 128000" }, "m", url)).toContain(
      "too long for m",
    );
    expect(describeHttpError(api, 429, { code: "insufficient_quota", message: "You exceeded your quota" }, "m", url)).toContain("quota exhausted");
  });

  test("keys never reach a message, even when the server echoes them", () => {
    const line = describeHttpError(api, 400, { message: "bad key sk-secret-key-123456 and sk-proj-abcdefghijklmnop" }, "m", url);
    expect(line).not.toContain("secret-key");
    expect(line).not.toContain("abcdefghijklmnop");
    expect(clean("a\nb   c", [])).toBe("a b c");
  });
});
