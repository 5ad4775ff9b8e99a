// When no answer comes at all: retries say which try this is and when the
// next one goes, and the final line names the host, the kind of failure and
// the variable to check. A closed port on this machine is given up after two
// tries, a port that does not speak TLS after one. Real sockets throughout:
// a port that was just closed, a plain HTTP server asked for TLS.
import { describe, expect, test } from "bun:test";
import { Conversation } from "../../src/conversation";
import { createProvider } from "../../src/providers";
import { connectionAttempts, connectionKind } from "../../src/providers/connection-errors";
import type { ProviderName, StreamEvent } from "../../src/providers/provider";
import { MAX_ATTEMPTS } from "../../src/providers/retry";
import { collect, endOf } from "./helpers";

/** A port nothing listens on: bound, then closed. */
function closedPort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

const VARIABLES: Record<ProviderName, readonly [key: string, base: string, label: string]> = {
  anthropic: ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "Anthropic"],
  openai: ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OpenAI"],
};

async function ask(name: ProviderName, baseUrl: string): Promise<StreamEvent[]> {
  const [key, base] = VARIABLES[name]!;
  const provider = createProvider(name, { [key]: "sk-test-key-0123456789", [base]: baseUrl, AWL_RETRY_BASE_MS: "2" });
  return collect(
    provider.stream({ model: "m", system: "s", conversation: new Conversation([{ role: "user", content: [{ type: "text", text: "hi" }] }]), tools: [], maxTokens: 100, signal: new AbortController().signal }),
  );
}

describe.each(["anthropic", "openai"] as ProviderName[])("%s", (name) => {
  const [, variable, label] = VARIABLES[name]!;

  test("a refused port on this machine: one retry that says it is attempt 1 of 2, then one line naming the host, the kind and the variable", async () => {
    const port = closedPort();
    const events = await ask(name, `http://127.0.0.1:${port}${name === "openai" ? "/v1" : ""}`);
    const retries = events.filter((e) => e.type === "retry");
    expect(retries).toEqual([{ type: "retry", attempt: 1, attempts: 2, delayMs: expect.any(Number), reason: `Could not reach ${label} at 127.0.0.1:${port}: connection refused` }]);
    expect(endOf(events)).toMatchObject({
      stopReason: "error",
      errorMessage: `Could not reach ${label} at 127.0.0.1:${port}: connection refused (gave up after 2 tries): check ${variable}`,
    });
  });

  test("a port that does not speak TLS, asked for https: TLS, not retried", async () => {
    const plain = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("plain") });
    try {
      const events = await ask(name, `https://127.0.0.1:${plain.port}`);
      expect(events.filter((e) => e.type === "retry")).toEqual([]);
      expect(endOf(events).errorMessage).toBe(`Could not reach ${label} at 127.0.0.1:${plain.port}: TLS handshake failed: check ${variable}`);
    } finally {
      plain.stop(true);
    }
  });
});

describe("the kinds and how many tries each is worth", () => {
  const local = new URL("http://localhost:8080");
  const remote = new URL("https://api.example.com");
  test("from the codes fetch gives", () => {
    expect(connectionKind({ code: "ECONNREFUSED" })).toBe("refused");
    expect(connectionKind({ code: "ENOTFOUND" })).toBe("dns");
    expect(connectionKind({ code: "EAI_AGAIN" })).toBe("dns");
    expect(connectionKind({ name: "TimeoutError" })).toBe("timeout");
    expect(connectionKind({ code: "ETIMEDOUT" })).toBe("timeout");
    expect(connectionKind({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" })).toBe("tls");
    expect(connectionKind({ code: "CERT_HAS_EXPIRED" })).toBe("tls");
    expect(connectionKind({ code: "ERR_TLS_CERT_ALTNAME_INVALID" })).toBe("tls");
    expect(connectionKind({ code: "ECONNRESET" })).toBe("reset");
    expect(connectionKind(new Error("?"))).toBe("other");
  });

  test("refused gives up at once on this machine, not on another; DNS after two; TLS after one", () => {
    expect(connectionAttempts("refused", local)).toBe(2);
    expect(connectionAttempts("refused", new URL("http://127.0.0.2:1"))).toBe(2);
    expect(connectionAttempts("refused", new URL("http://[::1]:1"))).toBe(2);
    expect(connectionAttempts("refused", new URL("http://0.0.0.0:8080"))).toBe(2);
    expect(connectionAttempts("refused", remote)).toBe(MAX_ATTEMPTS);
    expect(connectionAttempts("dns", remote)).toBe(2);
    expect(connectionAttempts("tls", remote)).toBe(1);
    expect(connectionAttempts("timeout", remote)).toBe(MAX_ATTEMPTS);
  });
});
