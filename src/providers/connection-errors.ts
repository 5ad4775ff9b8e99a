// What went wrong when no answer came at all (fetch threw before a response),
// in the words a person checks their setup with: the host, one of a few kinds
// (refused, DNS, timeout, TLS), and the variable that names the host. Also how
// often such a failure is worth trying again: a closed port on this machine or
// a name that does not resolve will not change in a few seconds, and a
// certificate awl refuses will not change at all.

import { MAX_ATTEMPTS } from "./retry";

export type ConnectionKind = "refused" | "dns" | "timeout" | "tls" | "reset" | "other";

const WORDS: Record<ConnectionKind, string> = {
  refused: "connection refused",
  dns: "host not found (DNS)",
  timeout: "timed out",
  tls: "TLS handshake failed",
  reset: "connection closed",
  other: "connection failed",
};

/** The kind of a fetch failure, from the error's code (Bun sets Node's names: ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED…). */
export function connectionKind(error: unknown): ConnectionKind {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  const c = typeof code === "string" ? code : "";
  if (c === "ECONNREFUSED" || c === "ConnectionRefused") return "refused";
  if (c === "ENOTFOUND" || c === "EAI_AGAIN" || c === "EAI_NONAME" || c === "DNSException") return "dns";
  if (c === "ETIMEDOUT" || c === "ConnectionTimeout" || name === "TimeoutError") return "timeout";
  if (c === "EPROTO" || /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(c)) return "tls";
  if (c === "ECONNRESET" || c === "ConnectionClosed" || c === "EPIPE") return "reset";
  return "other";
}

export function connectionWords(kind: ConnectionKind): string {
  return WORDS[kind];
}

/** localhost, 127.0.0.0/8, ::1, 0.0.0.0: a server on this machine, which is there or is not. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || host === "0.0.0.0" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * How many tries a failure of this kind gets: one for TLS (a certificate or a
 * port that does not speak TLS stays so), two for a refused local port or a
 * host that does not resolve (one more in case it was starting, or a blip),
 * the full budget for the rest.
 */
export function connectionAttempts(kind: ConnectionKind, url: URL): number {
  if (kind === "tls") return 1;
  if (kind === "dns" || (kind === "refused" && isLoopback(url.hostname))) return 2;
  return MAX_ATTEMPTS;
}
